/**
 * The one check of the kit's own inputs (control-route bodies and queries, `createMockApi`
 * options, the state and seed files): a zod schema, and a refusal in the kit's message shape,
 * `<field>: <what is wrong>`, with the closest known name for an unknown field (the SDK's own
 * request messages, so both read alike).
 */
import type * as z from 'zod/mini';
import { RequestValidationError } from '../../core/errors.js';
import { validateRequest } from '../../core/validation.js';

/** Refuses one field: throws the caller's error for `<field>: <problem>`. */
export type Refuse = (field: string, problem: string) => never;

/**
 * `value` as `schema` reads it, or `refuse` called with the first bad field (its path after
 * `prefix`, as users write it: `items[1].quantity`).
 */
export function checkInput<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  refuse: Refuse,
  prefix = '',
): z.output<S> {
  try {
    return validateRequest(schema, value, undefined, prefix);
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    const first = error.issues[0]!;
    return refuse(first.path, first.message);
  }
}
