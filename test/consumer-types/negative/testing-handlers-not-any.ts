// @expect-error /is not assignable to type 'string \| undefined'/
/**
 * `api.handlers` holds msw handlers (with msw) or `unknown` values (without it), never `any`: an
 * item does not pass for a string. (`any`, or the error type of an unresolved `import('msw')` in the
 * declarations, would let this compile.)
 */
import { createMockApi } from 'merchant-fulfillment/testing';

export const handler: string | undefined = createMockApi().handlers[0];
