/**
 * `npm run demo`: a merchant's day, run with the real client over HTTP against the embedded mock
 * of the whole API (merchant-fulfillment/testing). Nothing leaves 127.0.0.1.
 *
 *  1. bulk-upsert a catalogue of 300 SKUs
 *  2. list it with `for await`, with a progress line per page
 *  3. place orders: one cash-on-delivery, one to a blocked country; cancel one
 *  4. announce a restocking shipment (API version 2)
 *  5. receive its status webhooks with createWebhookHandler on a local node:http receiver
 *  6. advance it to `restocked` and print the inventory per warehouse
 *  7. import 20 orders with createMany (nothing lost, nothing doubled)
 *
 * The client's event hooks (`client.on`) count the requests and print each retry.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, FulfillmentClient, type Sku } from 'merchant-fulfillment';
import { createMockApi } from 'merchant-fulfillment/testing';

const CATALOGUE_SIZE = 300;
const log = (line = '') => process.stdout.write(`${line}\n`);

// The merchant's webhook endpoint: createWebhookHandler verifies each delivery with the sales
// channel's token (the mock's oldest one), skips repeated event ids and routes by status. The
// payload is the version 1 view: a version 2 shipment moving to `received` arrives as `delivered`.
const TOKENS = ['demo-token-oldest', 'demo-token-new'];
const received: string[] = [];
const handler = createWebhookHandler({
  secret: TOKENS,
  on: {
    delivered: (shipment) => {
      received.push(`shipment #${shipment.id} is at the warehouse (delivered; version 2 says received)`);
    },
    restocked: (shipment) => {
      // Counted in units, summed over the shipment's line items (one per SKU).
      const items = shipment.restocking_shipment_items;
      const units = (pick: (item: (typeof items)[number]) => number | null | undefined) =>
        items.reduce((sum, item) => sum + (pick(item) ?? 0), 0);
      const announced = units((item) => item.announced_quantity);
      const arrived = units((item) => item.arrived_quantity);
      const damaged = units((item) => item.damaged_quantity);
      received.push(
        `shipment #${shipment.id} is restocked: ${arrived} of ${announced} announced units arrived, ` +
          `${damaged} damaged (${items.length} SKUs)`,
      );
    },
  },
  onEvent: (shipment) => {
    received.push(`shipment #${shipment.id} moved to ${shipment.status}`);
  },
});
const receiver = createServer(handler.node);
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/fulfillment`;

// A clock that ticks one second per reading: deterministic timestamps.
let tick = Date.parse('2026-03-02T08:00:00Z');
const clock = () => {
  tick += 1000;
  return new Date(tick);
};
const api = createMockApi({
  tokens: TOKENS,
  blockedCountries: ['KP'],
  webhooks: [receiverUrl],
  now: clock,
});
const server = await api.listen();
const client = new FulfillmentClient({ apiToken: api.token, baseUrl: server.url, logLevel: 'warn' });
// Event hooks: count every answer, print every retry (why, and how long the client waits).
let answers = 0;
client.on('response', () => {
  answers += 1;
});
client.on('retry', (e) => {
  const why = e.reason === 'rate_limited' ? `rate limited (${e.status})` : `${e.reason} (${e.status ?? '-'})`;
  const source = e.fromRetryAfter ? ' as Retry-After asks' : '';
  log(`   retry: ${e.method} ${new URL(e.url).pathname} ${why}, waiting ${e.delayMs} ms${source}`);
});

try {
  log(`Mock Merchant API listening on 127.0.0.1 (token ${api.token})`);
  const { data: warehouses } = await client.warehouses.list();
  log(`Warehouses: ${warehouses.map((w) => `#${w.id} ${String(w.name ?? '')}`).join(', ')}`);

  // 1. Catalogue.
  log();
  log(`1. Bulk-upserting ${CATALOGUE_SIZE} SKUs…`);
  const catalogue = Array.from({ length: CATALOGUE_SIZE }, (_, i) => ({
    merchant_sku_id: `TEE-${String(i + 1).padStart(3, '0')}`,
    name: `T-shirt #${i + 1}`,
    cost_in_cents: 450 + (i % 50),
    weight_in_kg: 0.2,
    country_code_of_origin: 'PT',
  }));
  const upsert = await client.skus.bulkUpsert(catalogue);
  log(`   written ${upsert.written} SKUs in ${upsert.chunks.length} requests`);

  // 2. List it back, page by page.
  log();
  log('2. Listing the catalogue with for await (the first page is rate limited once)…');
  api.injectFault({ method: 'GET', path: '/merchant_api/v1/skus', status: 429, retryAfter: 0.05, times: 1 });
  let seen = 0;
  const byCode = new Map<string, Sku>();
  for await (const page of client.skus.list({ limit: 100 }).pages()) {
    for (const sku of page.data) byCode.set(String(sku.merchant_sku_id), sku);
    seen += page.data.length;
    log(
      `   page ${page.pagination?.current_page}/${page.pagination?.page_count}: ${seen}/${page.pagination?.item_count} SKUs`,
    );
  }
  const tee1 = byCode.get('TEE-001')!;
  const tee2 = byCode.get('TEE-002')!;

  // 3. Orders.
  log();
  log('3. Placing orders…');
  const address = {
    full_name: 'Ada Lovelace',
    first_name: 'Ada',
    last_name: 'Lovelace',
    line1: 'Unter den Linden 1',
    city: 'Berlin',
    postal_code: '10117',
    country_code: 'DE',
  };
  const cod = await client.orders.create({
    merchant_order_id: 'A-1001',
    shipping_address: address,
    items: [{ merchant_item_id: '1', sku_id: tee1.id, quantity: 2, price_per_unit_in_cents: 1999 }],
    payment_method: 'COD',
    total_price_in_cents: 3998,
  });
  log(`   ${cod.merchant_order_id} (COD, 39.98 EUR to collect): ${cod.status}`);
  const blocked = await client.orders.create({
    merchant_order_id: 'A-1002',
    shipping_address: { ...address, city: 'Pyongyang', postal_code: '00000', country_code: 'KP' },
    items: [
      { merchant_item_id: '1', merchant_sku_id: 'TEE-002', quantity: 1, price_per_unit_in_cents: 1999 },
    ],
  });
  log(`   ${blocked.merchant_order_id} (to a blocked country): ${blocked.status}`);
  const later = await client.orders.create({
    merchant_order_id: 'A-1003',
    shipping_address: address,
    items: [{ merchant_item_id: '1', sku_id: tee2.id, quantity: 1, price_per_unit_in_cents: 1999 }],
  });
  await client.orders.cancel(later.id);
  log(`   ${later.merchant_order_id} cancelled: ${(await client.orders.retrieve(later.id)).status}`);

  // 4. Inbound goods.
  log();
  log('4. Announcing a restocking shipment (version 2)…');
  const warehouseId = warehouses[0]!.id;
  const inbound = await client.restockingShipments.v2.create({
    warehouse_id: warehouseId,
    delivery_option: 'courier',
    estimated_arrival_date: '2026-03-10',
    po_number: 'PO-2026-031',
    restocking_shipment_items: [
      { sku_id: tee1.id, announced_quantity: 120 },
      { sku_id: tee2.id, announced_quantity: 80 },
    ],
  });
  log(`   restocking shipment #${inbound.id} to warehouse #${warehouseId}: ${inbound.status}`);

  // 5 and 6. The warehouse works; every status change is a signed webhook.
  log();
  log('5. The warehouse receives it; createWebhookHandler verifies and routes each webhook…');
  for (const status of ['received', 'arrived', 'processing', 'restocked'] as const) {
    // Two of the 120 TEE-001 arrive damaged.
    const quantities = status === 'restocked' ? { damaged: { [tee1.id]: 2 } } : undefined;
    const handled = received.length;
    api.advanceRestockingShipment(inbound.id, status, quantities);
    await api.flushWebhooks(); // each status change is delivered before the next one happens
    if (received.length !== handled + 1) throw new Error(`the ${status} webhook was not handled`);
    log(`   webhook: ${received.at(-1)}`);
  }
  const statusCodes = api.deliveries.map((d) => d.statusCodes.join(','));
  log(`   the receiver answered ${statusCodes.join(' ')} (every event verified and handled once)`);

  log();
  log('6. Inventory per warehouse after restocking:');
  // The API's figures: `reserved` (held for open orders), `total` (available: on hand minus
  // reserved) and `stocked` (available for sale: total minus the warehouse's buffer, none here).
  const rows: string[][] = [['SKU', 'warehouse', 'on hand', 'reserved', 'available', 'for sale']];
  const noBuffer: boolean[] = [];
  for await (const sku of client.skus.list({ merchant_sku_ids: ['TEE-001', 'TEE-002'] })) {
    for (const w of sku.inventory_per_warehouse ?? []) {
      const [reserved, total, stocked] = [w.reserved ?? 0, w.total ?? 0, w.stocked ?? 0];
      noBuffer.push(stocked === total);
      rows.push([
        String(sku.merchant_sku_id),
        `#${w.warehouse_id}`,
        String(reserved + total),
        String(reserved),
        String(total),
        String(stocked),
      ]);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const [i, row] of rows.entries()) {
    log(
      `   ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`,
    );
    if (i === 0) log(`   ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  }
  log("   in units: on hand = reserved (for open orders) + available (the API's `total`);");
  log(
    noBuffer.every(Boolean)
      ? "   for sale (the API's `stocked`) = available, as no warehouse holds a buffer back"
      : "   for sale (the API's `stocked`) = available minus the buffer the warehouse holds back",
  );
  // 7. An import that can neither lose nor double an order.
  log();
  log('7. Importing 20 orders from the shop with createMany (one answer arrives too late)…');
  // The first two orders pass; the mock stores the third, then answers only after the client has
  // given up (200 ms): the client cannot tell whether it exists. It looks it up: 'recovered'.
  api.injectFault({ method: 'POST', path: '/merchant_api/v1/orders', latency: 0, times: 2 });
  api.injectFault({ method: 'POST', path: '/merchant_api/v1/orders', latency: 400, after: true, times: 1 });
  const shopOrders = Array.from({ length: 20 }, (_, i) => ({
    merchant_order_id: `SHOP-${2001 + i}`,
    created_at: `2026-01-15T09:${String(i).padStart(2, '0')}:00Z`, // when the shop took it
    shipping_address: address,
    items: [
      { merchant_item_id: '1', merchant_sku_id: 'TEE-001', quantity: 1, price_per_unit_in_cents: 1999 },
    ],
  }));
  const run = client.orders.createMany(shopOrders, {
    concurrency: 1,
    timeout: 200,
    onProgress: (p) => {
      if (p.done % 10 === 0)
        log(`   ${p.done}/20: ${p.created} created, ${p.recovered} recovered, ${p.existing} existing`);
    },
  });
  const imported = await run.summary();
  log(`   problems: ${imported.problems.length}`);
  const rerun = await client.orders.createMany(shopOrders, { concurrency: 4 }).summary();
  log(`   the same import again: ${rerun.existing} existing, ${rerun.created} created (nothing doubled)`);

  log();
  log(`Done: ${answers} answers from the API.`);
} finally {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await server.close();
}
