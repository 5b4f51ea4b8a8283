/** What the main entry exports: data types and the SDK, never schema values. */
import { describe, expectTypeOf, it } from 'vitest';
import type { Pagination as PaginationBlock } from '../src/core/pagination.js';
import type * as main from '../src/index.js';
import type { Pagination as PaginationSchemaType } from '../src/schemas/index.js';

describe('main entry', () => {
  it('exports the data types', () => {
    expectTypeOf<main.Order['merchant_order_id']>().toBeString();
    expectTypeOf<main.SkuCreateParams>().toHaveProperty('merchant_sku_id');
    expectTypeOf<main.OrderStatus>().toExtend<string>();
  });

  it('exports no schema constant (those come from merchant-fulfillment/schemas)', () => {
    // @ts-expect-error: SkuSchema is not a member of the main entry
    type _Sku = main.SkuSchema;
    // @ts-expect-error: ORDER_STATUSES is not a member of the main entry
    type _Statuses = main.ORDER_STATUSES;
    expectTypeOf<Extract<keyof typeof main, `${string}Schema`>>().toBeNever();
  });

  it("keeps the pagination block of core equal to the schema's type", () => {
    expectTypeOf<PaginationBlock>().toEqualTypeOf<PaginationSchemaType>();
  });
});
