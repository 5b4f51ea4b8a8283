import { describe, expect, it } from 'vitest';
import { parseResponse, validateRequest } from '../../src/core/validation.js';
import {
  MISSING_V1_ITEMS_MESSAGE,
  RestockingShipmentItemV1ParamsSchema,
  RestockingShipmentItemV2ParamsSchema,
  RestockingShipmentV1CreateParamsSchema,
  RestockingShipmentV1Schema,
  RestockingShipmentV1UpdateParamsSchema,
  RestockingShipmentV2CreateParamsSchema,
  RestockingShipmentV2ReplaceParamsSchema,
  RestockingShipmentV2Schema,
} from '../../src/schemas/restocking-shipments.js';
import {
  restockingShipmentV1Fixture,
  restockingShipmentV1ShippedFixture,
  restockingShipmentV2CreateParamsFixture,
  restockingShipmentV2Fixture,
} from '../fixtures/restocking-shipments.js';
import { parseKnown, requestIssues, responseIssues, strictIssues } from './helpers.js';

describe('RestockingShipmentV1Schema (response and webhook payload)', () => {
  it('parses a restocked shipment with item quantities and batches', () => {
    const shipment = parseKnown(RestockingShipmentV1Schema, restockingShipmentV1Fixture);
    const item = shipment.restocking_shipment_items?.[0];
    expect(item?.arrived_quantity).toBe(118);
    expect(item?.inventory_batches?.[0]).toEqual({
      id: 901,
      name: 'L-2024-11',
      tracking_code: 'LOT24110',
      expiry_date: '2027-11-30',
      arrived_quantity: 118,
    });
  });

  it('accepts null quantities, dates and codes before restocking', () => {
    const shipment = parseKnown(RestockingShipmentV1Schema, restockingShipmentV1ShippedFixture);
    expect(shipment.estimated_arrival_date).toBeNull();
    expect(shipment.restocking_shipment_items?.[0]?.arrived_quantity).toBeNull();
  });

  it('knows the version 1 statuses (delivered, on_hold) but not received', () => {
    for (const status of ['delivered', 'on_hold', 'created', 'cancelled']) {
      expect(parseKnown(RestockingShipmentV1Schema, { ...restockingShipmentV1Fixture, status }).status).toBe(
        status,
      );
    }
    const body = { ...restockingShipmentV1Fixture, status: 'received', delivery_option: 'drone' };
    expect(parseResponse(RestockingShipmentV1Schema, body, 'lenient').status).toBe('received');
    expect(strictIssues(RestockingShipmentV1Schema, body).map((i) => i.path)).toEqual([
      'delivery_option',
      'status',
    ]);
  });

  it.each([
    ['id as a string', { id: '5521' }, 'id'],
    ['status missing', { status: undefined }, 'status'],
    ['status as a number', { status: 3 }, 'status'],
    [
      'arrived_quantity as a string',
      { restocking_shipment_items: [{ arrived_quantity: '1' }] },
      'restocking_shipment_items[0].arrived_quantity',
    ],
    [
      'batch without id',
      { restocking_shipment_items: [{ inventory_batches: [{ name: 'x' }] }] },
      'restocking_shipment_items[0].inventory_batches[0].id',
    ],
  ])('rejects %s', (_label, patch, path) => {
    expect(
      responseIssues(RestockingShipmentV1Schema, { ...restockingShipmentV1Fixture, ...patch }).map(
        (i) => i.path,
      ),
    ).toContain(path);
  });
});

