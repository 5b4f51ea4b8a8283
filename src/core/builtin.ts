/**
 * A Node built-in module looked up at run time (`process.getBuiltinModule`: Node 22+, Bun, Deno),
 * never imported: code that uses one keeps no static `node:*` import, so it still loads and
 * bundles where the runtime has none (browsers, workers, edge runtimes), and takes another path.
 */

/** The built-in module `id` (`'node:crypto'`, `'node:http'`), or `undefined` where there is none. */
export function builtinModule<T>(id: string): T | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  try {
    return (get(id) as T | undefined) ?? undefined;
  } catch {
    return undefined;
  }
}
