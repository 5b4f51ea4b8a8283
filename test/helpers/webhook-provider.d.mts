/** A seeded generator of numbers in [0, 1). */
export function seeded(seed: number): () => number;
/** A version 1 restocking shipment status update body. */
export function shipmentBody(i: number, status?: string): string;
/** Delivers `events` events 1–3 times each to the replicas, retrying what gets no 2xx. */
export function deliver(options: {
  events: number;
  replicas: () => readonly string[];
  secret: string;
  createWebhookHeaders: (options: {
    body: string;
    secret: string;
    eventId: string;
  }) => Promise<Record<string, string>>;
  retries?: number;
  concurrency?: number;
  seed?: number;
}): Promise<{ ids: string[]; attempts: number; gaveUp: number; unanswered: number }>;
