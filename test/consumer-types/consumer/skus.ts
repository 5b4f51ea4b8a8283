/** `client.skus`: every method's parameters and result, and the `Sku` record. */
import { expectTypeOf } from 'expect-type';
import type {
  APIPromise,
  BulkUpsertResult,
  FulfillmentClient,
  ListOptions,
  PagePromise,
  RequestOptions,
  Sku,
  SkuBulkUpsertItem,
  SkuCreateParams,
  SkuInventory,
  SkuListParams,
  SkuStatus,
  SkuUpdateParams,
} from 'merchant-fulfillment';
import { client } from './client.js';
import type { Exactness } from './helpers.js';

type BulkUpsertOptions = NonNullable<Parameters<FulfillmentClient['skus']['bulkUpsert']>[1]>;
type Id = number | string;

// list
expectTypeOf(client.skus.list).parameters.toEqualTypeOf<
  [params?: SkuListParams | undefined, options?: ListOptions | undefined]
>();
expectTypeOf(client.skus.list).returns.toEqualTypeOf<PagePromise<Sku>>();
expectTypeOf(
  client.skus.list({ merchant_sku_ids: ['TSHIRT-M'], created_at: { gte: new Date() }, limit: 100 }),
).toEqualTypeOf<PagePromise<Sku>>();

// create
expectTypeOf(client.skus.create).parameters.toEqualTypeOf<
  [body: SkuCreateParams, options?: RequestOptions | undefined]
>();
expectTypeOf(client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' })).resolves.toEqualTypeOf<Sku>();

// update (PATCH) and put (PUT)
expectTypeOf(client.skus.update).parameters.toEqualTypeOf<
  [id: Id, body: SkuUpdateParams, options?: RequestOptions | undefined]
>();
expectTypeOf(client.skus.update(1, { name: 'Mug' })).resolves.toEqualTypeOf<Sku>();
expectTypeOf(client.skus.put).parameters.toEqualTypeOf<
  [id: Id, body: SkuUpdateParams, options?: RequestOptions | undefined]
>();
expectTypeOf(client.skus.put('1', { batch_tracking_enabled: null })).resolves.toEqualTypeOf<Sku>();

// bulkUpsert
expectTypeOf(client.skus.bulkUpsert).parameters.toEqualTypeOf<
  [skus: readonly SkuBulkUpsertItem[], options?: BulkUpsertOptions | undefined]
>();
expectTypeOf(client.skus.bulkUpsert([{ name: 'Mug', merchant_sku_id: 'MUG' }])).toEqualTypeOf<
  Promise<BulkUpsertResult>
>();

// delete: resolves with the (deleted) SKU, never `undefined`
expectTypeOf(client.skus.delete).parameters.toEqualTypeOf<[id: Id, options?: RequestOptions | undefined]>();
expectTypeOf(client.skus.delete(1)).resolves.toEqualTypeOf<Sku>();

// retrieveByMerchantSkuId: the SKU, or null when there is none
expectTypeOf(client.skus.retrieveByMerchantSkuId).parameters.toEqualTypeOf<
  [merchantSkuId: string, options?: RequestOptions | undefined]
>();
expectTypeOf(client.skus.retrieveByMerchantSkuId('MUG')).resolves.toEqualTypeOf<Sku | null>();

export async function useSkus(): Promise<void> {
  // `delete` resolves with the SKU: its status is readable without a check.
  const deletedStatus = (await client.skus.delete(1)).status;
  expectTypeOf(deletedStatus).toEqualTypeOf<SkuStatus>();

  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG', cost_in_cents: 250 });
  expectTypeOf(sku).toEqualTypeOf<Sku>();
  expectTypeOf(sku.id).toEqualTypeOf<number>();
  expectTypeOf(sku.name).toEqualTypeOf<string>();
  // Presence and nullability follow the spec: a field without a value is `null`, never absent.
  expectTypeOf(sku.merchant_sku_id).toEqualTypeOf<string | null>();
  expectTypeOf(sku.inventory).toEqualTypeOf<SkuInventory>();
  expectTypeOf(sku.inventory.stocked).toEqualTypeOf<number>();
  expectTypeOf(sku.batch_tracking_enabled).toEqualTypeOf<boolean>();

  const found = await client.skus.retrieveByMerchantSkuId('MUG');
  if (found) expectTypeOf(found).toEqualTypeOf<Sku>();

  const result = await client.skus.bulkUpsert([{ name: 'Mug', merchant_sku_id: 'MUG' }], { concurrency: 2 });
  expectTypeOf(result.skus).toEqualTypeOf<Sku[] | undefined>();
  expectTypeOf(result.written).toEqualTypeOf<number>();
}

// These methods return an APIPromise (`.withResponse()`, `.asResponse()`).
expectTypeOf(client.skus.create).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.skus.update).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.skus.put).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.skus.delete).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.skus.retrieveByMerchantSkuId).returns.toExtend<APIPromise<unknown>>();

// The record is exact: a misspelled field name is a type error, not `unknown`.
expectTypeOf<Exactness<Sku>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<SkuInventory>>().toEqualTypeOf<'exact'>();
expectTypeOf<Sku['status']>().toEqualTypeOf<'active' | 'deleted'>();
