/**
 * Route matching (`engine/router.ts`): through the API, and on a table of its own.
 */
import { describe, expect, test } from 'vitest';
import { isIdText, matchPath, notFoundHint, type RouteOf } from '../../../src/testing/engine/router.js';
import { mockRequest, testApi } from '../helpers.js';

describe('routing', () => {
  test('a trailing slash is accepted', async () => {
    const api = testApi();
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses/')).status).toBe(200);
  });
});

describe('matchPath', () => {
  const routes: RouteOf<string>[] = [
    { segments: ['things'], methods: { GET: 'list', POST: 'create' } },
    { segments: ['things', ':id'], methods: { PUT: 'replace' } },
  ];

  test('finds the handler and the id; HEAD is answered by GET', () => {
    expect(matchPath(routes, '/p/', 'GET', '/p/things')).toEqual({ kind: 'found', handler: 'list', id: 0 });
    expect(matchPath(routes, '/p/', 'HEAD', '/p/things/')).toEqual({ kind: 'found', handler: 'list', id: 0 });
    expect(matchPath(routes, '/p/', 'PUT', '/p/things/42')).toEqual({
      kind: 'found',
      handler: 'replace',
      id: 42,
    });
  });

  test('a wrong method lists the allowed ones, HEAD after GET; other paths are not found', () => {
    expect(matchPath(routes, '/p/', 'DELETE', '/p/things')).toEqual({
      kind: 'wrong_method',
      allow: ['GET', 'HEAD', 'POST'],
    });
    expect(matchPath(routes, '/p/', 'GET', '/p/things/42')).toEqual({ kind: 'wrong_method', allow: ['PUT'] });
    for (const path of ['/p/things/0', '/p/things/x', '/p/things/1/2', '/q/things', '/p/other']) {
      expect(matchPath(routes, '/p/', 'PUT', path), path).toMatchObject({ kind: 'not_found' });
    }
  });

  test('an id too large to be exact is not found (it was rounded, and the 404 named another id)', () => {
    expect(matchPath(routes, '/p/', 'PUT', '/p/things/9007199254740991')).toEqual({
      kind: 'found',
      handler: 'replace',
      id: Number.MAX_SAFE_INTEGER,
    });
    for (const id of ['9007199254740992', '9007199254740993', '9999999999999999']) {
      expect(matchPath(routes, '/p/', 'PUT', `/p/things/${id}`), id).toMatchObject({ kind: 'not_found' });
      expect(isIdText(id), id).toBe(false);
    }
    expect(isIdText('42')).toBe(true);
  });

  test('a path not found is told of as sent; an id that is no record id, with its route', () => {
    const miss = (path: string) => {
      const match = matchPath(routes, '/p/', 'PUT', path);
      if (match.kind !== 'not_found') throw new Error(`${path} was ${match.kind}`);
      return match;
    };
    // In place of an id: the route and the problem.
    expect(miss('/p/things/abc')).toEqual({
      kind: 'not_found',
      shown: '/p/things/abc',
      badId: { route: '/p/things/{id}', got: "'abc'" },
    });
    expect(notFoundHint('API', 'PUT', miss('/p/things/abc'))).toBe(
      "PUT /p/things/{id}: {id} must be an integer >= 1, got 'abc'",
    );
    expect(miss('/p/things/0').badId).toEqual({ route: '/p/things/{id}', got: "'0'" });
    expect(miss('/p/things/9007199254740993').badId?.got).toBe("'9007199254740993'");
    // No route of that shape: the path as sent.
    expect(notFoundHint('API', 'GET', miss('/p/other/things/7'))).toBe('no API route GET /p/other/things/7');
    expect(miss('/q/things').shown).toBe('/q/things');
    expect(miss(`/p${'/things'.repeat(3)}`).badId).toBeUndefined();
  });
});

describe('the hint of a path not found', () => {
  test('names the id a route would take, or says no route matches', () => {
    const routes: RouteOf<string>[] = [
      { segments: ['things', ':id', 'parts'], methods: { GET: 'parts' } },
      { segments: ['things', ':id', 'stock'], methods: { GET: 'stock' } },
    ];
    expect(matchPath(routes, '/p/', 'GET', '/p/things/7/stock')).toMatchObject({ handler: 'stock', id: 7 });
    // Not found: the hints as before (the first route the path would match but for its id).
    const miss = matchPath(routes, '/p/', 'GET', '/p/things/x/parts');
    expect(miss.kind === 'not_found' && notFoundHint('API', 'GET', miss)).toBe(
      "GET /p/things/{id}/parts: {id} must be an integer >= 1, got 'x'",
    );
    const other = matchPath(routes, '/p/', 'GET', '/p/things/7/secret');
    expect(other.kind === 'not_found' && notFoundHint('API', 'GET', other)).toBe(
      'no API route GET /p/things/7/secret',
    );
  });
});
