/** What a value is, for a message: its type or class name, never its content. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  if (Array.isArray(value)) return 'an array';
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name && name !== 'Object' ? `a ${name}` : 'an object';
}

/** Whether `value` is a plain object of fields (not `null`, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The number of single-character edits between `a` and `b` (Levenshtein). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + +(a[i - 1] !== b[j - 1]));
    row = next;
  }
  return row[b.length]!;
}

/** A name of `known` at most two edits away from `name` (ignoring case), if any: what was meant. */
export function closest(name: string, known: readonly string[]): string | undefined {
  return known.find((other) => distance(name.toLowerCase(), other.toLowerCase()) <= 2);
}
