/** The error classes: literal names that survive minification, instanceof across copies. */
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Every error class the main entry exports, by its exported name. */
const classes = (Object.entries(sdk) as [string, unknown][]).filter(
  (entry): entry is [string, ErrorClass] =>
    typeof entry[1] === 'function' && entry[1].prototype instanceof Error,
);

const init = { status: 400, body: {}, headers: new Headers(), method: 'GET', url: 'https://x.test/a' };

/** An instance of any SDK error class, whatever its constructor takes. */
function instance(name: string, Class: ErrorClass): Error {
  const C = Class as unknown as new (...args: unknown[]) => Error;
  if (
    name === 'FulfillmentError' ||
    name === 'PaginationError' ||
    name === 'APIUserAbortError' ||
    name === 'RateLimitStoreError'
  )
    return new C('m');
  if (name === 'RequestValidationError') return new C([{ path: 'a', message: 'b' }]);
  if (name === 'ResponseValidationError') return new C({ body: 1, issues: [] });
  if (name === 'WebhookVerificationError') return new C('invalid_body', 'm');
  if (name === 'APIConnectionError' || name === 'APITimeoutError')
    return new C({ method: 'GET', url: init.url });
  if (name === 'BulkUpsertError') return new C({ skus: undefined, written: 0, chunks: [] }, 0);
  if (name === 'ResponseTooLargeError')
    return new C({ status: 200, method: 'GET', url: init.url, size: 2, limit: 1 });
  if (name === 'LookupLimitError') return new C('m', { pages: 1, items: 100 });
  if (name === 'RedirectError') return new C({ ...init, status: 302 }, 'https://elsewhere.test', 'test');
  return new C(init);
}

describe('error classes', () => {
  it('are all found (a new class must be added to the instance table above)', () => {
    expect(classes.map(([name]) => name).sort()).toEqual([
      'APIConnectionError',
      'APIError',
      'APITimeoutError',
      'APIUserAbortError',
      'AuthenticationError',
      'BadRequestError',
      'BulkUpsertError',
      'ConflictError',
      'FulfillmentError',
      'InternalServerError',
      'LookupLimitError',
      'NotFoundError',
      'PaginationError',
      'PermissionDeniedError',
      'RateLimitError',
      'RateLimitStoreError',
      'RedirectError',
      'RequestValidationError',
      'ResponseTooLargeError',
      'ResponseValidationError',
      'UnprocessableEntityError',
      'WebhookVerificationError',
    ]);
  });

  it.each(classes)(
    '%s names itself by a literal (the built package is checked by scripts/smoke.mjs)',
    (name, Class) => {
      const error = instance(name, Class);
      expect(Class.name).toBe(name);
      expect(error.name).toBe(name);
      expect(error.constructor.name).toBe(name);
      expect(String(error).startsWith(`${name}: `)).toBe(true);
      expect(error).toBeInstanceOf(sdk.FulfillmentError);
    },
  );

  it('a subclass of yours keeps its own name and is still an SDK error', () => {
    class MyError extends sdk.NotFoundError {}
    const error = new MyError(init);
    expect(error.name).toBe('MyError');
    expect(error).toBeInstanceOf(sdk.NotFoundError);
    expect(error).toBeInstanceOf(sdk.APIError);
  });

  it('APIError.from picks the class by status', () => {
    expect(sdk.APIError.from({ ...init, status: 422 })).toBeInstanceOf(sdk.UnprocessableEntityError);
    expect(sdk.APIError.from({ ...init, status: 503 })).toBeInstanceOf(sdk.InternalServerError);
    const teapot = sdk.APIError.from({ ...init, status: 418 });
    expect(teapot.name).toBe('APIError');
  });

  it('a text body is one line without tags, and a body of 1 MB of `<` is described at once', () => {
    const page = sdk.APIError.from({ ...init, status: 502, body: '<html>\n<h1>Bad  gateway</h1></html>' });
    expect(page.message).toContain('Bad gateway');
    // A tag pattern that may run past the next `<` takes minutes here (quadratic); this one is linear.
    const hostile = sdk.APIError.from({ ...init, status: 502, body: '<'.repeat(1_000_000) });
    expect(hostile.message).toContain('<<<');
  });

  it('a body of 100,000 errors makes a message of about 1,000 characters; `errors` keeps them all', () => {
    const errors = Array.from({ length: 100_000 }, (_, i) => `Items[${i}] quantity must be greater than 0`);
    const error = sdk.APIError.from({ ...init, status: 422, body: { success: false, errors } });
    expect(error.message.length).toBeLessThan(1100);
    expect(error.message).toMatch(/… \(100000 errors\)$/);
    expect(error.errors).toHaveLength(100_000);
  });
});
