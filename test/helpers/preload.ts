/**
 * Test setup: loads what validation needs (zod, the compiler: `core/validation.ts`) before any test runs, so that a unit
 * test may call `buildRequest` or `ResponseParsers` directly, as the client does after its first
 * await. The lazy loading itself is tested from a fresh module graph (test/core/lazy.test.ts) and
 * in a child process on the built package (what importing it loads).
 */
import { loadValidation } from '../../src/core/lazy.js';

await loadValidation();
