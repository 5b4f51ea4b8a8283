/**
 * The compiled form of a schema, for the client's request and response paths. Kept apart from
 * `validation.ts` so that what imports only that module never bundles the compiler.
 */
import * as z from 'zod/mini';

const compiledCache = new WeakMap<z.core.$ZodType, z.core.$ZodType>();

/**
 * The compiled form of a schema (built once per schema). Falls back silently to the schema itself
 * where the runtime forbids code generation (`new Function`), as some edge runtimes do. Run it with
 * the parse context of `validation.ts` like the schema itself: a failure is parsed again by the
 * runtime parser, so the messages are the same.
 */
export function compiled<T extends z.core.$ZodType>(schema: T): T {
  let fast = compiledCache.get(schema) as T | undefined;
  if (!fast) {
    try {
      fast = z.compile(schema);
    } catch {
      fast = schema;
    }
    compiledCache.set(schema, fast);
  }
  return fast;
}
