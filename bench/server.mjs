// A minimal collection server for the benchmarks, run in its own process so that its memory and CPU
// stay out of the measured client. Serves GET /merchant_api/v1/skus in the version 1 envelope:
// `pages` pages of `limit` SKUs. Prints its URL on stdout.
import { createServer } from 'node:http';

const pages = Number(process.env.PAGES ?? 1000);

function sku(id) {
  return (
    `{"id":${id},"merchant_sku_id":"SKU-${id}","name":"Product ${id}","barcode":"40063813${String(id).padStart(5, '0')}",` +
    `"batch_tracking_enabled":false,"cost_in_cents":${id % 5000},"country_code_of_origin":"DE","hs_code":"61091000",` +
    `"image_url":"https://cdn.example.com/img/${id}.jpg","weight_in_kg":0.25,"created_at":"2025-01-01T10:00:00.000Z",` +
    `"status":"active","fulfilled_by":"service","dangerous_good":false,"hazardous_good":false,"h_codes":[],"un_names":[],` +
    `"inventory":{"reserved":1,"stocked":${id % 300},"total":${(id % 300) + 1}},` +
    `"inventory_per_warehouse":[{"warehouse_id":1,"reserved":1,"stocked":${id % 300},"total":${(id % 300) + 1}}],"inventory_batches":[]}`
  );
}

function page(number, limit) {
  const items = [];
  const first = (number - 1) * limit + 1;
  for (let i = 0; i < limit; i++) items.push(sku(first + i));
  return `{"data":[${items.join(',')}],"pagination":{"current_page":${number},"page_count":${pages},"item_count":${pages * limit},"items_per_page":${limit}}}`;
}

const cache = new Map();
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const number = Number(url.searchParams.get('page') ?? '1');
  const limit = Number(url.searchParams.get('limit') ?? '20');
  const key = `${number}:${limit}`;
  let body = cache.get(key);
  if (!body) {
    body = Buffer.from(number > pages ? '{"data":[],"pagination":{}}' : page(number, limit));
    if (cache.size < 2000) cache.set(key, body);
  }
  const send = () => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
      'x-rate-limit-used': '1',
      'x-rate-limit-max': '100000',
    });
    res.end(body);
  };
  send();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
