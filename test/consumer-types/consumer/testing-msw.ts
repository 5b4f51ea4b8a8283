// @variant with-msw
/** `merchant-fulfillment/testing` with msw installed: `api.handlers` are msw's own handlers. */
import { expectTypeOf } from 'expect-type';
import { createMockApi } from 'merchant-fulfillment/testing';
import { type HttpHandler, HttpResponse, http } from 'msw';

const api = createMockApi();
expectTypeOf(api.handlers).toEqualTypeOf<HttpHandler[]>();

// Combined with the project's own handlers, as msw users do.
export const handlers: HttpHandler[] = [
  ...api.handlers,
  http.post('https://hooks.example.com/fulfillment', () => new HttpResponse(null, { status: 204 })),
];
