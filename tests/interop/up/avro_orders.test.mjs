// `floe up` reads Avro orders through its own Schema Registry: its orders job runs with
// `--format auto --registry` of the registry role, so a producer may publish the orders as JSON
// (as the generator does) or framed by Confluent's Avro serializer against the pipeline's
// registry. With a long trigger nothing is committed yet, so a fresh read (`floe sql`, freshness
// live) shows both kinds from the topic's tail, decoded as the job would; after the job's first
// commit the table holds them all, and nothing went to the dead letters.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import kafkajs from 'kafkajs';
import { SchemaRegistryClient, AvroSerializer, SerdeType } from '@confluentinc/schemaregistry';
import { startFloeUp, stopFloeUp } from '../support/floe_up.mjs';
import { waitFor } from '../support/waiting.mjs';
import { ORDER_AVRO_SCHEMA as orderSchema } from '../support/order_avro_schema.mjs';

const { Kafka, logLevel } = kafkajs;
const FLOE = process.env.FLOE_BIN;
// Long enough that the job's first commit comes well after the live read.
const TRIGGER_S = 60;


let dir, up, ports;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'floe-up-avro-'));
  up = await startFloeUp(FLOE, path.join(dir, 'data'), ['--traffic', 'off', '--trigger', `${TRIGGER_S}s`, '--partitions', '2']);
  ports = up.ports;
});

after(async () => {
  await stopFloeUp(up);
  fs.rmSync(dir, { recursive: true, force: true });
});

function sql(query, freshness) {
  const out = execFileSync(FLOE, ['sql', '--catalog', `sqlite:${path.join(dir, 'data', 'catalog.db')}`,
    '--freshness', freshness, '--format', 'json', '-e', query], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return out.trim().split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

test('floe up decodes Avro orders through its registry, live and committed', { timeout: 200000 }, async () => {
  const sr = new SchemaRegistryClient({ baseURLs: [`http://127.0.0.1:${ports.registry}`], maxRetries: 0 });
  await sr.register('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderSchema) });
  const serializer = new AvroSerializer(sr, SerdeType.VALUE, { useLatestVersion: true });
  const now = Date.now();
  const order = (i, kind) => ({
    event_id: `${kind}-${i}`, ts: now + i, type: 'created', order_id: i, customer_id: 100 + i, region: 'eu-west',
    items: i % 5 + 1, amount: i * 2.5, currency: 'EUR', coupon: i % 2 ? null : `C${i}`,
  });
  const messages = [];
  for (let i = 0; i < 30; i++) {
    messages.push({ key: String(i), value: await serializer.serialize('orders', order(i, 'avro')) });
    messages.push({ key: String(i), value: JSON.stringify(order(i, 'json')) });
  }
  const producer = new Kafka({ clientId: 'floe-up-avro-test', brokers: [`127.0.0.1:${ports.broker}`],
    logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  await producer.send({ topic: 'orders', acks: -1, messages });
  await producer.disconnect();

  const summary = `SELECT split_part(event_id, '-', 1) AS kind, count(*) AS n, round(sum(amount), 2) AS amount,
    count(coupon) AS coupons FROM shop.orders GROUP BY 1 ORDER BY 1`;
  const want = [{ kind: 'avro', n: 30, amount: 1087.5, coupons: 15 }, { kind: 'json', n: 30, amount: 1087.5, coupons: 15 }];
  const normal = (rows) => rows.map((r) => ({ kind: r.kind, n: Number(r.n), amount: Number(r.amount),
                                              coupons: Number(r.coupons) }));
  // Before the job's first commit (the trigger is long), only the tail has them.
  const live = normal(sql(summary, 'live'));
  assert.deepEqual(normal(sql(summary, 'snapshot')), [], 'committed already: the live read would prove nothing');
  assert.deepEqual(live, want);
  // Then the job commits them, Avro and JSON alike.
  await waitFor('the job to commit the orders', () => JSON.stringify(normal(sql(summary, 'snapshot'))) === JSON.stringify(want),
    { timeoutMs: (TRIGGER_S + 40) * 1000, intervalMs: 1000 });
  assert.equal(Number(sql('SELECT count(*) AS n FROM shop.orders_dlq', 'snapshot')[0].n), 0);
});
