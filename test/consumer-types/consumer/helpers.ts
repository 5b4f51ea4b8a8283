/** Type helpers shared by the positive consumer files. */

/**
 * `'exact'` when `T` has no string index signature; else a sentence saying why that is a problem
 * (it is what a failing assertion prints).
 */
export type Exactness<T> = string extends keyof T
  ? 'has a string index signature: a misspelled field name type-checks as unknown'
  : 'exact';
