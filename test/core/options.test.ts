/** Client options: resolved and checked in one function. */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FulfillmentClient, FulfillmentError } from '../../src/index.js';
import { BASE, testClient, useMsw } from '../helpers/msw.js';

const _server = useMsw();

describe('configuration that would break a header', () => {
  it('refuses a token with a line break without echoing it', () => {
    const secret = 'sk_live_SE\nCRET';
    const error = (() => {
      try {
        new FulfillmentClient({ apiToken: secret, baseUrl: BASE });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FulfillmentError);
    expect((error as Error).message).toMatch(/apiToken.*FULFILLMENT_API_TOKEN/);
    expect(inspect(error)).not.toContain('SE');
  });

  it('refuses defaultHeaders a request could not carry, naming the header', () => {
    expect(() => testClient({ defaultHeaders: { 'x-shop': 'a\r\nb' } })).toThrow(/defaultHeaders\.x-shop/);
    expect(() => testClient({ defaultHeaders: { 'bad name': 'a' } })).toThrow(/not a valid header name/);
  });
});
