/** The error classes: hierarchy, fields, and narrowing with `instanceof`. */
import { expectTypeOf } from 'expect-type';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  type APIUserAbortError,
  type AuthenticationError,
  type BadRequestError,
  BulkUpsertError,
  type BulkUpsertResult,
  type ConflictError,
  FulfillmentError,
  InternalServerError,
  type NotFoundError,
  type PaginationError,
  type PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  type UnprocessableEntityError,
  type ValidationIssue,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from 'merchant-fulfillment';

type BulkUpsertChunk = BulkUpsertError['chunks'][number];

// Hierarchy
expectTypeOf<FulfillmentError>().toExtend<Error>();
expectTypeOf<APIError>().toExtend<FulfillmentError>();
expectTypeOf<BadRequestError>().toExtend<APIError>();
expectTypeOf<AuthenticationError>().toExtend<APIError>();
expectTypeOf<PermissionDeniedError>().toExtend<APIError>();
expectTypeOf<NotFoundError>().toExtend<APIError>();
expectTypeOf<ConflictError>().toExtend<APIError>();
expectTypeOf<UnprocessableEntityError>().toExtend<APIError>();
expectTypeOf<RateLimitError>().toExtend<APIError>();
expectTypeOf<InternalServerError>().toExtend<APIError>();
expectTypeOf<APIConnectionError>().toExtend<FulfillmentError>();
expectTypeOf<APITimeoutError>().toExtend<APIConnectionError>();
expectTypeOf<APIUserAbortError>().toExtend<FulfillmentError>();
expectTypeOf<RequestValidationError>().toExtend<FulfillmentError>();
expectTypeOf<ResponseValidationError>().toExtend<FulfillmentError>();
expectTypeOf<PaginationError>().toExtend<FulfillmentError>();
expectTypeOf<BulkUpsertError>().toExtend<FulfillmentError>();
expectTypeOf<WebhookVerificationError>().toExtend<FulfillmentError>();

export function handle(error: unknown): void {
  if (error instanceof RateLimitError) {
    expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
    expectTypeOf(error.status).toEqualTypeOf<number>();
  } else if (error instanceof InternalServerError) {
    expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
  } else if (error instanceof APIError) {
    expectTypeOf(error.status).toEqualTypeOf<number>();
    expectTypeOf(error.errors).toEqualTypeOf<string[]>();
    expectTypeOf(error.body).toEqualTypeOf<unknown>();
    expectTypeOf(error.headers).toEqualTypeOf<Headers>();
    expectTypeOf(error.method).toEqualTypeOf<string>();
    expectTypeOf(error.url).toEqualTypeOf<string>();
    expectTypeOf(error.message).toEqualTypeOf<string>();
  } else if (error instanceof APITimeoutError) {
    expectTypeOf(error).toExtend<APIConnectionError>();
  } else if (error instanceof APIConnectionError) {
    expectTypeOf(error.method).toEqualTypeOf<string>();
    expectTypeOf(error.url).toEqualTypeOf<string>();
  } else if (error instanceof RequestValidationError) {
    expectTypeOf(error.issues).toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<ValidationIssue>().toEqualTypeOf<{ path: string; message: string }>();
  } else if (error instanceof ResponseValidationError) {
    expectTypeOf(error.body).toEqualTypeOf<unknown>();
    expectTypeOf(error.issues).toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
    expectTypeOf(error.url).toEqualTypeOf<string | undefined>();
  } else if (error instanceof BulkUpsertError) {
    expectTypeOf(error.written).toEqualTypeOf<readonly number[]>();
    expectTypeOf(error.failed).toEqualTypeOf<readonly number[]>();
    expectTypeOf(error.skipped).toEqualTypeOf<readonly number[]>();
    expectTypeOf(error.chunks).toEqualTypeOf<readonly BulkUpsertChunk[]>();
    expectTypeOf(error.result).toEqualTypeOf<BulkUpsertResult>();
  } else if (error instanceof WebhookVerificationError) {
    expectTypeOf(error.reason).toEqualTypeOf<WebhookVerificationReason>();
    expectTypeOf<WebhookVerificationReason>().toExtend<string>();
  } else if (error instanceof FulfillmentError) {
    expectTypeOf(error.name).toEqualTypeOf<string>();
  }
}
