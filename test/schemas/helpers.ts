/** Helpers for the schema tests. */
import type * as z from 'zod/mini';
import {
  RequestValidationError,
  ResponseValidationError,
  type ValidationIssue,
} from '../../src/core/errors.js';
import { compiled, parseResponse, validateRequest } from '../../src/core/validation.js';
import { unknownEnumValues } from '../helpers/known-values.js';

/**
 * The issues `run` throws with the compiled schema (the client's path) and with the schema itself
 * (the webhook path), which must be the same; fails the test when it does not throw.
 */
function issuesOf(
  schema: z.core.$ZodType,
  run: (schema: z.core.$ZodType) => void,
  Expected: typeof RequestValidationError | typeof ResponseValidationError,
  accepted: string,
): readonly ValidationIssue[] {
  const [fast, plain] = [compiled(schema), schema].map((s) => {
    try {
      run(s);
    } catch (error) {
      if (error instanceof Expected) return error.issues;
      throw error;
    }
    throw new Error(accepted);
  }) as [readonly ValidationIssue[], readonly ValidationIssue[]];
  if (JSON.stringify(fast) !== JSON.stringify(plain)) {
    throw new Error(
      `the compiled schema reports ${JSON.stringify(fast)}, the schema ${JSON.stringify(plain)}`,
    );
  }
  return fast;
}

/** Validates a request and returns the issues it throws (fails the test when it does not throw). */
export function requestIssues(schema: z.core.$ZodType, value: unknown): readonly ValidationIssue[] {
  return issuesOf(
    schema,
    (s) => validateRequest(s, value),
    RequestValidationError,
    'expected a RequestValidationError, but the request was valid',
  );
}

/**
 * Parses a response and fails on an open-enum value the schema does not know too (each found by
 * `unknownEnumValues`): the schema's known values are checked.
 */
export function parseKnown<T extends z.core.$ZodType>(schema: T, body: unknown): z.output<T> {
  const data = parseResponse(schema, body, 'lenient');
  const issues = unknownEnumValues(schema, body).map(({ path, message }) => ({ path, message }));
  if (issues.length > 0) throw new ResponseValidationError({ body, issues });
  return data;
}

/** What {@link parseKnown} throws (fails the test when it does not throw). */
export function strictIssues(schema: z.core.$ZodType, body: unknown): readonly ValidationIssue[] {
  return issuesOf(
    schema,
    (s) => parseKnown(s, body),
    ResponseValidationError,
    'expected a ResponseValidationError, but the body was accepted',
  );
}

/** Parses a response (`'lenient'`) and returns the issues it throws (fails the test when it does not throw). */
export function responseIssues(schema: z.core.$ZodType, body: unknown): readonly ValidationIssue[] {
  return issuesOf(
    schema,
    (s) => parseResponse(s, body, 'lenient'),
    ResponseValidationError,
    'expected a ResponseValidationError, but the body was accepted',
  );
}

/** A deep copy of a fixture that a test may mutate. */
export const clone = <T>(value: T): T => structuredClone(value);