describe('RestockingShipmentV2Schema (response)', () => {
  it('parses a version 2 shipment, keeping unknown keys', () => {
    const shipment = parseKnown(RestockingShipmentV2Schema, restockingShipmentV2Fixture);
    expect(shipment.dock).toBe('D4');
    expect(shipment.completed_reopens_count).toBe(0);
    expect(shipment.restocking_shipment_items[0]?.sku_code).toBe('LAMP-OIL-500');
  });

  it('knows the version 2 statuses (received) but not on_hold or delivered', () => {
    expect(
      parseKnown(RestockingShipmentV2Schema, { ...restockingShipmentV2Fixture, status: 'received' }).status,
    ).toBe('received');
    for (const status of ['on_hold', 'delivered']) {
      const body = { ...restockingShipmentV2Fixture, status };
      expect(parseResponse(RestockingShipmentV2Schema, body, 'lenient').status).toBe(status);
      expect(strictIssues(RestockingShipmentV2Schema, body)).toEqual([
        {
          path: 'status',
          message:
            "expected one of 'arrived', 'cancelled', 'created', 'processing', 'received', 'restocked', 'shipped'",
        },
      ]);
    }
  });

  it('requires id, warehouse_id, restocking_shipment_items and status; allows a null arrival date and delivery option', () => {
    const {
      id: _1,
      warehouse_id: _2,
      restocking_shipment_items: _4,
      status: _5,
      ...rest
    } = restockingShipmentV2Fixture;
    expect(responseIssues(RestockingShipmentV2Schema, rest).map((i) => i.path)).toEqual([
      'id',
      'warehouse_id',
      'restocking_shipment_items',
      'status',
    ]);
    const body = {
      ...restockingShipmentV2Fixture,
      delivery_option: null,
      estimated_arrival_date: null,
      reopened_at: null,
      barcode: null,
    };
    expect(parseKnown(RestockingShipmentV2Schema, body).estimated_arrival_date).toBeNull();
  });
});

