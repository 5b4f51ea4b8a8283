/**
 * How `--state` saves (`faces/state-file.ts`): coalesced writes (a burst makes one, at most one in
 * flight, the last change always written), a final save on close, failures reported and retried,
 * and the crash-safe write itself (temporary file, rename, nothing left behind).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { readJsonFile, stateSaver, writeFileAtomic } from '../../../src/testing/faces/state-file.js';

/** A writer whose writes finish when the test says so. */
function gatedWriter() {
  const writes: { text: string; finish: (error?: Error) => void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const write = (_file: string, text: string) =>
    new Promise<void>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      writes.push({
        text,
        finish: (error) => {
          inFlight -= 1;
          if (error) reject(error);
          else resolve();
        },
      });
    });
  return { write, writes, maxInFlight: () => maxInFlight };
}

describe('stateSaver', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a burst of changes makes one write; changes during a write make exactly one more', async () => {
    let value = 0;
    const writer = gatedWriter();
    const saver = stateSaver(
      'f',
      () => value,
      () => {},
      writer.write,
    );
    for (value = 1; value <= 5; value++) saver.schedule();
    value = 5;
    expect(writer.writes).toHaveLength(0); // waits for the burst to end
    await vi.advanceTimersByTimeAsync(20);
    expect(writer.writes.map((w) => w.text)).toEqual(['5\n']);
    value = 6;
    saver.schedule();
    value = 7;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(100);
    expect(writer.writes).toHaveLength(1); // still one in flight
    writer.writes[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(writer.writes.map((w) => w.text)).toEqual(['5\n', '7\n']);
    writer.writes[1]!.finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(writer.writes).toHaveLength(2); // nothing changed since
    expect(writer.maxInFlight()).toBe(1);
  });

  test('close() waits for the write in flight, then always saves once more', async () => {
    let value = 'a';
    const writer = gatedWriter();
    const saver = stateSaver(
      'f',
      () => value,
      () => {},
      writer.write,
    );
    saver.schedule();
    await vi.advanceTimersByTimeAsync(20);
    value = 'b';
    saver.schedule();
    const closed = saver.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(writer.writes).toHaveLength(1);
    writer.writes[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(writer.writes.map((w) => w.text)).toEqual(['"a"\n', '"b"\n']);
    writer.writes[1]!.finish();
    await closed;
    expect(writer.maxInFlight()).toBe(1);
    saver.schedule(); // closed: ignored
    await vi.advanceTimersByTimeAsync(100);
    expect(writer.writes).toHaveLength(2);
  });

  test('a failed write is reported; the next change tries again', async () => {
    const errors: unknown[] = [];
    const writer = gatedWriter();
    const saver = stateSaver(
      'f',
      () => 1,
      (e) => errors.push(e),
      writer.write,
    );
    saver.schedule();
    await vi.advanceTimersByTimeAsync(20);
    writer.writes[0]!.finish(new Error('disk full'));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([new Error('disk full')]);
    saver.schedule();
    await vi.advanceTimersByTimeAsync(20);
    expect(writer.writes).toHaveLength(2);
    writer.writes[1]!.finish();
  });
});

describe('the files', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mf-mock-files-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('writeFileAtomic replaces the file whole and leaves no temporary file', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, '{"new":true}');
    expect(readFileSync(file, 'utf8')).toBe('{"new":true}');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  test('a failed write rejects and leaves no temporary file behind', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old');
    // A directory (not empty) where the target should be: the rename over it fails.
    const blocked = join(dir, 'blocked');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    await expect(writeFileAtomic(blocked, 'x')).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['blocked', 'state.json']);
  });

  test('readJsonFile: undefined for a missing file, the value otherwise, a usage error for bad JSON', async () => {
    expect(await readJsonFile('state', join(dir, 'none.json'))).toBeUndefined();
    writeFileSync(join(dir, 'ok.json'), '{"a":[1]}');
    expect(await readJsonFile('state', join(dir, 'ok.json'))).toEqual({ a: [1] });
    writeFileSync(join(dir, 'bad.json'), '{');
    await expect(readJsonFile('seed', join(dir, 'bad.json'))).rejects.toThrow(
      /^The seed file '.*' is not JSON/,
    );
    await expect(readJsonFile('state', dir)).rejects.toThrow(
      /^The state file '.*' cannot be read \(EISDIR\)/,
    );
  });
});
