import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run demo`'s program as a child process. */
async function demo(): Promise<{ stdout: string }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
    cwd: root,
    timeout: 30_000,
  });
  return { stdout };
}

describe('npm run demo', () => {
  it('walks the whole flow, deterministically, and exits 0', async () => {
    const first = await demo();
    const second = await demo();
    expect(second.stdout).toBe(first.stdout);
    for (const line of [
      'written 300 SKUs in 3 requests',
      'page 3/3: 300/300 SKUs',
      'A-1001 (COD, 39.98 EUR to collect): fulfillable',
      'A-1002 (to a blocked country): unfulfillable',
      'A-1003 cancelled: unfulfillable',
      'retry: GET /merchant_api/v1/skus rate limited (429), waiting 50 ms as Retry-After asks',
      'webhook: shipment #1 is at the warehouse (delivered; version 2 says received)',
      'webhook: shipment #1 moved to arrived',
      // Units, not line items: what arrived, of how many, and how many were damaged.
      'webhook: shipment #1 is restocked: 198 of 200 announced units arrived, 2 damaged (2 SKUs)',
      'the receiver answered 200 200 200 200 (every event verified and handled once)',
      '20/20: 19 created, 1 recovered, 0 existing',
      'the same import again: 20 existing, 0 created (nothing doubled)',
      'Done: ',
    ]) {
      expect(first.stdout).toContain(line);
    }
    // Inventory in words that cannot be misread: on hand, reserved, available (the API's `total`),
    // for sale (the API's `stocked`), and why `total` equals `stocked` here.
    expect(first.stdout).toMatch(/SKU\s+warehouse\s+on hand\s+reserved\s+available\s+for sale\n/);
    expect(first.stdout).toMatch(/TEE-001\s+#1\s+118\s+2\s+116\s+116\n/);
    expect(first.stdout).toContain(
      "for sale (the API's `stocked`) = available, as no warehouse holds a buffer back",
    );
  }, 60_000);
});
