/**
 * The type of `api.handlers`, declared so that the testing kit's declarations compile whether or not
 * the optional peer dependency msw is installed (with `skipLibCheck: false` too): the build marks
 * this import in `dist/testing.d.ts` with `@ts-ignore` (scripts/optional-peer-types.mjs), so without
 * msw it is an unresolved (error) type, which `MockHandler` turns into `unknown`.
 */
import type { HttpHandler } from 'msw';

/** msw's `HttpHandler` when msw is installed; `unknown` when it is not (then `handlers` throws). */
export type MockHandler = unknown extends HttpHandler ? unknown : HttpHandler;
