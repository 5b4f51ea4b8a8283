import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createWebhookHeaders, WebhookVerificationError } from '../../src/index.js';
import { restockingShipmentV1Fixture } from '../fixtures/restocking-shipments.js';
import { TOKEN, testClient } from '../helpers/msw.js';

describe('client.webhooks.verify', () => {
  const body = JSON.stringify(restockingShipmentV1Fixture);

  it("verifies a delivery signed with the client's token", async () => {
    const headers = await createWebhookHeaders({ body, secret: TOKEN, eventId: 'evt-1' });
    const event = await testClient().webhooks.verify(body, headers);
    expect(event).toMatchObject({ id: 'evt-1', type: 'restocking_shipment.status_updated' });
    expect(event.data.id).toBe(restockingShipmentV1Fixture.id);
  });

  it('rejects a delivery signed with another token', async () => {
    const headers = await createWebhookHeaders({ body, secret: 'another-token', eventId: 'evt-2' });
    const error = await testClient()
      .webhooks.verify(body, headers)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('signature_mismatch');
  });

  it('honours renamed headers', async () => {
    const headers = await createWebhookHeaders({ body, secret: TOKEN, eventId: 'evt-3' });
    const renamed = { 'X-Sig': headers['x-service-signature']!, 'X-Evt': headers['x-service-event-id']! };
    const event = await testClient().webhooks.verify(body, renamed, {
      signatureHeader: 'x-sig',
      eventIdHeader: 'x-evt',
    });
    expect(event.id).toBe('evt-3');
  });

  it('does not expose the token', () => {
    expect(inspect(testClient().webhooks, { showHidden: true, depth: 5 })).not.toContain(TOKEN);
  });
});
