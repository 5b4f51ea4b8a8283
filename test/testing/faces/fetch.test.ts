/**
 * The Fetch API face (`faces/fetch.ts`): `api.fetch` and `api.handle`.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it, test } from 'vitest';
import { FulfillmentClient } from '../../../src/index.js';
import { createMockApi } from '../../../src/testing/index.js';
import { mockRequest, TOKEN } from '../helpers.js';

describe('api.fetch', () => {
  test('api.handle answers the request alone: a second argument (a Worker passes env) changes nothing', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const request = new Request(`${api.baseUrl}/merchant_api/v1/warehouses`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const answer = await (api.handle as (r: Request, env: object) => Promise<Response>)(request, {
      method: 'DELETE',
      target: '/elsewhere',
    });
    expect(answer.status).toBe(200);
  });

  test('serves the SDK client in-process, without msw or sockets', async () => {
    const api = createMockApi();
    const client = new FulfillmentClient({
      apiToken: api.token,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      logLevel: 'off',
    });
    const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
    expect(sku).toMatchObject({ id: 1, status: 'active', merchant_sku_id: 'MUG' });
    const found = await client.skus.retrieveByMerchantSkuId('MUG');
    expect(found?.id).toBe(1);
  });

  test('a base URL with a path prefix is honoured by api.fetch / handle', async () => {
    const api = createMockApi({ tokens: [TOKEN], baseUrl: 'https://example.test/api/' });
    expect(api.baseUrl).toBe('https://example.test/api');
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
  });
});

/**
 * The kit for edge runtimes: `createMockApi()` with `api.fetch` bundles for the browser platform
 * (no `http` import is reachable: `listen()` looks `node:http` up when called), and the bundle
 * answers requests.
 */
describe('bundled for edge runtimes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mf-edge-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('the testing kit bundled for the browser platform', () => {
    it('bundles without any Node built-in and answers through api.fetch', async () => {
      const entry = path.join(dir, 'entry.ts');
      const kit = path.resolve('src/testing/index.ts').split(path.sep).join('/');
      writeFileSync(
        entry,
        `import { createMockApi } from '${kit}';\n` +
          'export async function probe() {\n' +
          '  const api = createMockApi();\n' +
          "  const url = api.baseUrl + '/merchant_api/v1/warehouses';\n" +
          "  const res = await api.fetch(url, { headers: { authorization: 'Bearer ' + api.token } });\n" +
          '  return { status: res.status, body: await res.json() };\n' +
          '}\n',
      );
      const out = path.join(dir, 'bundle.mjs');
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        outfile: out,
        logLevel: 'silent',
        metafile: true,
      });
      expect(result.errors).toEqual([]);
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((file) => /^(node:)?(http|https|net|fs)$/.test(file))).toBe(false);
      const { probe } = (await import(pathToFileURL(out).href)) as {
        probe: () => Promise<{ status: number; body: unknown }>;
      };
      const answer = await probe();
      expect(answer.status).toBe(200);
      expect(Array.isArray((answer.body as { data?: unknown }).data ?? answer.body)).toBe(true);
    });
  });
});
