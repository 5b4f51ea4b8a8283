/**
 * Route matching (`engine/router.ts`): through the API, and on a table of its own.
 */
import { describe, expect, test } from 'vitest';
import { isIdText, matchPath, type RouteOf } from '../../../src/testing/engine/router.js';
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
      expect(matchPath(routes, '/p/', 'PUT', path), path).toEqual({ kind: 'not_found' });
    }
  });

  test('an id too large to be exact is not found (it was rounded, and the 404 named another id)', () => {
    expect(matchPath(routes, '/p/', 'PUT', '/p/things/9007199254740991')).toEqual({
      kind: 'found',
      handler: 'replace',
      id: Number.MAX_SAFE_INTEGER,
    });
    for (const id of ['9007199254740992', '9007199254740993', '9999999999999999']) {
      expect(matchPath(routes, '/p/', 'PUT', `/p/things/${id}`), id).toEqual({ kind: 'not_found' });
      expect(isIdText(id), id).toBe(false);
    }
    expect(isIdText('42')).toBe(true);
  });
});
