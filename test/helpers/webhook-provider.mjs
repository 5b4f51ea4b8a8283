// The provider's side of webhook deliveries, for the cross-process tests and bench B10: each event is
// signed and delivered 1–3 times (duplicates often at once, to different replicas, round-robin), and
// every delivery that gets no 2xx (or no answer) is retried up to `retries` times, 100–300 ms apart.
// Seeded, so a run can be repeated.

/** A small seeded generator (LCG): numbers in [0, 1). */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A body the handler accepts: a version 1 restocking shipment status update. */
export function shipmentBody(i, status = 'restocked') {
  return JSON.stringify({
    id: i + 1,
    merchant_id: 7,
    warehouse_id: 3,
    estimated_arrival_date: null,
    delivery_option: 'postal',
    tracking_code: null,
    po_number: `PO-${i}`,
    supplier_name: null,
    status,
    barcode: null,
    restocking_shipment_items: [],
  });
}

/**
 * Delivers `events` events to `replicas()` (the replica URLs at the moment of each attempt) and
 * resolves with `{ ids, attempts, gaveUp }` once every delivery got a 2xx or ran out of retries.
 * `createWebhookHeaders` signs (the package's own, as the provider signs).
 */
export async function deliver({
  events,
  replicas,
  secret,
  createWebhookHeaders,
  retries = 10,
  concurrency = 40,
  seed = 7,
}) {
  const random = seeded(seed);
  const ids = [];
  let next = 0;
  let attempts = 0;
  let gaveUp = 0;
  let unanswered = 0;
  let turn = 0;

  async function deliverOnce(id, body) {
    const headers = await createWebhookHeaders({ body, secret, eventId: id });
    for (let attempt = 0; attempt <= retries; attempt++) {
      const urls = replicas();
      const url = urls[turn++ % urls.length];
      attempts++;
      try {
        const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // no answer: the replica is down or restarting
        unanswered++;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 + random() * 200));
    }
    gaveUp++;
  }

  async function worker() {
    while (next < events) {
      const i = next++;
      const id = `evt-${i}-${Math.floor(random() * 0x10000)
        .toString(16)
        .padStart(4, '0')}`;
      ids.push(id);
      const body = shipmentBody(i);
      const copies = 1 + Math.floor(random() * 3);
      const delays = Array.from({ length: copies }, (_, c) =>
        c === 0 || random() < 0.5 ? 0 : random() * 300,
      );
      await Promise.all(
        delays.map((ms) =>
          new Promise((resolve) => setTimeout(resolve, ms)).then(() => deliverOnce(id, body)),
        ),
      );
    }
  }

  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ids, attempts, gaveUp, unanswered };
}
