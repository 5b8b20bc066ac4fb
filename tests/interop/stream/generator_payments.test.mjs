// The generator's payments and shipments (`floe produce --payments-topic payments
// --shipments-topic shipments`), read back from the three topics by kcat and checked by DuckDB
// against the orders (one payment per paid order with its amount, currency and time, one
// shipment per shipped order to its country, none for an order cancelled unpaid or a mangled
// event), then streamed by `floe stream` into three Iceberg tables: floe's SQL join of orders and
// payments gives, row for row and NULL for NULL, what DuckDB's join over the same JSON gives.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startBroker } from '../broker/broker_process.mjs';

const floe = process.env.FLOE_BIN;
const EVENTS = 6000;
const TOPICS = ['orders', 'payments', 'shipments'];
let dir, broker, conn;
const messages = {};  // topic -> [{ partition, key, value }]

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

function floeJson(sql) {
  const out = run('sql', '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
                  '--format', 'json', '-e', sql);
  return out.trim().split('\n').filter((l) => l).map((l) => JSON.parse(l));
}

async function duckRows(sql) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJS();
}

// What the stream job takes as an order event; the rest are the generator's deliberately
// malformed messages, which go to the dead letters.
function validOrder(value) {
  try {
    const e = JSON.parse(value);
    return typeof e.event_id === 'string' && typeof e.ts === 'number' && typeof e.amount === 'number';
  } catch {
    return false;
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-payments-'));
  broker = await startBroker([], join(dir, 'broker'));
  for (const topic of TOPICS) run('topic', 'create', topic, '--partitions', '3', '--brokers', broker.address);
  run('produce', '--brokers', broker.address, '--count', String(EVENTS), '--rate', '0', '--seed', '23', '--line-items',
      '--malformed-rate', '0.02', '--payments-topic', 'payments', '--shipments-topic', 'shipments',
      '--ledger', join(dir, 'ledger.json'));
  for (const topic of TOPICS) {
    // Partition, key, value: the value is the rest of the line (order JSON holds spaces).
    const out = execFileSync('kcat', ['-b', broker.address, '-C', '-t', topic, '-e', '-q', '-f', '%p %k %s\n'],
                             { encoding: 'utf8', maxBuffer: 64 << 20 });
    messages[topic] = out.split('\n').filter((l) => l).map((line) => {
      const first = line.indexOf(' ');
      const second = line.indexOf(' ', first + 1);
      return { partition: Number(line.slice(0, first)), key: line.slice(first + 1, second), value: line.slice(second + 1) };
    });
    const values = topic === 'orders' ? messages[topic].map((m) => m.value).filter(validOrder)
      : messages[topic].map((m) => m.value);
    writeFileSync(join(dir, `${topic}.jsonl`), values.join('\n') + '\n');
  }
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await db.connect();
  for (const topic of TOPICS) {
    await conn.run(`CREATE TABLE ${topic} AS SELECT * FROM read_json('${join(dir, `${topic}.jsonl`)}', format = 'newline_delimited')`);
  }
  writeFileSync(join(dir, 'orders.json'), run('produce', '--print-schema', '--line-items'));
  writeFileSync(join(dir, 'payments.json'), run('produce', '--print-payments-schema'));
  writeFileSync(join(dir, 'shipments.json'), run('produce', '--print-shipments-schema'));
  for (const topic of TOPICS) {
    run('stream', '--brokers', broker.address, '--topic', topic, '--table', `shop.${topic}`, '--catalog',
        `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`, '--schema',
        join(dir, `${topic}.json`), '--timestamp-unit', 'ms', '--available-now', '--maintenance-interval', '0');
  }
});

after(async () => {
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the ledger counts each topic as kcat finds it', () => {
  const ledger = JSON.parse(readFileSync(join(dir, 'ledger.json'), 'utf8'));
  assert.equal(ledger.topic, 'orders');
  assert.equal(ledger.total.acked, messages.orders.length);
  assert.equal(messages.orders.length, EVENTS);
  for (const topic of ['payments', 'shipments']) {
    assert.equal(ledger.topics[topic].total.acked, messages[topic].length, topic);
    assert.equal(ledger.topics[topic].total.acked_valid, messages[topic].length, topic);
    assert.equal(ledger.topics[topic].total.failed, 0, topic);
  }
});

test('payments and shipments are keyed by their order and share its partition', () => {
  const orderPartition = new Map();
  for (const m of messages.orders) {
    if (validOrder(m.value)) orderPartition.set(m.key, m.partition);
  }
  for (const topic of ['payments', 'shipments']) {
    assert.ok(messages[topic].length > 300, `${messages[topic].length} ${topic}`);
    for (const m of messages[topic]) {
      assert.equal(m.key, String(JSON.parse(m.value).order_id));
      // Their order's events are all there unless mangled; those left share its partition.
      if (orderPartition.has(m.key)) assert.equal(m.partition, orderPartition.get(m.key), m.value);
    }
  }
});

