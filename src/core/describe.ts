/**
 * What a value is, for a message: its type or class name, never its content. Never throws: a
 * value that cannot be inspected (a revoked Proxy, a throwing `constructor` getter) is
 * `an object`.
 */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  let name: unknown;
  try {
    if (Array.isArray(value)) return 'an array';
    name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    name = undefined;
  }
  return typeof name === 'string' && name && name !== 'Object' ? `a ${name}` : 'an object';
}
