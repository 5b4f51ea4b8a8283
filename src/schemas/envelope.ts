/**
 * Collections and errors: the list envelope with both pagination styles, the error body, and the
 * query parameters every list endpoint shares.
 */
import * as z from 'zod/mini';
import { dateTimeInput, positiveInteger } from './common.js';

/**
 * Pagination block of a list envelope. Accepts both styles seen on this API:
 * - page numbers (version 1): `current_page`, `page_count`, `item_count`, `items_per_page`;
 * - cursor (version 2): `first_page_url`, `next_page_url` (`null` on the last page), `limit`.
 *
 * Every field is nullish and unknown keys are kept; the pagination layer decides what to trust.
 */
export const PaginationSchema = z.looseObject({
  /** 1-based number of this page (page-number style). */
  current_page: z.nullish(z.number()),
  /** Number of pages (page-number style). */
  page_count: z.nullish(z.number()),
  /** Number of items over all pages (page-number style). */
  item_count: z.nullish(z.number()),
  /** Page size (page-number style). */
  items_per_page: z.nullish(z.number()),
  /** URL of the first page (cursor style). */
  first_page_url: z.nullish(z.string()),
  /** URL of the next page, `null` on the last page (cursor style). */
  next_page_url: z.nullish(z.string()),
  /** Page size (cursor style). */
  limit: z.nullish(z.number()),
});
/** Pagination block of a list envelope (page-number or cursor style). */
export type Pagination = z.infer<typeof PaginationSchema>;

/**
 * Builds the schema of a list envelope `{ data: T[], pagination }`. Call it once, at module level
 * (schemas are never built per request). A bare JSON array is not accepted here: the pagination
 * layer handles that case.
 */
export function listEnvelopeSchema<T extends z.core.$ZodType>(item: T) {
  return z.looseObject({
    /** The items of this page. */
    data: z.array(item),
    /** Pagination block; absent or `null` on endpoints that do not paginate. */
    pagination: z.nullish(PaginationSchema),
  });
}

/** A list envelope: the items of one page and the pagination block. */
export type ListEnvelope<T> = {
  /** The items of this page. */
  data: T[];
  /** Pagination block; absent or `null` on endpoints that do not paginate. */
  pagination?: Pagination | null | undefined;
  [key: string]: unknown;
};

/**
 * Error body of a 4xx/5xx response, usually `{ "success": false, "errors": ["…"] }`; some carry an
 * `error` or `message` string instead. Every field is nullish and unknown keys are kept.
 */
export const ErrorBodySchema = z.looseObject({
  /** `false` on errors. */
  success: z.nullish(z.boolean()),
  /** Human-readable messages. */
  errors: z.nullish(z.array(z.string())),
  /** A single message (some gateways). */
  error: z.nullish(z.string()),
  /** A single message (some gateways). */
  message: z.nullish(z.string()),
});
/** Error body of a 4xx/5xx response. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * `created_at` range filter of list endpoints (`created_at[gte]=…`): each bound a `Date` or an
 * ISO 8601 date / date-time string, kept as given (the query encoder formats it).
 */
export const CreatedAtFilterSchema = z.strictObject({
  /** Created at or after. */
  gte: z.optional(dateTimeInput()),
  /** Created after. */
  gt: z.optional(dateTimeInput()),
  /** Created at or before. */
  lte: z.optional(dateTimeInput()),
  /** Created before. */
  lt: z.optional(dateTimeInput()),
});
/** `created_at` range filter of list endpoints. */
export type CreatedAtFilter = z.input<typeof CreatedAtFilterSchema>;

/** Query parameters every list endpoint accepts: `limit`, `page`, `created_at`. */
export const listQueryShape = {
  /** Creation-time range. */
  created_at: z.optional(CreatedAtFilterSchema),
  /** Page size (the API's default is 20). */
  limit: z.optional(positiveInteger()),
  /** 1-based page number (default 1). */
  page: z.optional(positiveInteger()),
};

const queryScalar = z.union([z.string(), z.number(), z.boolean(), z.date()]);
/**
 * An extra query parameter of an endpoint whose parameters the provider does not document: a
 * scalar, a list of scalars (`key[]=…`) or a record of scalars (`key[sub]=…`).
 */
export const ExtraQueryParamSchema = z.union(
  [queryScalar, z.array(queryScalar), z.record(z.string(), queryScalar)],
  { error: 'expected a string, number, boolean or Date, a list of them, or a record of them' },
);

/**
 * Query of an endpoint whose parameters the provider does not document (shipments, returns,
 * warehouses): `limit`, `page`, `created_at`, and further parameters passed through as given.
 */
export function openListParamsSchema() {
  return z.catchall(z.object(listQueryShape), ExtraQueryParamSchema);
}
