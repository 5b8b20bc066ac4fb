// The generator's realistic orders (`floe produce --line-items`: line items as an array of
// structs, a shipping address as a struct), read back by kcat and checked by DuckDB (each
// order's lines add up to its items and amount), then streamed by `floe stream` into an Iceberg
// table of the `--print-schema --line-items` schema: floe's SQL over the nested columns (UNNEST
// of the line items, a struct field) gives what DuckDB computes from the same JSON lines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startBroker } from '../broker/broker_process.mjs';

const floe = process.env.FLOE_BIN;
const EVENTS = 4000;
let dir, broker, conn;

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

function floeRows(sql) {
  return run('sql', '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
             '--format', 'csv', '-e', sql).trim().split('\n').slice(1);
}

async function duckRows(sql) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRows().map((r) => r.map((v) => (v === null ? '' : String(v))).join(','));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-line-items-'));
  broker = await startBroker([], join(dir, 'broker'));
  run('topic', 'create', 'orders', '--partitions', '3', '--brokers', broker.address);
  run('produce', '--brokers', broker.address, '--count', String(EVENTS), '--rate', '0', '--seed', '9', '--line-items');
  const lines = execFileSync('kcat', ['-b', broker.address, '-C', '-t', 'orders', '-e', '-q', '-f', '%s\n'],
                             { encoding: 'utf8', maxBuffer: 64 << 20 });
  writeFileSync(join(dir, 'events.jsonl'), lines);
  writeFileSync(join(dir, 'orders.json'), run('produce', '--print-schema', '--line-items'));
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await db.connect();
  await conn.run(`CREATE TABLE events AS SELECT * FROM read_json('${join(dir, 'events.jsonl')}', format = 'newline_delimited')`);
  run('stream', '--brokers', broker.address, '--topic', 'orders', '--table', 'shop.orders', '--catalog',
      `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`, '--schema', join(dir, 'orders.json'),
      '--timestamp-unit', 'ms', '--available-now', '--maintenance-interval', '0');
});

after(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('every order\'s lines add up to its items and, before a coupon, its amount', async () => {
  const [count] = await duckRows('SELECT count(*) FROM events');
  assert.equal(Number(count), EVENTS);
  const broken = await duckRows(`SELECT order_id FROM events
    WHERE len(line_items) = 0 OR shipping_address.country IS NULL
       OR list_sum(list_transform(line_items, l -> l.quantity)) <> items
       OR abs(amount - list_sum(list_transform(line_items, l -> l.quantity * l.unit_price)) * CASE WHEN coupon IS NULL THEN 1 ELSE 0.9 END) > 0.006`);
  assert.deepEqual(broken, []);
  // Every event of an order repeats its lines and address.
  const differing = await duckRows(`SELECT order_id FROM events GROUP BY order_id
    HAVING count(DISTINCT line_items::VARCHAR) > 1 OR count(DISTINCT shipping_address::VARCHAR) > 1`);
  assert.deepEqual(differing, []);
});

test('floe SQL over the streamed table unnests the line items as DuckDB does over the events', async () => {
  assert.deepEqual(floeRows('SELECT count(*) FROM shop.orders'), [String(EVENTS)]);
  const floeProducts = floeRows(`SELECT li.sku, sum(li.quantity), count(DISTINCT o.order_id), round(sum(li.quantity * li.unit_price), 2)
    FROM shop.orders o CROSS JOIN UNNEST(o.line_items) AS li (sku, quantity, unit_price)
    WHERE o.type = 'created' GROUP BY li.sku ORDER BY li.sku`);
  const duckProducts = await duckRows(`SELECT li.sku, sum(li.quantity), count(DISTINCT order_id), round(sum(li.quantity * li.unit_price), 2)
    FROM (SELECT order_id, unnest(line_items) AS li FROM events WHERE type = 'created') GROUP BY li.sku ORDER BY li.sku`);
  assert.ok(floeProducts.length > 50, `${floeProducts.length} products`);
  assert.deepEqual(floeProducts, duckProducts);
  const floeCountries = floeRows(`SELECT shipping_address.country, shipping_address.city, count(*), count(DISTINCT shipping_address.postal_code)
    FROM shop.orders GROUP BY 1, 2 ORDER BY 1, 2`);
  const duckCountries = await duckRows(`SELECT shipping_address.country, shipping_address.city, count(*), count(DISTINCT shipping_address.postal_code)
    FROM events GROUP BY 1, 2 ORDER BY 1, 2`);
  assert.deepEqual(floeCountries, duckCountries);
});
