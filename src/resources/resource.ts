/**
 * The base of every resource namespace: it holds the request surface its methods call. Also the
 * small checks the resource helpers share (options that are not an object, ids in labels).
 */
import { RequestValidationError } from '../core/errors.js';
import { requestOptionIssues } from '../core/options.js';
import type { RequestSurface } from '../core/surface.js';

/** Base of every resource namespace. */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: RequestSurface;

  constructor(client: RequestSurface) {
    this._client = client;
  }
}

/**
 * Refuses options that are neither `undefined` nor a plain object (a string, a number, `null`, an
 * array) with the `RequestValidationError` every request method gives (`options: expected an
 * object of request options`), for the helpers that take their own options out of the object
 * before the request options reach the request builder. The value is never shown.
 */
export function checkOptionsObject(options: unknown, context: string): void {
  if (options === undefined) return;
  if (typeof options === 'object' && options !== null && !Array.isArray(options)) return;
  throw new RequestValidationError(requestOptionIssues(options), context);
}

/**
 * An id as a message label shows it, without converting what is not a string or a number (a
 * `Symbol`, or an object without a primitive value, would throw). Labels are built before the
 * request checks the id; they are only shown once it has been accepted.
 */
export function idLabel(id: unknown): string {
  return typeof id === 'number' || typeof id === 'string' ? String(id) : '{id}';
}
