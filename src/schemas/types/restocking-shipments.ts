/** The restocking shipment records, where they were named before they sat beside their schemas. */
export type { RestockingShipmentV1, RestockingShipmentV2 } from '../restocking-shipment-records.js';
