/**
 * What validation needs, loaded on first use rather than at import: zod and the schemas (through
 * `validation.ts`, `compile.ts` and the schema modules) are imported by the first request, as ky
 * is (`transport.ts`). The webhook functions check their payload without zod (`webhooks/payload.ts`). Importing the package then costs a few
 * milliseconds instead of zod's whole module graph, which matters for serverless cold starts.
 *
 * Every path that validates awaits {@link loadValidation} (and, on the client's paths,
 * `loadCompiler` of `lazy-compile.ts`) and the {@link LazySchema}s it uses before it validates;
 * after that the synchronous accessors below hold.
 */
import type * as z from 'zod/mini';
import { FulfillmentError } from './errors.js';
import type * as Validation from './validation.js';

let validationModule: typeof Validation | undefined;
let validationLoading: Promise<typeof Validation> | undefined;

/** Imports the validation module (zod and the English messages) once. */
export function loadValidation(): Promise<typeof Validation> {
  validationLoading ??= import('./validation.js').then((module) => {
    validationModule = module;
    return module;
  });
  return validationLoading;
}

/** The validation module; {@link loadValidation} must have completed. */
export function validation(): typeof Validation {
  if (!validationModule) {
    throw new FulfillmentError('Internal error: validation used before it was loaded.');
  }
  return validationModule;
}

/**
 * A schema imported on first use: `lazySchema(() => import('../schemas/orders.js'), 'OrderSchema')`.
 * Build it once, at module level; {@link load} it before {@link LazySchema.schema} is read.
 */
export class LazySchema<T> {
  readonly #load: () => Promise<z.core.$ZodType<T>>;
  #schema: z.core.$ZodType<T> | undefined;
  #loading: Promise<z.core.$ZodType<T>> | undefined;

  constructor(load: () => Promise<z.core.$ZodType<T>>) {
    this.#load = load;
  }

  /** Imports the schema's module once. */
  load(): Promise<z.core.$ZodType<T>> {
    this.#loading ??= this.#load().then((schema) => {
      this.#schema = schema;
      return schema;
    });
    return this.#loading;
  }

  /** Whether {@link load} has completed. */
  get loaded(): boolean {
    return this.#schema !== undefined;
  }

  /** The schema; {@link load} must have completed. */
  get schema(): z.core.$ZodType<T> {
    if (!this.#schema) throw new FulfillmentError('Internal error: a schema was used before it was loaded.');
    return this.#schema;
  }
}

/** The export `key` of the module `load` imports, as a {@link LazySchema} of its output type. */
export function lazySchema<M, K extends keyof M>(
  load: () => Promise<M>,
  key: K,
): LazySchema<M[K] extends z.core.$ZodType ? z.output<M[K]> : never> {
  return new LazySchema(async () => (await load())[key] as z.core.$ZodType<never>);
}

/** A schema, or one imported on first use. */
export type SchemaLike<T = unknown> = z.core.$ZodType<T> | LazySchema<T>;

/** The schema itself (a {@link LazySchema} must be loaded). */
export function schemaOf<T>(schema: SchemaLike<T>): z.core.$ZodType<T> {
  return schema instanceof LazySchema ? schema.schema : schema;
}

/**
 * Whether validation and every lazy schema given are loaded already (others are ignored): then a
 * request is built at once, with no promise in between (the path every request after the first
 * takes).
 */
export function validationReady(...schemas: readonly unknown[]): boolean {
  if (!validationModule) return false;
  for (const schema of schemas) if (schema instanceof LazySchema && !schema.loaded) return false;
  return true;
}

/** Loads every lazy schema given (others are ignored). */
export function loadSchemas(...schemas: readonly unknown[]): Promise<unknown> {
  const pending: Promise<unknown>[] = [];
  for (const schema of schemas) if (schema instanceof LazySchema) pending.push(schema.load());
  return Promise.all(pending);
}
