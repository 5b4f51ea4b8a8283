import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../src/webhooks/index.ts', import.meta.url));
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * Every module specifier imported by the file and by the SDK files it imports, transitively;
 * with `valuesOnly`, type-only imports (`import type …`) are not followed.
 */
function importGraph(entry: string, valuesOnly = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0 && graph.size < 200) {
    const file = queue.shift()!;
    if (graph.has(file)) continue;
    const source = readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(IMPORT)]
      .filter((m) => !valuesOnly || !/^\s*(?:import|export)\s+type\b/.test(m[0]))
      .map((m) => (m[1] ?? m[2])!);
    graph.set(file, specifiers);
    for (const s of specifiers) {
      if (s.startsWith('.')) queue.push(resolve(dirname(file), s.replace(/\.js$/, '.ts')));
    }
  }
  return graph;
}

/** The source of a file without its comments. */
const code = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

describe('webhooks portability (Node, Bun, Deno, Workers, Vercel Edge)', () => {
  const graph = importGraph(ENTRY);
  const files = [...graph.keys()];

  it('follows the import graph of src/webhooks/index.ts', () => {
    for (const module of ['verify', 'crypto', 'dedupe', 'types', 'payload', 'handler']) {
      expect(files.some((f) => f.endsWith(`/src/webhooks/${module}.ts`))).toBe(true);
    }
  });

  it('parses the payload without zod: no value import reaches zod or the validation modules', () => {
    const valueGraph = importGraph(ENTRY, true);
    const reached = [...valueGraph.keys()];
    expect(reached.some((f) => f.endsWith('/src/webhooks/payload.ts'))).toBe(true);
    for (const file of reached) {
      expect(file).not.toMatch(/\/src\/(core\/(validation|parse|lazy|compile)|schemas\/(?!statuses))/);
      for (const s of valueGraph.get(file)!) expect(s, `${file} imports ${s}`).not.toMatch(/^zod/);
    }
  });

  it('imports nothing from Node built-ins', () => {
    const builtins = new Set(builtinModules);
    for (const [file, specifiers] of graph) {
      for (const s of specifiers) {
        expect(s.startsWith('node:') || builtins.has(s), `${file} imports ${s}`).toBe(false);
      }
    }
  });

  it('uses Web Crypto, not Node globals', () => {
    expect(code(fileURLToPath(new URL('../../src/webhooks/crypto.ts', import.meta.url)))).toContain(
      'crypto.subtle',
    );
    for (const file of files) {
      expect(code(file), file).not.toMatch(/\bBuffer\s*[.(]|instanceof Buffer|\bprocess\.|\brequire\(/);
    }
  });
});
