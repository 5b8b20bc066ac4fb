// Publishes the order events of a JSON-lines file (the bench's backlog, read back with kcat) to
// TOPIC with kafkajs, in the file's order and in batches of 2,000, either as the JSON lines
// themselves (FORMAT json), as Confluent-framed Avro (FORMAT avro): the orders' Avro schema
// registered with the Schema Registry at REGISTRY_URL under TOPIC-value, each event encoded with
// avsc (the Avro library Confluent's JavaScript serializer runs on) behind magic byte 0 and the
// schema id, or as Confluent-framed Protobuf (FORMAT protobuf): the orders' .proto text
// registered, each event encoded with @bufbuild/protobuf (the library Confluent's JavaScript
// serializer runs on) behind the header and the message indexes [0]. Every format goes through
// the same producer in the same batches, so the topics differ in encoding only.
// Usage: publish_orders.mjs BROKER REGISTRY_URL JSONL TOPIC json|avro|protobuf
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The npm packages the interop tests install (tests/interop/package.json).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const avsc = require('avsc');
const kafkajs = require('kafkajs');
const { ORDER_AVRO_SCHEMA: schema } = await import(join(root, 'tests', 'interop', 'support', 'order_avro_schema.mjs'));
const { ORDER_PROTO_TEXT, encodeOrderEvent } = await import(join(root, 'tests', 'interop', 'support', 'order_proto_schema.mjs'));

const [broker, registryUrl, jsonl, topic, format] = process.argv.slice(2);
if (!['json', 'avro', 'protobuf'].includes(format)) throw new Error(`format ${format}: expected json, avro or protobuf`);
let id = 0;
if (format !== 'json') {
  const registered = format === 'avro' ? { schema: JSON.stringify(schema) }
    : { schemaType: 'PROTOBUF', schema: ORDER_PROTO_TEXT };
  const response = await fetch(`${registryUrl}/subjects/${topic}-value/versions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify(registered),
  });
  if (!response.ok) throw new Error(`registering the schema: HTTP ${response.status} ${await response.text()}`);
  ({ id } = await response.json());
}
const type = avsc.Type.forSchema(schema);
const header = Buffer.alloc(5);
header.writeInt32BE(id, 1);
const protoHeader = Buffer.concat([header, Buffer.from([0])]);  // Message indexes [0].

const protobufValue = (event) => Buffer.concat([protoHeader, encodeOrderEvent(event)]);

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
  const value = format === 'avro' ? Buffer.concat([header, type.toBuffer(event)])
    : format === 'protobuf' ? protobufValue(event) : line;
  batch.push({ key: String(event.order_id), value });
  if (batch.length === 2000) {
    await producer.send({ topic, acks: -1, messages: batch });
    sent += batch.length;
    batch = [];
  }
}
if (batch.length) await producer.send({ topic, acks: -1, messages: batch });
sent += batch.length;
await producer.disconnect();
console.log(JSON.stringify({ events: sent, format, schema_id: id }));
