/**
 * What validation needs, loaded on first use rather than at import: `validation.ts` (zod, its
 * English messages and the schema compiler) and the schemas of each namespace are imported by the
 * first request that needs them, as ky is (`transport.ts`). The webhook functions check their
 * payload without zod (`webhooks/payload.ts`). Importing the package then costs a few milliseconds
 * instead of zod's whole module graph, which matters for serverless cold starts.
 *
 * The one place that loads: a request asks {@link prepare} once, which answers with the validation
 * module at once when everything is loaded (every request after the first), or loads it.
 */
import type * as z from 'zod/mini';
import type * as Validation from './validation.js';

let validationModule: typeof Validation | undefined;
let validationLoading: Promise<typeof Validation> | undefined;

/** Imports the validation module (zod, the English messages, the compiler) once. */
export const loadValidation = (): Promise<typeof Validation> =>
  (validationLoading ??= import('./validation.js').then((module) => (validationModule = module)));

/** The validation module; {@link loadValidation} must have completed. */
export const validation = (): typeof Validation => validationModule!;

/**
 * A schema imported on first use: `lazySchema(() => import('../schemas/orders.js'), 'OrderSchema')`.
 * Build it once, at module level; {@link load} it before {@link LazySchema.schema} is read.
 */
export class LazySchema<T> {
  /** The schema once {@link load} has completed; `undefined` before. */
  schema: z.core.$ZodType<T> | undefined;
  #loading: Promise<z.core.$ZodType<T>> | undefined;

  constructor(readonly importSchema: () => Promise<z.core.$ZodType<T>>) {}

  /** Imports the schema's module once. */
  load(): Promise<z.core.$ZodType<T>> {
    this.#loading ??= this.importSchema().then((schema) => (this.schema = schema));
    return this.#loading;
  }
}

/** The export `key` of the module `load` imports, as a {@link LazySchema} of its output type. */
export function lazySchema<M, K extends keyof M>(
  load: () => Promise<M>,
  key: K,
): LazySchema<M[K] extends z.core.$ZodType ? z.output<M[K]> : never> {
  return new LazySchema(async () => (await load())[key] as z.core.$ZodType<never>);
}

/** A schema, or one imported on first use. @inline */
export type SchemaLike<T = unknown> = z.core.$ZodType<T> | LazySchema<T>;

/** The schema itself (a {@link LazySchema} must be loaded). */
export function schemaOf<T>(schema: SchemaLike<T>): z.core.$ZodType<T> {
  return schema instanceof LazySchema ? (schema.schema as z.core.$ZodType<T>) : schema;
}

/**
 * Marks a response schema whose endpoint documents no body: the result is `undefined` without a
 * resource in the body (see `ResponseParsers.read`). Build it once, at module level.
 */
export class OptionalBody<T> {
  constructor(readonly schema: SchemaLike<Exclude<T, undefined>>) {}
}

/**
 * The validation module when it and every lazy schema among `schemas` (an {@link OptionalBody}'s
 * too; anything else is ignored) are loaded; otherwise a promise that loads them.
 */
export function prepare(...schemas: unknown[]): typeof Validation | Promise<typeof Validation> {
  let pending: Promise<unknown>[] | undefined; // none on a warm client: nothing allocated
  for (let schema of schemas) {
    if (schema instanceof OptionalBody) schema = schema.schema;
    if (!(schema instanceof LazySchema) || schema.schema) continue;
    pending ??= [];
    pending.push(schema.load());
  }
  if (validationModule && !pending) return validationModule;
  return Promise.all([loadValidation(), ...(pending ?? [])]).then(([module]) => module);
}
