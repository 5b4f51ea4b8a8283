/**
 * The API's one webhook event, "Restocking shipment status updated" (spec section 6): sent when a
 * restocking shipment moves to another status, its body the version 1 shipment. Builds the event
 * for the delivery machinery (`engine/webhook-delivery.ts`) and names the record of its deliveries.
 */
import type { WebhookDelivery, WebhookEvent } from '../engine/webhook-delivery.js';
import type { RestockingStatusV1 } from './restocking-status.js';
import type { RestockingRecord } from './state.js';
import { restockingV1View } from './views.js';

/** What a delivery of the event is about: the shipment and the status it moved to. */
export interface StatusUpdate {
  /** Id of the restocking shipment the event is about. */
  restockingShipmentId: number;
  /** Version 1 status the shipment moved to. */
  status: RestockingStatusV1;
}

/** One webhook delivery: one event to one receiver URL, with its attempts. */
export interface MockWebhookDelivery extends WebhookDelivery, StatusUpdate {
  /** The exact body sent (JSON of the version 1 shipment). */
  body: string;
}

/** The event for a shipment that has just moved to its current status. */
export function statusUpdatedEvent(record: RestockingRecord): WebhookEvent<StatusUpdate> {
  return {
    body: JSON.stringify(restockingV1View(record)),
    about: { restockingShipmentId: record.id, status: record.status },
  };
}
