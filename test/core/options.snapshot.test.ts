/**
 * The per-request options are copied when the method is called, also on the first call of a
 * process (and of each resource group), whose build waits for validation to load: a change to the
 * caller's object right after the call is not sent. Its own file, so that the first call here is
 * really the first (each test file gets fresh modules).
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { RequestValidationError } from '../../src/index.js';
import { BASE, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

describe('per-request options on a cold client', () => {
  it('are taken as they were when the method was called', async () => {
    const seen: Request[] = [];
    server.use(
      http.all(`${BASE}/*`, ({ request }) => {
        seen.push(request.clone());
        return HttpResponse.json({
          data: [{ id: 1, name: 'A' }],
          pagination: { current_page: 1, page_count: 1 },
        });
      }),
    );
    const client = testClient();
    // The SKU and warehouse schemas load on first use: these builds wait for them.
    const options = { headers: { 'x-trace': 'at-call' } as Record<string, string>, timeout: 1000 };
    const first = client.skus.update(1, { name: 'Mug' }, options);
    options.headers['x-trace'] = 'changed-after-call';
    options.timeout = -5;
    await first.catch(() => undefined); // the reply is no SKU: only what was sent matters here
    const listOptions = { headers: { 'x-trace': 'list-at-call' } as Record<string, string> };
    const list = client.warehouses.list({}, listOptions);
    listOptions.headers['x-trace'] = 'changed';
    await list;
    expect(seen.map((r) => r.headers.get('x-trace'))).toEqual(['at-call', 'list-at-call']);
  });

  it('getAPIList with a path that cannot become text rejects naming path', async () => {
    const client = testClient();
    const error = await client.getAPIList(Object.create(null), z.looseObject({})).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('path');
  });
});
