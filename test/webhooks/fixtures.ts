/**
 * Known-answer vectors for webhook signatures, computed independently of the SDK with OpenSSL:
 *
 *   printf '%s' "$BODY" > body.json && openssl dgst -sha256 -hmac "$TOKEN" body.json
 *
 * (OpenSSL 3.0.19; `printf '%s'` writes the body without a trailing newline; the shell passes the
 * token to OpenSSL as UTF-8 bytes.)
 */

/** The token the vectors are keyed with. */
export const TOKEN = 'test-token-ABC123';

/** A version 1 restocking shipment as the webhook sends it (281 bytes). */
export const SHIPMENT_BODY =
  '{"id":42,"merchant_id":7,"warehouse_id":3,"estimated_arrival_date":"2025-03-01","delivery_option":"courier","tracking_code":"1Z999","po_number":null,"supplier_name":null,"status":"arrived","barcode":"RS-42","restocking_shipment_items":[{"id":1,"sku_id":10,"announced_quantity":5}]}';
/** `openssl dgst -sha256 -hmac 'test-token-ABC123' shipment.json` */
export const SHIPMENT_SIGNATURE = '808c5a30765ef5d529fd39de1d0b8366739ae002c1241e441535ea34d5b9e150';
/** `openssl dgst -sha256 -hmac 'sk_live_rotated_2' shipment.json` */
export const SHIPMENT_SIGNATURE_ROTATED = '475b9863c1337d195417402b6da87cc7ab29ca358a849ddf2e9225e80d96a6b0';
/** The token of {@link SHIPMENT_SIGNATURE_ROTATED}. */
export const ROTATED_TOKEN = 'sk_live_rotated_2';

/** A shipment whose body has non-ASCII characters (258 bytes in UTF-8, 2- to 3-byte sequences). */
export const UTF8_BODY =
  '{"id":43,"merchant_id":7,"warehouse_id":3,"estimated_arrival_date":null,"delivery_option":"postal","tracking_code":null,"po_number":null,"supplier_name":"Müller & Søn — Café ☕ 東京","status":"restocked","barcode":null,"restocking_shipment_items":[]}';
/** Its length in UTF-8 bytes, to catch an editor re-normalising the literal. */
export const UTF8_BODY_BYTES = 258;
/** `openssl dgst -sha256 -hmac 'test-token-ABC123' utf8.json` (OpenSSL 3) */
export const UTF8_SIGNATURE = '9339ae64275c3058d8a77866049d4de2cd9e1cc39da1815f377f5dc91a9ae022';

/** The smallest JSON object (valid JSON, not a shipment). */
export const EMPTY_OBJECT_BODY = '{}';
/** `openssl dgst -sha256 -hmac 'test-token-ABC123' empty.json` */
export const EMPTY_OBJECT_SIGNATURE = '3311b5e707a6bb0458fee90ce41de8ce05c3c9b2d2fc0c4860851e098a1f87c9';

/** A token with non-ASCII characters (encoded as UTF-8). */
export const UTF8_TOKEN = 'clé-secrète';
/** `openssl dgst -sha256 -hmac 'clé-secrète' empty.json` */
export const EMPTY_OBJECT_SIGNATURE_UTF8_TOKEN =
  'b98637a4556a652991fdf76771f4474c3c57fc173d2ba2bd4d30334263628cbd';

/** An event id for deliveries in tests. */
export const EVENT_ID = '5f0e3c1a-9d3b-4c0e-8a55-0d4c1d2e3f40';

/** Every vector above as `[name, body, token, expected signature]`, for `it.each`. */
export const KNOWN_ANSWERS: readonly (readonly [
  name: string,
  body: string,
  token: string,
  signature: string,
])[] = [
  ['shipment', SHIPMENT_BODY, TOKEN, SHIPMENT_SIGNATURE],
  ['shipment, other token', SHIPMENT_BODY, ROTATED_TOKEN, SHIPMENT_SIGNATURE_ROTATED],
  ['UTF-8 body', UTF8_BODY, TOKEN, UTF8_SIGNATURE],
  ['{}', EMPTY_OBJECT_BODY, TOKEN, EMPTY_OBJECT_SIGNATURE],
  ['{} with a UTF-8 token', EMPTY_OBJECT_BODY, UTF8_TOKEN, EMPTY_OBJECT_SIGNATURE_UTF8_TOKEN],
];

/** A version 1 shipment as the webhook sends it ({@link SHIPMENT_BODY}) with some fields replaced. */
export function shipment(fields: Record<string, unknown>): Record<string, unknown> {
  return { ...(JSON.parse(SHIPMENT_BODY) as Record<string, unknown>), ...fields };
}
