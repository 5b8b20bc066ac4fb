// `floe stream --format protobuf|json-schema|auto` against records nobody here encoded:
// Confluent's own JavaScript client (@confluentinc/schemaregistry, npm) registers a Protobuf
// schema (its ProtobufSerializer registers the file as a serialized FileDescriptorProto built
// by @bufbuild/protobuf) and a JSON Schema with `floe registry`; its serializers frame the
// records (magic byte 0, schema id, message indexes, message / JSON text) that kafkajs produces
// to `floe broker`. The job creates the Protobuf table from the writer's schema and drains the
// topic; every row read back (`floe sql`, and icebird for lists, maps and structs) equals,
// field by field, what the client's own deserializer returns for the same record: proto3
// zero values, `optional` and wrapper presence, enums by name, Timestamp, oneof, repeated,
// map and nested messages; --evolve adds a next version's new field. The client's compatibility test and registration of a next version
// as .proto text pass for a compatible change and get 409 for a field whose wire type changes.
// A schema registered as .proto text is read by the job from its text and by the client from
// the descriptor floe's registry writes for ?format=serialized. Records the job cannot decode (an unknown schema id, a truncated
// message, magic byte 1) land in the dead-letter table with reasons that say what went wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { clone, create, createFileRegistry, createMutableRegistry } from '@bufbuild/protobuf';
import {
  FieldDescriptorProtoSchema, FileDescriptorProtoSchema, file_google_protobuf_timestamp, file_google_protobuf_wrappers,
} from '@bufbuild/protobuf/wkt';
import {
  SchemaRegistryClient, ProtobufSerializer, ProtobufDeserializer, JsonSerializer, JsonDeserializer, SerdeType, RestError,
} from '@confluentinc/schemaregistry';
import { serveFolder } from '../support/folder_server.mjs';
import { readTable } from '../support/sqlite_catalog_tables.mjs';
import { startBroker } from '../broker/broker_process.mjs';
import { startRegistry } from './registry_process.mjs';

const { Kafka, logLevel } = kafkajs;
const floe = process.env.FLOE_BIN;

// descriptor.proto's numbers: labels and types of FieldDescriptorProto.
const OPTIONAL = 1, REPEATED = 3;
const T = { DOUBLE: 1, FLOAT: 2, INT64: 3, INT32: 5, FIXED64: 6, BOOL: 8, STRING: 9, MESSAGE: 11, BYTES: 12,
  UINT32: 13, ENUM: 14, SINT64: 18 };
const field = (name, number, type, extra = {}) => ({ name, number, type, label: OPTIONAL, jsonName: name, ...extra });

