/** What a value is, for a message: its type or class name, never its content. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return typeof value;
  let name: unknown;
  try {
    name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    name = undefined;
  }
  return typeof name === 'string' && name && name !== 'Object' ? `a ${name}` : 'an object';
}