describe('version 1 requests', () => {
  const item = { sku_id: 48213, announced_quantity: 10 };

  it('accepts sku_id or merchant_sku_id on items', () => {
    expect(validateRequest(RestockingShipmentItemV1ParamsSchema, item)).toEqual(item);
    const bySku = { merchant_sku_id: 'LAMP-OIL-500', announced_quantity: 10 };
    expect(validateRequest(RestockingShipmentItemV1ParamsSchema, bySku)).toEqual(bySku);
  });

  it.each(['sku_code', 'remarks', 'total_cost_in_cents', 'inventory_batch_id'])(
    'refuses the version 2 field %s, saying so',
    (field) => {
      expect(requestIssues(RestockingShipmentItemV1ParamsSchema, { ...item, [field]: 1 })).toEqual([
        { path: field, message: 'is a version 2 field (spec §9.2): use restockingShipments.v2 to send it' },
      ]);
    },
  );

  it('checks items', () => {
    expect(requestIssues(RestockingShipmentItemV1ParamsSchema, { announced_quantity: 0 })).toEqual([
      { path: 'announced_quantity', message: 'expected integer > 0' },
      { path: 'sku_id', message: 'sku_id or merchant_sku_id is required' },
    ]);
    expect(requestIssues(RestockingShipmentItemV1ParamsSchema, { sku_id: 1 })).toEqual([
      { path: 'announced_quantity', message: 'required' },
    ]);
  });

  it('create: converts a digit-string warehouse_id to a number and a Date to its UTC calendar date', () => {
    const body = {
      warehouse_id: '3',
      estimated_arrival_date: new Date('2025-02-03T23:30:00-05:00'),
      delivery_option: 'courier',
      tracking_code: '0034',
      restocking_shipment_items: [item],
    };
    expect(validateRequest(RestockingShipmentV1CreateParamsSchema, body)).toEqual({
      ...body,
      warehouse_id: 3,
      estimated_arrival_date: '2025-02-04',
    });
  });

  it('create: sends date strings as given', () => {
    for (const estimated_arrival_date of ['2025-02-03', '2025-02-03T10:00:00+01:00']) {
      const body = { warehouse_id: 3, estimated_arrival_date, restocking_shipment_items: [] };
      expect(validateRequest(RestockingShipmentV1CreateParamsSchema, body).estimated_arrival_date).toBe(
        estimated_arrival_date,
      );
    }
  });

  it('create: rejects bad fields', () => {
    expect(
      requestIssues(RestockingShipmentV1CreateParamsSchema, {
        warehouse_id: '3a',
        estimated_arrival_date: '03.02.2025',
        delivery_option: 'drone',
        restocking_shipment_items: [item, { ...item, announced_quantity: 1.5 }],
      }),
    ).toEqual([
      { path: 'warehouse_id', message: 'expected integer > 0 or a string of digits' },
      {
        path: 'estimated_arrival_date',
        message: 'expected a Date or an ISO 8601 date (YYYY-MM-DD) or date-time string',
      },
      {
        path: 'delivery_option',
        message: "expected one of 'courier', 'dropoff', 'service_freight', 'postal'",
      },
      { path: 'restocking_shipment_items[1].announced_quantity', message: 'expected integer' },
    ]);
    expect(requestIssues(RestockingShipmentV1CreateParamsSchema, { warehouse_id: 0 })).toEqual([
      { path: 'warehouse_id', message: 'expected integer > 0' },
      { path: 'restocking_shipment_items', message: 'required' },
    ]);
    expect(
      requestIssues(RestockingShipmentV1CreateParamsSchema, {
        warehouse_id: '0',
        restocking_shipment_items: [],
      }),
    ).toEqual([{ path: 'warehouse_id', message: 'expected integer > 0 or a string of digits' }]);
    expect(requestIssues(RestockingShipmentV1CreateParamsSchema, { restocking_shipment_items: [] })).toEqual([
      { path: 'warehouse_id', message: 'required' },
    ]);
  });

  it('update: requires restocking_shipment_items and explains why', () => {
    expect(requestIssues(RestockingShipmentV1UpdateParamsSchema, { tracking_code: 'NEW' })).toEqual([
      {
        path: 'restocking_shipment_items',
        message:
          'required: omitting restocking_shipment_items would remove every item of the shipment; pass the full list, or [] to clear it',
      },
    ]);
    expect(MISSING_V1_ITEMS_MESSAGE).toMatch(/^required: /);
  });

  it('update: accepts an empty item list (clears it on purpose) and leaves other fields optional', () => {
    expect(
      validateRequest(RestockingShipmentV1UpdateParamsSchema, { restocking_shipment_items: [] }),
    ).toEqual({
      restocking_shipment_items: [],
    });
    expect(
      validateRequest(RestockingShipmentV1UpdateParamsSchema, {
        warehouse_id: '7',
        estimated_arrival_date: new Date(Date.UTC(2025, 5, 1)),
        restocking_shipment_items: [item],
      }),
    ).toEqual({ warehouse_id: 7, estimated_arrival_date: '2025-06-01', restocking_shipment_items: [item] });
  });

  it('names an unknown key of an item at its path, on create and update; a wrong type reads expected object', () => {
    const body = {
      warehouse_id: 3,
      estimated_arrival_date: '2025-02-03',
      restocking_shipment_items: [{ ...item, quantiy: 10 }, 'x'],
    };
    for (const schema of [RestockingShipmentV1CreateParamsSchema, RestockingShipmentV1UpdateParamsSchema]) {
      const [unknown, wrongType] = requestIssues(schema, body);
      expect(unknown).toMatchObject({ path: 'restocking_shipment_items[0]' });
      expect(unknown?.message).toMatch(/^Unrecognized key: "quantiy"/);
      expect(wrongType).toEqual({ path: 'restocking_shipment_items[1]', message: 'expected object' });
    }
  });

  it('update: rejects a non-array item list', () => {
    expect(
      requestIssues(RestockingShipmentV1UpdateParamsSchema, { restocking_shipment_items: null }),
    ).toEqual([{ path: 'restocking_shipment_items', message: 'expected array' }]);
  });
});