// shop/order.proto, proto3:
//   enum Status { STATUS_UNSPECIFIED = 0; NEW = 1; PAID = 2; SHIPPED = 3; }
//   message Order {
//     message Address { string city = 1; optional string zip = 2; }
//     int64 id = 1; string customer = 2; optional string note = 3; int32 qty = 4; sint64 delta = 5;
//     uint32 units = 6; float ratio = 7; double amount = 8; bool paid = 9; Status status = 10;
//     bytes payload = 11; google.protobuf.Timestamp placed = 12; google.protobuf.StringValue coupon = 13;
//     google.protobuf.Int64Value discount = 14; repeated string tags = 15; repeated int64 counts_list = 16;
//     map<string, int64> counts = 17; Address address = 18;
//     oneof payment { string card = 19; int64 voucher = 20; } fixed64 big = 21; }
const orderFile = create(FileDescriptorProtoSchema, {
  name: 'shop/order.proto',
  package: 'shop',
  syntax: 'proto3',
  dependency: ['google/protobuf/timestamp.proto', 'google/protobuf/wrappers.proto'],
  enumType: [{ name: 'Status', value: [{ name: 'STATUS_UNSPECIFIED', number: 0 }, { name: 'NEW', number: 1 },
    { name: 'PAID', number: 2 }, { name: 'SHIPPED', number: 3 }] }],
  messageType: [{
    name: 'Order',
    field: [
      field('id', 1, T.INT64), field('customer', 2, T.STRING),
      field('note', 3, T.STRING, { oneofIndex: 1, proto3Optional: true }),
      field('qty', 4, T.INT32), field('delta', 5, T.SINT64), field('units', 6, T.UINT32), field('ratio', 7, T.FLOAT),
      field('amount', 8, T.DOUBLE), field('paid', 9, T.BOOL), field('status', 10, T.ENUM, { typeName: '.shop.Status' }),
      field('payload', 11, T.BYTES), field('placed', 12, T.MESSAGE, { typeName: '.google.protobuf.Timestamp' }),
      field('coupon', 13, T.MESSAGE, { typeName: '.google.protobuf.StringValue' }),
      field('discount', 14, T.MESSAGE, { typeName: '.google.protobuf.Int64Value' }),
      field('tags', 15, T.STRING, { label: REPEATED }), field('counts_list', 16, T.INT64, { label: REPEATED }),
      field('counts', 17, T.MESSAGE, { label: REPEATED, typeName: '.shop.Order.CountsEntry' }),
      field('address', 18, T.MESSAGE, { typeName: '.shop.Order.Address' }),
      field('card', 19, T.STRING, { oneofIndex: 0 }), field('voucher', 20, T.INT64, { oneofIndex: 0 }),
      field('big', 21, T.FIXED64),
    ],
    nestedType: [
      { name: 'Address', field: [field('city', 1, T.STRING), field('zip', 2, T.STRING, { oneofIndex: 0, proto3Optional: true })],
        oneofDecl: [{ name: '_zip' }] },
      { name: 'CountsEntry', field: [field('key', 1, T.STRING), field('value', 2, T.INT64)], options: { mapEntry: true } },
    ],
    oneofDecl: [{ name: 'payment' }, { name: '_note' }],
  }],
});
const wellKnown = (name) => ({
  'google/protobuf/timestamp.proto': file_google_protobuf_timestamp,
  'google/protobuf/wrappers.proto': file_google_protobuf_wrappers,
})[name];
const files = createFileRegistry(orderFile, wellKnown);
const Order = files.getMessage('shop.Order');
const Status = files.getEnum('shop.Status');

function order(i) {
  const o = {
    id: BigInt(1000 + i),
    customer: i % 4 === 0 ? '' : `customer-${i} ünïcode`,
    qty: i % 2 ? -i : i * 1000,
    delta: BigInt(i % 3 === 0 ? -i * 1_000_000_007 : i),
    units: 4_000_000_000 - i,
    ratio: i / 4,
    amount: i * 1.25 - 7,
    paid: i % 2 === 0,
    status: i % 4,
    payload: new Uint8Array(i === 3 ? [] : [i, 0, 255, 10]),
    tags: i % 5 === 1 ? [] : [`t${i}`, '', `x${i % 2}`],
    countsList: i % 3 === 1 ? [] : [BigInt(i), BigInt(-i), 0n],
    counts: i % 3 === 1 ? {} : { a: BigInt(i), b: BigInt(-i) },
    big: i === 7 ? 18_000_000_000_000_000_000n - 1n - 9_000_000_000_000_000_000n : BigInt(i) * 1_000_000_000_000n,
  };
  if (i % 3 !== 0) o.note = i % 3 === 1 ? '' : `note ${i}`;
  if (i % 5 !== 0) o.placed = { seconds: BigInt(1_700_000_000 + i), nanos: i * 1001 };
  if (i % 4 !== 2) o.coupon = i % 4 === 1 ? '' : `SAVE${i}`;
  if (i % 6 !== 0) o.discount = BigInt(i * 25);
  if (i % 7 !== 0) o.address = { city: `city-${i}`, ...(i % 2 ? {} : { zip: '' }) };
  if (i % 3 === 1) o.payment = { case: 'card', value: `visa-${i}` };
  if (i % 3 === 2) o.payment = { case: 'voucher', value: BigInt(i) };
  return create(Order, o);
}

