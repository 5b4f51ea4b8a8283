/**
 * Exhaustive switches over every status: each must compile with a `never` default, so the status
 * types are exactly the documented values (a new value in the SDK breaks this file on purpose).
 * Shipment and return statuses may be absent (only `id` is documented as required): the check for
 * absence comes first and compiles whether or not the field is optional.
 */
import type {
  Order,
  RestockingShipmentV1,
  RestockingShipmentV2,
  Return,
  Shipment,
  Sku,
} from 'merchant-fulfillment';

export function describeOrder(order: Order): string {
  switch (order.status) {
    case 'fulfillable':
      return 'will be fulfilled';
    case 'unfulfillable':
      return 'blocked or cancelled';
    case 'fulfilled':
      return 'shipped';
    default: {
      const _never: never = order.status;
      return _never;
    }
  }
}

export function describeSku(sku: Sku): string {
  switch (sku.status) {
    case 'active':
      return 'active';
    case 'deleted':
      return 'deleted';
    default: {
      const _never: never = sku.status;
      return _never;
    }
  }
}

export function describeRestockingV1(shipment: RestockingShipmentV1): string {
  switch (shipment.status) {
    case 'created':
    case 'shipped':
    case 'delivered':
    case 'arrived':
    case 'processing':
    case 'on_hold':
      return 'open';
    case 'restocked':
      return 'done';
    case 'cancelled':
      return 'cancelled';
    default: {
      const _never: never = shipment.status;
      return _never;
    }
  }
}

export function describeRestockingV2(shipment: RestockingShipmentV2): string {
  switch (shipment.status) {
    case 'arrived':
    case 'created':
    case 'processing':
    case 'received':
    case 'shipped':
      return 'open';
    case 'restocked':
      return 'done';
    case 'cancelled':
      return 'cancelled';
    default: {
      const _never: never = shipment.status;
      return _never;
    }
  }
}

export function describeShipment(shipment: Shipment): string {
  const status = shipment.status;
  if (status === null || status === undefined) return 'unknown';
  switch (status) {
    case 'waiting_for_picking':
    case 'on_hold':
    case 'picking_assigned':
    case 'in_picking':
    case 'picked':
    case 'in_packing':
    case 'packed':
    case 'in_shipping':
      return 'in the warehouse';
    case 'shipped':
      return 'shipped';
    case 'cancelled':
      return 'cancelled';
    default: {
      const _never: never = status;
      return _never;
    }
  }
}

export function describeReturn(ret: Return): string {
  const status = ret.status;
  if (status === null || status === undefined) return 'unknown';
  switch (status) {
    case 'on_the_way':
      return 'on the way';
    case 'arrived':
    case 'processing':
    case 'action_required':
      return 'in the warehouse';
    case 'handling_completed':
      return 'done';
    default: {
      const _never: never = status;
      return _never;
    }
  }
}