test('DuckDB finds one payment per paid order and one shipment per shipped order, and none else', async () => {
  const [counts] = await duckRows(`SELECT
      (SELECT count(*) FROM orders WHERE type = 'paid') AS paid,
      (SELECT count(*) FROM payments) AS payments,
      (SELECT count(*) FROM orders WHERE type = 'shipped') AS shipped,
      (SELECT count(*) FROM shipments) AS shipments,
      (SELECT count(*) FROM orders c WHERE type = 'cancelled'
         AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.order_id = c.order_id AND p.type = 'paid')) AS cancelled_unpaid`);
  assert.equal(counts.payments, counts.paid);
  assert.equal(counts.shipments, counts.shipped);
  assert.ok(counts.cancelled_unpaid > 20, `${counts.cancelled_unpaid} orders cancelled before payment`);
  // Each paid event has its payment: same order, time, amount and currency.
  assert.deepEqual(await duckRows(`SELECT o.order_id FROM orders o LEFT JOIN payments p USING (order_id)
    WHERE o.type = 'paid' AND (p.payment_id IS NULL OR p.ts <> o.ts OR p.amount <> o.amount OR p.currency <> o.currency)`), []);
  // Each shipped event has its shipment, to the order's country.
  assert.deepEqual(await duckRows(`SELECT o.order_id FROM orders o LEFT JOIN shipments s USING (order_id)
    WHERE o.type = 'shipped' AND (s.shipment_id IS NULL OR s.ts <> o.ts OR s.country <> o.shipping_address.country)`), []);
  // No order has two, and none has one without the event it follows (cancelled unpaid: none).
  assert.deepEqual(await duckRows(`SELECT order_id FROM payments GROUP BY order_id HAVING count(*) > 1
    UNION ALL SELECT order_id FROM shipments GROUP BY order_id HAVING count(*) > 1`), []);
  assert.deepEqual(await duckRows(`SELECT payment_id FROM payments p
    WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = p.order_id AND o.type = 'paid')`), []);
  assert.deepEqual(await duckRows(`SELECT shipment_id FROM shipments s
    WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = s.order_id AND o.type = 'shipped')`), []);
  const methods = await duckRows('SELECT DISTINCT method FROM payments ORDER BY 1');
  assert.deepEqual(methods.map((r) => r.method), ['bank_transfer', 'card', 'paypal', 'wallet']);
});

test('floe streams every event into its table', () => {
  for (const topic of ['payments', 'shipments']) {
    assert.deepEqual(floeJson(`SELECT count(*) AS n FROM shop.${topic}`), [{ n: messages[topic].length }], topic);
  }
  const valid = messages.orders.filter((m) => validOrder(m.value)).length;
  assert.deepEqual(floeJson('SELECT count(*) AS n FROM shop.orders'), [{ n: valid }]);
});

test('floe joins orders with payments as DuckDB does over the same JSON', async () => {
  // The coupon is NULL for most orders: a NULL must stay a NULL, not become ''.
  const floeJoin = floeJson(`SELECT p.payment_id, o.order_id, o.region, o.coupon, p.method, p.provider, p.amount,
      p.currency, date_diff('millisecond', o.ts, p.ts) AS ms_to_pay
    FROM shop.orders o JOIN shop.payments p ON o.order_id = p.order_id
    WHERE o.type = 'created' ORDER BY p.payment_id`);
  const duckJoin = await duckRows(`SELECT p.payment_id, o.order_id, o.region, o.coupon, p.method, p.provider, p.amount,
      p.currency, p.ts - o.ts AS ms_to_pay
    FROM orders o JOIN payments p ON o.order_id = p.order_id
    WHERE o.type = 'created' ORDER BY p.payment_id`);
  assert.ok(floeJoin.length > 300, `${floeJoin.length} joined rows`);
  assert.ok(floeJoin.some((r) => r.coupon === null) && floeJoin.some((r) => typeof r.coupon === 'string'));
  assert.deepEqual(floeJoin.map((r) => ({ ...r, order_id: Number(r.order_id), ms_to_pay: Number(r.ms_to_pay) })),
                   duckJoin.map((r) => ({ ...r, order_id: Number(r.order_id), ms_to_pay: Number(r.ms_to_pay) })));
  // The dashboard's panel (web/js/orders.js): how each region pays.
  const floePanel = floeJson(`SELECT o.region, p.method, count(*) AS payments
    FROM shop.orders o JOIN shop.payments p ON p.order_id = o.order_id
    WHERE o.type = 'created' GROUP BY 1, 2 ORDER BY 1, 2`);
  const duckPanel = await duckRows(`SELECT o.region, p.method, count(*) AS payments
    FROM orders o JOIN payments p ON p.order_id = o.order_id
    WHERE o.type = 'created' GROUP BY 1, 2 ORDER BY 1, 2`);
  assert.ok(floePanel.length >= 20, `${floePanel.length} regions and methods`);
  assert.deepEqual(floePanel.map((r) => ({ ...r, payments: Number(r.payments) })),
                   duckPanel.map((r) => ({ ...r, payments: Number(r.payments) })));
});
