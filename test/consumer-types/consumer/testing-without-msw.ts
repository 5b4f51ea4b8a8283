// @variant without-msw
/** `merchant-fulfillment/testing` without msw installed: `api.handlers` is `unknown[]` (as documented). */
import { expectTypeOf } from 'expect-type';
import { createMockApi } from 'merchant-fulfillment/testing';

expectTypeOf(createMockApi().handlers).toEqualTypeOf<unknown[]>();
