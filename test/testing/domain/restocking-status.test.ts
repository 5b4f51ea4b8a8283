/**
 * The restocking status table (`domain/restocking-status.ts`): it covers the SDK's status lists of
 * both versions, and the names, messages and flags derived from it are the ones the mock answers.
 */
import { describe, expect, test } from 'vitest';
import {
  RESTOCKING_SHIPMENT_V1_STATUSES,
  RESTOCKING_SHIPMENT_V2_STATUSES,
} from '../../../src/schemas/restocking-shipments.js';
import {
  INITIAL_RESTOCKING_STATUS,
  isRestockingStatusName,
  NOT_EDITABLE,
  RESTOCKING_STATUS_NAMES,
  RESTOCKING_STATUSES,
  toV1Status,
  toV2Status,
} from '../../../src/testing/domain/restocking-status.js';

const rows = Object.entries(RESTOCKING_STATUSES);

describe('the restocking status table', () => {
  test('has one row per version 1 status, in the SDK order, and names every version 2 status', () => {
    expect(Object.keys(RESTOCKING_STATUSES)).toEqual([...RESTOCKING_SHIPMENT_V1_STATUSES]);
    expect(new Set(rows.map(([, row]) => row.v2))).toEqual(new Set(RESTOCKING_SHIPMENT_V2_STATUSES));
  });

  test('version names both ways: received ↔ delivered, on_hold shows as processing', () => {
    expect(toV2Status('delivered')).toBe('received');
    expect(toV2Status('on_hold')).toBe('processing');
    expect(toV1Status('received')).toBe('delivered');
    expect(toV1Status('processing')).toBe('processing');
    for (const name of RESTOCKING_SHIPMENT_V1_STATUSES) expect(toV1Status(name)).toBe(name);
    expect(() => toV1Status('teleported')).toThrow(
      'Unknown restocking shipment status, got a string of 10 characters (expected one of created, shipped, delivered, received, arrived, processing, restocked, on_hold, cancelled)',
    );
    expect(() => toV1Status('toString')).toThrow(TypeError);
    // The second line of defence (the ways in check the name first) describes, never shows.
    const secret = 'sk_live_4eC39HqLyjWDarjtT1';
    let message = '';
    try {
      toV1Status(secret);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Unknown restocking shipment status, got a string of 26 characters \(/);
    expect(message).not.toContain(secret);
  });

  test('the names accepted: every version 1 and version 2 name, and nothing else', () => {
    const both = new Set<string>([...RESTOCKING_SHIPMENT_V1_STATUSES, ...RESTOCKING_SHIPMENT_V2_STATUSES]);
    expect(RESTOCKING_STATUS_NAMES).toEqual([
      'created',
      'shipped',
      'delivered',
      'received',
      'arrived',
      'processing',
      'restocked',
      'on_hold',
      'cancelled',
    ]);
    expect(new Set(RESTOCKING_STATUS_NAMES)).toEqual(both);
    for (const name of both) expect(isRestockingStatusName(name), name).toBe(true);
    for (const value of [
      'toString',
      '__proto__',
      'Received',
      ' shipped',
      '',
      5,
      null,
      undefined,
      ['created'],
    ]) {
      expect(isRestockingStatusName(value), String(value)).toBe(false);
    }
  });

  test('the edit window, the initial status, at the warehouse and restocking', () => {
    const having = (flag: 'editable' | 'atWarehouse' | 'restocks') =>
      rows.filter(([, row]) => row[flag]).map(([name]) => name);
    expect(having('editable')).toEqual(['created', 'shipped']);
    expect(NOT_EDITABLE).toBe('Restocking shipment can only be updated while created or shipped');
    expect(INITIAL_RESTOCKING_STATUS).toBe('shipped');
    expect(having('atWarehouse')).toEqual(['delivered', 'arrived', 'processing', 'restocked', 'on_hold']);
    expect(having('restocks')).toEqual(['restocked']);
  });
});
