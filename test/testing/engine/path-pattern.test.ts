/**
 * The path matcher of faults (`engine/path-pattern.ts`): RegExp syntax, run without backtracking,
 * so that no pattern can block the event loop. Bounds are asserted in steps, not in time.
 */
import { describe, expect, test } from 'vitest';
import { MAX_COMPILE_WORK, MAX_MATCH_STEPS, PathPattern } from '../../../src/testing/engine/path-pattern.js';
import { mockRequest, testApi } from '../helpers.js';

const PATTERNS = [
  '^/merchant_api/v1/skus(/|$)',
  '^\\/merchant_api\\/v1\\/skus(\\/|$)',
  '\\/skus(\\/|$)',
  '.*',
  '^$',
  '^/merchant_api/v1/orders/\\d+$',
  '/orders/[0-9]+/(cancel|items)',
  '[^/]+$',
  '[a-c-]+z',
  'a{2,3}b',
  'a{2,}',
  '(?:ab)*c',
  '(?<id>\\d+)',
  '\\bv1\\b',
  '(a|ab)(c|bcd)(d*)',
  '\\x2f\\u0073kus',
  '[\\w.-]+\\.json$',
  '^(a+)+$',
  '(a*)*b',
];
const PATHS = [
  '',
  '/merchant_api/v1/skus',
  '/merchant_api/v1/skus/7',
  '/merchant_api/v1/skusx',
  '/merchant_api/v1/orders/12',
  '/merchant_api/v1/orders/12/cancel',
  '/merchant_api/v1/orders/x',
  'abcz',
  'c-z',
  'aab',
  'ababc',
  'abcd',
  'aaaa',
  'aaab',
  '/files/report.v1.json',
  '/MERCHANT_API/V1/SKUS',
];

describe('PathPattern', () => {
  test.each(['', 'i', 'y', 's', 'm'])('agrees with RegExp#test (flags %j)', (flags) => {
    for (const source of PATTERNS) {
      const regexp = new RegExp(source, flags);
      const pattern = new PathPattern(regexp);
      for (const path of PATHS) {
        regexp.lastIndex = 0;
        expect(pattern.test(path), `/${source}/${flags} on ${JSON.stringify(path)}`).toBe(regexp.test(path));
      }
    }
  });

  test('a catastrophic pattern against a 10 000-character path is linear: bounded steps', () => {
    const path = `${'a'.repeat(10_000)}b`;
    for (const source of ['^(a+)+$', '^(a*)*$', '^(a|a)*$', '^(a|aa)+$', '^(.*a){5}$']) {
      const pattern = new PathPattern(source);
      const { matched, steps } = pattern.match(path);
      expect(matched, source).toBe(false);
      // At most every instruction twice per position (once entered, once tested).
      expect(steps, source).toBeLessThanOrEqual((path.length + 1) * 2 * pattern.size);
      expect(steps, source).toBeLessThanOrEqual(MAX_MATCH_STEPS);
    }
    expect(new PathPattern('^(a+)+$').match('a'.repeat(10_000))).toMatchObject({ matched: true });
  });

  test('a match that would take over the step budget counts as no match', () => {
    const pattern = new PathPattern('(a|b|c|d|e|f|g|h){50}x');
    const { matched, steps } = pattern.match('a'.repeat(100_000));
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual(MAX_MATCH_STEPS + 2 * pattern.size);
  });

  test('refuses what it cannot run in linear time, with a clear TypeError', () => {
    for (const [source, message] of [
      ['(a)\\1', /backreferences are not supported/],
      ['(?<x>a)\\k<x>', /backreferences are not supported/],
      ['/x(?=y)', /lookahead and lookbehind are not supported/],
      ['(?<!a)b', /lookahead and lookbehind are not supported/],
      ['(a{100}){200}', /over 10000 instructions/],
      ['a'.repeat(1001), /longer than 1000 characters/],
    ] as const) {
      expect(() => new PathPattern(source), source).toThrow(message);
    }
    expect(() => new PathPattern(/\p{L}/u)).toThrow(/unsupported escape \\p/);
    const unicodeSets = 'v'; // a literal /a/v needs an es2024 target
    expect(() => new PathPattern(new RegExp('a', unicodeSets))).toThrow(/unsupported flags 'v'/);
  });
});

describe('compile work is bounded before compiling', () => {
  test('nested counts of empty groups (no instruction emitted) are refused at once', () => {
    for (const source of [
      '(?:(?:(?:){10000}){10000}){10000}',
      '(?:(?:){10000}){10000}',
      '(?:){10000}(?:(?:){100}){1000}',
      '(?:(?:|){1000}){1000}',
    ]) {
      const started = performance.now();
      expect(() => new PathPattern(source), source).toThrow(TypeError);
      expect(() => new PathPattern(source), source).toThrow(
        `path pattern: too costly to compile: its {} counts multiply to over ${MAX_COMPILE_WORK} steps (empty groups included)`,
      );
      expect(performance.now() - started, source).toBeLessThan(1000);
    }
  });

  test('what fits the budget still compiles (and matches as RegExp does)', () => {
    for (const [source, path] of [
      ['(?:){10000}', '/x'],
      ['(?:(?:){100}){100}a', '/a'],
      ['^(?:ab){4998}$', 'ab'.repeat(4998)],
    ] as const) {
      expect(new PathPattern(source).test(path), source).toBe(new RegExp(source).test(path));
    }
  });

  test('injectFault refuses such a pattern with a TypeError, in-process and over the control route', async () => {
    const api = testApi();
    expect(() => api.injectFault({ path: /(?:(?:(?:){10000}){10000}){10000}/ })).toThrow(
      /^Invalid fault: path pattern: too costly to compile/,
    );
    const answer = await mockRequest(api, 'POST', '/__mock/faults', {
      pathPattern: '(?:(?:(?:){10000}){10000}){10000}',
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatch(/^pathPattern: Invalid fault: path pattern: too costly to compile/);
  });
});

describe('fault patterns', () => {
  test('injectFault refuses a RegExp the matcher cannot run; a catastrophic one matches quickly', async () => {
    const api = testApi();
    expect(() => api.injectFault({ path: /(a)\1/ })).toThrow(/Invalid fault: path pattern: backreferences/);
    const fault = api.injectFault({ path: /^\/(a+)+$/, status: 500 });
    const long = `/${'a'.repeat(10_000)}!`;
    expect((await mockRequest(api, 'GET', long)).status).toBe(404); // no match: the API answers
    expect((await mockRequest(api, 'GET', `/${'a'.repeat(10_000)}`)).status).toBe(500);
    expect(fault.hits).toBe(1);
  });

  test('POST /__mock/faults answers 422 for a pattern with lookaround', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/__mock/faults', { pathPattern: '^/x(?!y)' });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatch(/Invalid fault: path pattern: lookahead and lookbehind/);
    expect((await mockRequest(api, 'GET', '/__mock/faults')).body).toEqual({ data: [] });
  });
});
