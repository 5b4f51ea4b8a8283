/** Helpers for the schema tests. */
import type * as z from 'zod';
import {
  RequestValidationError,
  ResponseValidationError,
  type ValidationIssue,
} from '../../src/core/errors.js';
import { parseResponse, validateRequest } from '../../src/core/validation.js';

/** Validates a request and returns the issues it throws (fails the test when it does not throw). */
export function requestIssues(schema: z.ZodType, value: unknown): readonly ValidationIssue[] {
  try {
    validateRequest(schema, value);
  } catch (error) {
    if (error instanceof RequestValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a RequestValidationError, but the request was valid');
}

/** Parses a response in `'strict'` mode and returns the issues it throws (fails the test when it does not throw). */
export function strictIssues(schema: z.ZodType, body: unknown): readonly ValidationIssue[] {
  return responseIssues(schema, body, 'strict');
}

/** Parses a response in the given mode and returns the issues it throws (fails the test when it does not throw). */
export function responseIssues(
  schema: z.ZodType,
  body: unknown,
  mode: 'strict' | 'lenient' = 'lenient',
): readonly ValidationIssue[] {
  try {
    parseResponse(schema, body, mode);
  } catch (error) {
    if (error instanceof ResponseValidationError) return error.issues;
    throw error;
  }
  throw new Error(`expected a ResponseValidationError in ${mode} mode, but the body was accepted`);
}

/** A deep copy of a fixture that a test may mutate. */
export const clone = <T>(value: T): T => structuredClone(value);