describe('version 2 requests', () => {
  it('accepts a valid create body and sends it unchanged', () => {
    expect(
      validateRequest(RestockingShipmentV2CreateParamsSchema, restockingShipmentV2CreateParamsFixture),
    ).toEqual(restockingShipmentV2CreateParamsFixture);
  });

  it('says required for every required field', () => {
    expect(requestIssues(RestockingShipmentV2CreateParamsSchema, {})).toEqual([
      { path: 'delivery_option', message: 'required' },
      { path: 'estimated_arrival_date', message: 'required' },
      { path: 'warehouse_id', message: 'required' },
      { path: 'restocking_shipment_items', message: 'required' },
    ]);
  });

  it('accepts null for po_number, supplier_name and tracking_code, and a Date arrival date', () => {
    const out = validateRequest(RestockingShipmentV2CreateParamsSchema, {
      ...restockingShipmentV2CreateParamsFixture,
      po_number: null,
      supplier_name: null,
      tracking_code: null,
      estimated_arrival_date: new Date(Date.UTC(2025, 2, 10, 22)),
    });
    expect(out).toMatchObject({ po_number: null, supplier_name: null, tracking_code: null });
    expect(out.estimated_arrival_date).toBe('2025-03-10');
  });

  it('rejects bad fields', () => {
    expect(
      requestIssues(RestockingShipmentV2CreateParamsSchema, {
        ...restockingShipmentV2CreateParamsFixture,
        warehouse_id: '7',
        priority: 'yes',
        po_number: 44,
        restocking_shipment_items: [{ announced_quantity: 1, total_cost_in_cents: 1.5 }],
      }),
    ).toEqual([
      { path: 'warehouse_id', message: 'expected integer' },
      { path: 'restocking_shipment_items[0].total_cost_in_cents', message: 'expected integer' },
      { path: 'restocking_shipment_items[0].sku_id', message: 'sku_id or sku_code is required' },
      { path: 'po_number', message: 'expected string or null' },
      { path: 'priority', message: 'expected boolean' },
    ]);
  });

  it('items: accept sku_id or sku_code with optional remarks, cost and batch', () => {
    const full = {
      sku_id: 1,
      announced_quantity: 2,
      remarks: 'fragile',
      total_cost_in_cents: 500,
      inventory_batch_id: 9,
    };
    expect(validateRequest(RestockingShipmentItemV2ParamsSchema, full)).toEqual(full);
    expect(
      requestIssues(RestockingShipmentItemV2ParamsSchema, { sku_code: '', announced_quantity: -2 }),
    ).toEqual([
      { path: 'sku_code', message: 'must not be empty' },
      { path: 'announced_quantity', message: 'expected integer > 0' },
      { path: 'sku_id', message: 'sku_id or sku_code is required' },
    ]);
    expect(requestIssues(RestockingShipmentItemV2ParamsSchema, { announced_quantity: 1 })).toEqual([
      { path: 'sku_id', message: 'sku_id or sku_code is required' },
    ]);
  });

  it('names an unknown key of an item at its path, on create and replace; a wrong type reads expected object', () => {
    const [item] = restockingShipmentV2CreateParamsFixture.restocking_shipment_items;
    const body = {
      ...restockingShipmentV2CreateParamsFixture,
      restocking_shipment_items: [{ ...item, remark: 'fragile' }, null],
    };
    const issues = [
      {
        path: 'restocking_shipment_items[0]',
        message: 'Unrecognized key: "remark" (did you mean "remarks"?)',
      },
      { path: 'restocking_shipment_items[1]', message: 'expected object' },
    ];
    expect(requestIssues(RestockingShipmentV2CreateParamsSchema, body)).toEqual(issues);
    expect(requestIssues(RestockingShipmentV2ReplaceParamsSchema, body)).toEqual(issues);
  });

  it('replace has the same rules as create', () => {
    expect(
      validateRequest(RestockingShipmentV2ReplaceParamsSchema, restockingShipmentV2CreateParamsFixture),
    ).toEqual(restockingShipmentV2CreateParamsFixture);
    expect(
      requestIssues(RestockingShipmentV2ReplaceParamsSchema, {
        ...restockingShipmentV2CreateParamsFixture,
        delivery_option: undefined,
      }),
    ).toEqual([{ path: 'delivery_option', message: 'required' }]);
  });
});