// Microseconds since the epoch of floe sql's timestamptz text, "2023-11-14 22:13:20.000007 UTC".
function micros(text) {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))? UTC$/.exec(text);
  assert.ok(m, `timestamp text ${text}`);
  return BigInt(Date.parse(`${m[1]}T${m[2]}Z`)) * 1000n + BigInt((m[3] ?? '').padEnd(6, '0'));
}

async function rejectsWith(promise, status, errorCode) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RestError, `expected a RestError, got ${error}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.errorCode, errorCode, error.message);
    return true;
  });
}

// The next version of shop/order.proto as .proto text: compatible (a field renamed, `qty`
// widened to int64, a field added), and broken (`id` from int64 to double).
const orderV2Text = `syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
enum Status { STATUS_UNSPECIFIED = 0; NEW = 1; PAID = 2; SHIPPED = 3; }
message Order {
  message Address { string city = 1; optional string zip = 2; }
  int64 id = 1; string customer_name = 2; optional string note = 3; int64 qty = 4; sint64 delta = 5;
  uint32 units = 6; float ratio = 7; double amount = 8; bool paid = 9; Status status = 10; bytes payload = 11;
  google.protobuf.Timestamp placed = 12; google.protobuf.StringValue coupon = 13;
  google.protobuf.Int64Value discount = 14; repeated string tags = 15; repeated int64 counts_list = 16;
  map<string, int64> counts = 17; Address address = 18;
  oneof payment { string card = 19; int64 voucher = 20; }
  fixed64 big = 21; string channel = 22;
}
`;
const orderBrokenText = orderV2Text.replace('int64 id = 1;', 'double id = 1;');
// shop/order.proto itself as .proto text, as Confluent's Java serializer would register it.
const orderV1Text = orderV2Text.replace('string customer_name = 2;', 'string customer = 2;')
  .replace('int64 qty = 4;', 'int32 qty = 4;').replace(' string channel = 22;', '');

function plainMap(value) {
  const entries = value instanceof Map ? [...value.entries()]
    : Array.isArray(value) ? value.map((e) => [e.key, e.value]) : Object.entries(value ?? {});
  return Object.fromEntries(entries.map(([k, v]) => [k, BigInt(v)]));
}

function sql(dir, query, freshness = 'snapshot') {
  const out = execFileSync(floe, ['sql', '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--freshness', freshness,
    '--format', 'json', '-e', query], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const text = out.trim();
  if (text.startsWith('[')) return JSON.parse(text);
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function stream(dir, broker, registry, topic, table, format, ...extra) {
  return execFileSync(floe, ['stream', '--brokers', broker.address, '--topic', topic, '--table', table,
    '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
    '--format', format, '--registry', registry.url, '--available-now', '--trigger', '200ms', ...extra],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function produce(kafka, topic, values) {
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: values.map((value) => ({ value })) });
  await producer.disconnect();
}

test('Protobuf and JSON Schema records framed by Confluent\'s serializers become rows equal to its deserializers\'',
  { timeout: 180000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stream-protobuf-'));
    const folder = await serveFolder(dir);
    const broker = await startBroker([], join(dir, 'broker'));
    const registry = await startRegistry(broker.address);
    try {
      const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
      const serializer = new ProtobufSerializer(sr, SerdeType.VALUE,
        { autoRegisterSchemas: true, registry: createMutableRegistry(files.getFile('shop/order.proto')) });
      const deserializer = new ProtobufDeserializer(sr, SerdeType.VALUE, {});
      const count = 24;
      const framed = [];
      for (let i = 0; i < count; i++) framed.push(await serializer.serialize('orders', order(i)));
      const id = framed[0].readInt32BE(1);
      assert.equal(framed[0][0], 0);
      assert.equal(framed[0][5], 0, 'message indexes [0] as the single byte 0');
      assert.equal((await sr.getLatestSchemaMetadata('orders-value')).schemaType, 'PROTOBUF');

      // Bad records among the good: an unknown schema id, a message cut short, magic byte 1.
      const unknownId = Buffer.from(framed[1]);
      unknownId.writeInt32BE(id + 1000, 1);
      const truncated = framed[2].subarray(0, framed[2].length - 3);
      const magicOne = Buffer.from(framed[3]);
      magicOne[0] = 1;
      const kafka = new Kafka({ clientId: 'floe-stream-protobuf-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
      await produce(kafka, 'orders', framed.slice(0, 12));
      await produce(kafka, 'orders', [unknownId, truncated, magicOne]);
      await produce(kafka, 'orders', framed.slice(12));

      // No --schema: the table is made from the writer's schema of the first record.
      stream(dir, broker, registry, 'orders', 'shop.orders', 'protobuf');

      const rows = sql(dir, `SELECT CAST(id AS VARCHAR) AS id, customer, note, qty, CAST(delta AS VARCHAR) AS delta,
        units, ratio, amount, paid, status, payload, placed, coupon, CAST(discount AS VARCHAR) AS discount,
        card, CAST(voucher AS VARCHAR) AS voucher, CAST(big AS VARCHAR) AS big, address IS NULL AS no_address
        FROM shop.orders ORDER BY id`);
      assert.equal(rows.length, count, JSON.stringify(rows[0]));
      const nestedById = new Map((await readTable(join(dir, 'catalog.db'), folder, 'shop.orders'))
        .map((row) => [BigInt(row.id), row]));
      const text = (v) => (v === undefined || v === null ? null : String(v));
      for (let i = 0; i < count; i++) {
        const want = await deserializer.deserialize('orders', framed[i]);
        const got = rows[i];
        const where = `record ${i}: ${JSON.stringify(got)}`;
        assert.equal(got.id, String(want.id), where);
        assert.equal(got.customer, want.customer, where);  // proto3 zero value: ''.
        assert.equal(got.note, want.note ?? null, where);  // optional: unset is null, '' is ''.
        assert.equal(Number(got.qty), want.qty, where);
        assert.equal(got.delta, String(want.delta), where);
        assert.equal(Number(got.units), want.units, where);
        assert.equal(Number(got.ratio), want.ratio, where);
        assert.equal(Number(got.amount), want.amount, where);
        assert.equal(got.paid, want.paid, where);
        assert.equal(got.status, Status.values.find((v) => v.number === want.status).name, where);
        assert.equal(got.payload, Buffer.from(want.payload).toString('hex'), where);
        assert.equal(got.placed === null ? null : micros(got.placed),
          want.placed === undefined ? null : want.placed.seconds * 1_000_000n + BigInt(Math.floor(want.placed.nanos / 1000)), where);
        assert.equal(got.coupon, want.coupon ?? null, where);  // Wrappers: unset is null.
        assert.equal(got.discount, text(want.discount), where);
        assert.equal(got.card, want.payment.case === 'card' ? want.payment.value : null, where);
        assert.equal(got.voucher, want.payment.case === 'voucher' ? String(want.payment.value) : null, where);
        assert.equal(got.big, String(want.big), where);
        const nested = nestedById.get(want.id);
        assert.ok(nested, where);
        assert.deepEqual([...nested.tags], want.tags, where);
        assert.deepEqual([...nested.counts_list].map(BigInt), want.countsList, where);
        assert.deepEqual(plainMap(nested.counts), want.counts, where);
        assert.equal(got.no_address, want.address === undefined, where);
        if (want.address !== undefined) {
          assert.equal(nested.address.city, want.address.city, where);
          assert.equal(nested.address.zip ?? null, want.address.zip ?? null, where);
        }
      }
      const dead = sql(dir, 'SELECT "offset", error FROM shop.orders_dlq ORDER BY "offset"');
      assert.deepEqual(dead.map((r) => Number(r.offset)), [12, 13, 14], JSON.stringify(dead));
      assert.match(dead[0].error, new RegExp(`schema id ${id + 1000}.*unknown`), dead[0].error);
      assert.match(dead[1].error, /protobuf message shop\.Order of schema id \d+ .*(truncated|length \d+ at byte \d+)/, dead[1].error);
      assert.match(dead[2].error, /magic byte 1/, dead[2].error);

      // Compatibility (BACKWARD): the .proto text of a compatible next version is accepted
      // beside the registered descriptor; a field number whose wire type changes is refused with 409.
      assert.equal(await sr.testCompatibility('orders-value', 'latest', { schemaType: 'PROTOBUF', schema: orderV2Text }), true);
      assert.equal(await sr.testCompatibility('orders-value', 'latest', { schemaType: 'PROTOBUF', schema: orderBrokenText }),
        false);
      await rejectsWith(sr.register('orders-value', { schemaType: 'PROTOBUF', schema: orderBrokenText }), 409, 409);
      await rejectsWith(sr.register('orders-value', { schemaType: 'PROTOBUF', schema: 'syntax = "proto3"; message {' }),
        422, 42201);
      const v2Id = await sr.register('orders-value', { schemaType: 'PROTOBUF', schema: orderV2Text });
      assert.notEqual(v2Id, id);

      // --evolve: a record of the next version (its descriptor registered by the serializer) adds
      // the new field's column; without --evolve it would be skipped.
      const orderFileV2 = clone(FileDescriptorProtoSchema, orderFile);
      orderFileV2.messageType[0].field.push(create(FieldDescriptorProtoSchema, field('channel', 22, T.STRING)));
      const filesV2 = createFileRegistry(orderFileV2, wellKnown);
      const serializerV2 = new ProtobufSerializer(new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 }),
        SerdeType.VALUE, { autoRegisterSchemas: true, registry: createMutableRegistry(filesV2.getFile('shop/order.proto')) });
      const evolved = await serializerV2.serialize('orders',
        create(filesV2.getMessage('shop.Order'), { id: 2000n, customer: 'v2', channel: 'web' }));
      await produce(kafka, 'orders', [evolved]);
      stream(dir, broker, registry, 'orders', 'shop.orders', 'protobuf', '--evolve');
      assert.deepEqual(sql(dir, 'SELECT CAST(id AS VARCHAR) AS id, customer, channel FROM shop.orders WHERE id >= 2000'),
        [{ id: '2000', customer: 'v2', channel: 'web' }]);
      assert.equal(sql(dir, 'SELECT count(*) AS n FROM shop.orders WHERE channel IS NULL')[0].n, count);

      // The schema registered as .proto text: floe stream parses the text; Confluent's client
      // asks for ?format=serialized, and reads the descriptor floe's registry writes for it.
      const textId = await sr.register('textorders-value', { schemaType: 'PROTOBUF', schema: orderV1Text });
      const textSerializer = new ProtobufSerializer(sr, SerdeType.VALUE,
        { useLatestVersion: true, registry: createMutableRegistry(files.getFile('shop/order.proto')) });
      const textFramed = [];
      for (let i = 40; i < 44; i++) textFramed.push(await textSerializer.serialize('textorders', order(i)));
      assert.equal(textFramed[0].readInt32BE(1), textId);
      await produce(kafka, 'textorders', textFramed);
      stream(dir, broker, registry, 'textorders', 'shop.textorders', 'protobuf');
      const textRows = sql(dir, `SELECT CAST(id AS VARCHAR) AS id, customer, note, status, coupon, card, placed
        FROM shop.textorders ORDER BY id`);
      assert.equal(textRows.length, textFramed.length);
      for (let k = 0; k < textFramed.length; k++) {
        const want = await deserializer.deserialize('textorders', textFramed[k]);
        const got = textRows[k];
        assert.deepEqual([got.id, got.customer, got.note, got.status, got.coupon, got.card],
          [String(want.id), want.customer, want.note ?? null, Status.values.find((v) => v.number === want.status).name,
            want.coupon ?? null, want.payment.case === 'card' ? want.payment.value : null], JSON.stringify(got));
        assert.equal(got.placed === null ? null : micros(got.placed),
          want.placed === undefined ? null : want.placed.seconds * 1_000_000n + BigInt(Math.floor(want.placed.nanos / 1000)));
      }

      // JSON Schema: registered, validated and framed by the client's JsonSerializer; the table's
      // columns are given (tables are made from Avro and Protobuf schemas only).
      const eventSchema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' },
        score: { type: 'number' } }, required: ['id'] };
      const jsonId = await sr.register('events-value', { schemaType: 'JSON', schema: JSON.stringify(eventSchema) });
      const jsonSerializer = new JsonSerializer(sr, SerdeType.VALUE, { useLatestVersion: true, validate: true });
      const jsonDeserializer = new JsonDeserializer(sr, SerdeType.VALUE, {});
      const events = [{ id: 1, name: 'one', score: 1.5 }, { id: 2, name: '' }, { id: 3, score: -2 }];
      const jsonFramed = [];
      for (const e of events) jsonFramed.push(await jsonSerializer.serialize('events', e));
      assert.equal(jsonFramed[0].readInt32BE(1), jsonId);
      const wrongType = Buffer.from(jsonFramed[0]);
      wrongType.writeInt32BE(id, 1);  // The Protobuf schema's id on a JSON record.
      await produce(kafka, 'events', [...jsonFramed, wrongType, Buffer.from('{"id": 9}')]);
      writeFileSync(join(dir, 'events.json'), JSON.stringify({ type: 'struct', 'schema-id': 0, fields: [
        { id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 'name', required: false, type: 'string' },
        { id: 3, name: 'score', required: false, type: 'double' }] }));
      stream(dir, broker, registry, 'events', 'shop.events', 'json-schema', '--schema', join(dir, 'events.json'));
      const eventRows = sql(dir, 'SELECT id, name, score FROM shop.events ORDER BY id');
      assert.equal(eventRows.length, 3, JSON.stringify(eventRows));
      for (let k = 0; k < 3; k++) {
        const want = await jsonDeserializer.deserialize('events', jsonFramed[k]);
        assert.deepEqual([Number(eventRows[k].id), eventRows[k].name, eventRows[k].score === null ? null : Number(eventRows[k].score)],
          [want.id, want.name ?? null, want.score ?? null]);
      }
      const deadEvents = sql(dir, 'SELECT "offset", error FROM shop.events_dlq ORDER BY "offset"');
      assert.deepEqual(deadEvents.map((r) => Number(r.offset)), [3, 4], JSON.stringify(deadEvents));
      assert.match(deadEvents[0].error, new RegExp(`schema id ${id} is PROTOBUF, not JSON`), deadEvents[0].error);
      assert.match(deadEvents[1].error, /magic byte 123/, deadEvents[1].error);

      // auto: Protobuf, JSON Schema and plain JSON records in one topic, each by its kind.
      const mixed = [framed[5], Buffer.from(JSON.stringify({ id: 2001, customer: 'plain json' })),
        await jsonSerializer.serialize('events', { id: 2002, name: 'json schema' }), framed[6]];
      await produce(kafka, 'mixed', mixed);
      stream(dir, broker, registry, 'mixed', 'shop.mixed', 'auto', '--schema', join(dir, 'events.json'));
      const mixedRows = sql(dir, 'SELECT id, name FROM shop.mixed ORDER BY id');
      assert.deepEqual(mixedRows.map((r) => [Number(r.id), r.name]),
        [[1005, null], [1006, null], [2001, null], [2002, 'json schema']]);
      assert.equal(sql(dir, 'SELECT count(*) AS n FROM shop.mixed_dlq')[0].n, 0);

      // Fresh reads decode the Protobuf tail past the snapshot the same way.
      await produce(kafka, 'orders', [await serializer.serialize('orders', order(30))]);
      const live = sql(dir, `SELECT CAST(id AS VARCHAR) AS id, customer, status, coupon FROM shop.orders
        WHERE id = 1030`, 'live');
      assert.deepEqual(live, [{ id: '1030', customer: 'customer-30 ünïcode', status: 'PAID', coupon: null }]);
    } finally {
      await registry.stop();
      await broker.stop();
      await folder.close();
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });
