/**
 * The read-only namespaces (`shipments`, `returns`, `warehouses`) and what every list method returns:
 * `PagePromise` (await → `Page`, `for await` → items, `.pages()`, `.toArray()`), and `APIPromise`
 * (`.withResponse()`, `.asResponse()`).
 */
import { expectTypeOf } from 'expect-type';
import type {
  APIPromise,
  ListOptions,
  Page,
  PagePromise,
  Pagination,
  RateLimitInfo,
  RequestOptions,
  Return,
  ReturnListParams,
  Shipment,
  ShipmentListParams,
  Sku,
  Warehouse,
  WarehouseListParams,
  WithResponse,
} from 'merchant-fulfillment';
import { client } from './client.js';
import type { Exactness } from './helpers.js';

type Id = number | string;

// shipments
expectTypeOf(client.shipments.list).parameters.toEqualTypeOf<
  [params?: ShipmentListParams | undefined, options?: ListOptions | undefined]
>();
expectTypeOf(client.shipments.list({ limit: 50 })).toEqualTypeOf<PagePromise<Shipment>>();

// returns
expectTypeOf(client.returns.list).parameters.toEqualTypeOf<
  [params?: ReturnListParams | undefined, options?: ListOptions | undefined]
>();
expectTypeOf(client.returns.list()).toEqualTypeOf<PagePromise<Return>>();
expectTypeOf(client.returns.retrieve).parameters.toEqualTypeOf<
  [id: Id, options?: RequestOptions | undefined]
>();
expectTypeOf(client.returns.retrieve(1)).resolves.toEqualTypeOf<Return>();

// warehouses
expectTypeOf(client.warehouses.list).parameters.toEqualTypeOf<
  [params?: WarehouseListParams | undefined, options?: ListOptions | undefined]
>();
expectTypeOf(client.warehouses.list()).toEqualTypeOf<PagePromise<Warehouse>>();

// These methods return an APIPromise (`.withResponse()`, `.asResponse()`).
expectTypeOf(client.returns.retrieve).returns.toExtend<APIPromise<unknown>>();

// PagePromise is an APIPromise of the first page.
expectTypeOf<PagePromise<Sku>>().toExtend<APIPromise<Page<Sku>>>();
expectTypeOf<PagePromise<Sku>>().toExtend<AsyncIterable<Sku>>();

export async function usePages(signal: AbortSignal): Promise<void> {
  const list = client.skus.list({ limit: 100 }, { signal, maxPages: 10 });

  // @ts-expect-error: pages are fetched one at a time
  client.skus.list({ limit: 100 }, { prefetch: 1 });

  for await (const sku of list) expectTypeOf(sku).toEqualTypeOf<Sku>();
  for await (const page of list.pages()) expectTypeOf(page).toEqualTypeOf<Page<Sku>>();
  expectTypeOf(list.toArray).parameters.toEqualTypeOf<[options: { max: number }]>();
  expectTypeOf(await list.toArray({ max: 500 })).toEqualTypeOf<Sku[]>();

  const page = await client.shipments.list({ limit: 50 });
  expectTypeOf(page).toEqualTypeOf<Page<Shipment>>();
  expectTypeOf(page.data).toEqualTypeOf<Shipment[]>();
  expectTypeOf(page.pagination).toEqualTypeOf<Pagination | null>();
  expectTypeOf(page.response).toEqualTypeOf<Response>();
  expectTypeOf(page.hasNextPage()).toEqualTypeOf<boolean>();
  expectTypeOf(page.getNextPage()).toEqualTypeOf<Promise<Page<Shipment>>>();

  // APIPromise: the data, the data with its response, or the raw response.
  const withResponse = await client.returns.retrieve(1).withResponse();
  expectTypeOf(withResponse).toEqualTypeOf<WithResponse<Return>>();
  expectTypeOf(withResponse.data).toEqualTypeOf<Return>();
  expectTypeOf(withResponse.response).toEqualTypeOf<Response>();
  expectTypeOf(withResponse.rateLimit).toEqualTypeOf<RateLimitInfo>();
  expectTypeOf(withResponse.rateLimit.used).toEqualTypeOf<number | undefined>();
  expectTypeOf(client.warehouses.list().asResponse()).toEqualTypeOf<Promise<Response>>();
  const first = await client.warehouses.list().withResponse();
  expectTypeOf(first.data).toEqualTypeOf<Page<Warehouse>>();
  expectTypeOf(first.data.data[0]?.id).toEqualTypeOf<number | undefined>();
}

// The records are exact.
expectTypeOf<Exactness<Shipment>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<Return>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<Warehouse>>().toEqualTypeOf<'exact'>();
expectTypeOf<NonNullable<Shipment['status']>>().toEqualTypeOf<
  | 'waiting_for_picking'
  | 'on_hold'
  | 'picking_assigned'
  | 'in_picking'
  | 'picked'
  | 'in_packing'
  | 'packed'
  | 'in_shipping'
  | 'shipped'
  | 'cancelled'
>();
expectTypeOf<NonNullable<Return['status']>>().toEqualTypeOf<
  'on_the_way' | 'arrived' | 'processing' | 'action_required' | 'handling_completed'
>();
