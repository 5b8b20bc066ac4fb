// Publishes the order events of a JSON-lines file (the bench's backlog, read back with kcat) as
// Confluent-framed Avro: registers the orders' Avro schema with the Schema Registry at
// REGISTRY_URL under TOPIC-value, encodes each event with avsc (the Avro library Confluent's
// JavaScript serializer runs on) behind magic byte 0 and the schema id, and produces them to
// TOPIC with kafkajs, in the file's order. Usage: avro_orders.mjs BROKER REGISTRY_URL JSONL TOPIC
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The npm packages the interop tests install (tests/interop/package.json).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const avsc = require('avsc');
const kafkajs = require('kafkajs');

const [broker, registryUrl, jsonl, topic] = process.argv.slice(2);
const schema = {
  type: 'record', name: 'OrderEvent', namespace: 'shop',
  fields: [
    { name: 'event_id', type: 'string' },
    { name: 'ts', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'type', type: 'string' },
    { name: 'order_id', type: 'long' },
    { name: 'customer_id', type: 'long' },
    { name: 'region', type: 'string' },
    { name: 'items', type: 'int' },
    { name: 'amount', type: 'double' },
    { name: 'currency', type: 'string' },
    { name: 'coupon', type: ['null', 'string'], default: null },
  ],
};
const response = await fetch(`${registryUrl}/subjects/${topic}-value/versions`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
  body: JSON.stringify({ schema: JSON.stringify(schema) }),
});
if (!response.ok) throw new Error(`registering the schema: HTTP ${response.status} ${await response.text()}`);
const { id } = await response.json();
const type = avsc.Type.forSchema(schema);
const header = Buffer.alloc(5);
header.writeInt32BE(id, 1);

const { Kafka, logLevel } = kafkajs;
const producer = new Kafka({ clientId: 'floe-avro-bench', brokers: [broker], logLevel: logLevel.NOTHING }).producer();
await producer.connect();
const lines = readFileSync(jsonl, 'utf8').split('\n');
let batch = [];
let sent = 0;
for (const line of lines) {
  if (!line) continue;
  const event = JSON.parse(line);
  event.coupon ??= null;
  batch.push({ key: String(event.order_id), value: Buffer.concat([header, type.toBuffer(event)]) });
  if (batch.length === 10000) {
    await producer.send({ topic, acks: -1, messages: batch });
    sent += batch.length;
    batch = [];
  }
}
if (batch.length) await producer.send({ topic, acks: -1, messages: batch });
sent += batch.length;
await producer.disconnect();
console.log(JSON.stringify({ events: sent, schema_id: id }));
