/**
 * What the compiler says about a request body missing a required field: the first line of its
 * diagnostic names the field (the either-or request types are plain interfaces, not unions, whose
 * first line would name the union instead).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The first line of each diagnostic of `snippet`, compiled beside the sources with strict options. */
function firstLines(snippet: string): string[] {
  const file = `${root}test/schemas/__snippet.ts`;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, snippet, version) : getSourceFile(name, version, ...rest);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0] ?? '');
}

const address = `{ full_name: 'A B', first_name: 'A', line1: 'x', city: 'y', postal_code: '1', country_code: 'DE' }`;

describe('a missing required field is named on the first line of the type error', () => {
  it('in an order, its address and its items (either-or types included)', () => {
    const lines = firstLines(`
      import type { OrderCreateParams, OrderItemParams } from '../../src/schemas/orders.js';
      declare function create(body: OrderCreateParams): void;
      create({ merchant_order_id: 'A', shipping_address: ${address},
        items: [{ merchant_item_id: '1', merchant_sku_id: 'X', quantity: 2 }] });
      create({ merchant_order_id: 'A', shipping_address: { full_name: 'A', last_name: 'B', line1: 'x', postal_code: '1', country_code: 'DE' }, items: [] });
      const item: OrderItemParams = { sku_id: 1, quantity: 2, price_per_unit_in_cents: 1 };
    `);
    expect(lines).toEqual([
      expect.stringMatching(/^Property 'price_per_unit_in_cents' is missing/),
      expect.stringMatching(/^Property 'city' is missing/),
      expect.stringMatching(/^Property 'merchant_item_id' is missing/),
    ]);
  }, 60_000);

  it('in the items of restocking shipments, version 1 and 2', () => {
    const lines = firstLines(`
      import type { RestockingShipmentV1CreateParams, RestockingShipmentV2CreateParams } from '../../src/schemas/restocking-shipments.js';
      const v1: RestockingShipmentV1CreateParams = { warehouse_id: 1, restocking_shipment_items: [{ merchant_sku_id: 'A' }] };
      const v2: RestockingShipmentV2CreateParams = { warehouse_id: 1, delivery_option: 'courier',
        estimated_arrival_date: '2025-01-01', restocking_shipment_items: [{ sku_code: 'A' }] };
    `);
    expect(lines).toEqual([
      expect.stringMatching(/^Property 'announced_quantity' is missing/),
      expect.stringMatching(/^Property 'announced_quantity' is missing/),
    ]);
  }, 60_000);
});
