// Schema references through `floe stream`, with records nobody here encoded: Confluent's own
// JavaScript client (@confluentinc/schemaregistry, npm) registers against `floe registry`
//  - a Protobuf file (shop/payment.proto) that imports another (money.proto): its
//    ProtobufSerializer registers money.proto first under its own subject and the payment file
//    with a reference named "money.proto" to it, then frames the messages kafkajs produces (and
//    the same file registered as .proto text with that reference, which the client reads back
//    as the descriptor floe's registry writes for ?format=serialized);
//  - a JSON Schema whose `$ref` names a registered reference ("address.json"), validated by its
//    JsonSerializer with the reference loaded.
// The job resolves the references and turns the records into rows equal, field by field, to
// what the client's deserializers return (NULL and '' told apart); fresh reads decode the tail
// the same way. floe's registry refuses
// (42201) a Protobuf schema whose import no reference names, or whose reference is missing, and
// a JSON Schema whose `$ref` names no reference or whose references nest deeper than 32.
// Records whose schema cannot be resolved become dead letters with the reason and the job goes
// on: a referenced subject the registry no longer answers for (a registry in front that lost
// it), a cycle of references (through a reference to "latest", -1), and (served by a registry
// in front that holds them) a stray JSON Schema `$ref` and references nested deeper than 32. Then a routed job over three topics of the same Protobuf records: each table gets
// several small files, and the job's maintenance compacts every routed table (file counts
// drop to one) with its rows unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { create, createFileRegistry, createMutableRegistry } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, file_google_protobuf_timestamp } from '@bufbuild/protobuf/wkt';
import {
  SchemaRegistryClient, ProtobufSerializer, ProtobufDeserializer, JsonSerializer, JsonDeserializer, SerdeType, RestError,
} from '@confluentinc/schemaregistry';
import { serveFolder } from '../support/folder_server.mjs';
import { readTable } from '../support/sqlite_catalog_tables.mjs';
import { startBroker } from '../broker/broker_process.mjs';
import { startRegistry } from './registry_process.mjs';

const { Kafka, logLevel } = kafkajs;
const floe = process.env.FLOE_BIN;

const OPTIONAL = 1, REPEATED = 3;
const T = { INT64: 3, STRING: 9, MESSAGE: 11, ENUM: 14 };
const field = (name, number, type, extra = {}) => ({ name, number, type, label: OPTIONAL, jsonName: name, ...extra });

// money.proto: package money; enum Kind { KIND_UNSPECIFIED = 0; CASH = 1; CARD = 2; }
//   message Money { string currency = 1; int64 units = 2; }
const moneyFile = create(FileDescriptorProtoSchema, {
  name: 'money.proto',
  package: 'money',
  syntax: 'proto3',
  enumType: [{ name: 'Kind', value: [{ name: 'KIND_UNSPECIFIED', number: 0 }, { name: 'CASH', number: 1 },
    { name: 'CARD', number: 2 }] }],
  messageType: [{ name: 'Money', field: [field('currency', 1, T.STRING), field('units', 2, T.INT64)] }],
});
// shop/payment.proto: package shop; import "money.proto"; import "google/protobuf/timestamp.proto";
//   message Payment { int64 id = 1; money.Money amount = 2; repeated money.Money parts = 3;
//     money.Kind kind = 4; string note = 5; google.protobuf.Timestamp at = 6; }
const paymentFile = create(FileDescriptorProtoSchema, {
  name: 'shop/payment.proto',
  package: 'shop',
  syntax: 'proto3',
  dependency: ['money.proto', 'google/protobuf/timestamp.proto'],
  messageType: [{
    name: 'Payment',
    field: [
      field('id', 1, T.INT64), field('amount', 2, T.MESSAGE, { typeName: '.money.Money' }),
      field('parts', 3, T.MESSAGE, { label: REPEATED, typeName: '.money.Money' }),
      field('kind', 4, T.ENUM, { typeName: '.money.Kind' }), field('note', 5, T.STRING),
      field('at', 6, T.MESSAGE, { typeName: '.google.protobuf.Timestamp' }),
    ],
  }],
});
const files = createFileRegistry(paymentFile, (name) => ({
  'money.proto': moneyFile,
  'google/protobuf/timestamp.proto': file_google_protobuf_timestamp,
})[name]);
const Payment = files.getMessage('shop.Payment');
const Kind = files.getEnum('money.Kind');

function payment(i) {
  const p = {
    id: BigInt(i),
    kind: i % 3,
    note: i % 4 === 0 ? '' : `note ${i}`,
    parts: i % 5 === 0 ? [] : [{ currency: 'EUR', units: BigInt(i) }, { currency: '', units: BigInt(-i) }],
  };
  if (i % 6 !== 0) p.amount = { currency: i % 2 ? 'EUR' : 'USD', units: BigInt(i * 100) };
  if (i % 7 !== 0) p.at = { seconds: BigInt(1_700_000_000 + i), nanos: i * 1000 };
  return create(Payment, p);
}

async function rejectsWith(promise, status, errorCode, pattern) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RestError, `expected a RestError, got ${error}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.errorCode, errorCode, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

function sql(dir, query, freshness = 'snapshot') {
  const out = execFileSync(floe, ['sql', '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--freshness', freshness,
    '--format', 'json', '-e', query],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const text = out.trim();
  if (text.startsWith('[')) return JSON.parse(text);
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function streamArgs(dir, broker, registryUrl, ...extra) {
  return ['stream', '--brokers', broker.address, '--catalog', `sqlite:${join(dir, 'catalog.db')}`,
    '--warehouse', `file://${join(dir, 'wh')}`, '--registry', registryUrl, '--trigger', '200ms', ...extra];
}

function stream(dir, broker, registryUrl, ...extra) {
  return execFileSync(floe, [...streamArgs(dir, broker, registryUrl, ...extra), '--available-now'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// The same, without blocking this process: for a job whose registry this process serves.
async function streamAsync(dir, broker, registryUrl, ...extra) {
  const { stdout } = await promisify(execFile)(floe, [...streamArgs(dir, broker, registryUrl, ...extra), '--available-now'],
    { encoding: 'utf8' });
  return stdout;
}

async function produce(kafka, topic, values) {
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: values.map((value) => ({ value })) });
  await producer.disconnect();
}

// Magic byte 0, the schema id, then `rest` (message indexes and a message, or JSON text).
function frame(id, rest) {
  const header = Buffer.alloc(5);
  header.writeInt32BE(id, 1);
  return Buffer.concat([header, Buffer.from(rest)]);
}

// A registry in front of floe's that answers 40401 for one subject, as a registry does whose
// subject was deleted behind the back of the schemas referencing it.
async function registryWithout(upstream, subject) {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    if (req.url.startsWith(`/subjects/${encodeURIComponent(subject)}/`)) {
      res.writeHead(404, { 'content-type': 'application/vnd.schemaregistry.v1+json' });
      res.end(JSON.stringify({ error_code: 40401, message: `Subject '${subject}' not found.` }));
      return;
    }
    const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method,
      headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

// A registry in front of floe's that also answers the GETs of `extra` (path -> body) for schemas
// floe's registry refuses (a registry that holds them: one that does not check JSON Schema
// `$ref`s, or with a deeper reference limit), so the job meets them.
async function registryWithExtra(upstream, extra) {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const path = req.url.split('?')[0];
    if (req.method === 'GET' && extra.has(path)) {
      res.writeHead(200, { 'content-type': 'application/vnd.schemaregistry.v1+json' });
      res.end(JSON.stringify(extra.get(path)));
      return;
    }
    const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method,
      headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

// JSON text of rows that may hold BigInts.
const show = (value) => JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? String(v) : v));

// Rows of `table` (icebird, for the nested columns) next to the deserializer's messages.
function assertPaymentsEqual(rows, wanted) {
  assert.equal(rows.length, wanted.length);
  const byId = new Map(rows.map((row) => [BigInt(row.id), row]));
  for (const want of wanted) {
    const got = byId.get(want.id);
    const where = `payment ${want.id}: ${show(got)}`;
    assert.ok(got, where);
    assert.equal(got.note, want.note, where);  // proto3: '' stays '', never null.
    assert.equal(got.kind, Kind.values.find((v) => v.number === want.kind).name, where);
    if (want.amount === undefined) {
      assert.equal(got.amount ?? null, null, where);
    } else {
      assert.equal(got.amount.currency, want.amount.currency, where);
      assert.equal(BigInt(got.amount.units), want.amount.units, where);
    }
    assert.deepEqual([...got.parts].map((m) => [m.currency, BigInt(m.units)]),
      want.parts.map((m) => [m.currency, m.units]), where);
    if (want.at === undefined) {
      assert.equal(got.at ?? null, null, where);
    } else {
      const micros = got.at instanceof Date ? BigInt(got.at.getTime()) * 1000n : BigInt(got.at);
      // icebird reads timestamptz as a Date (milliseconds); the column holds microseconds.
      assert.equal(micros / 1000n, want.at.seconds * 1000n + BigInt(Math.floor(want.at.nanos / 1_000_000)), where);
    }
  }
}

test('Protobuf imports and JSON Schema $refs resolved from schema references; bad references are dead letters',
  { timeout: 240000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stream-references-'));
    const folder = await serveFolder(dir);
    const broker = await startBroker([], join(dir, 'broker'));
    const registry = await startRegistry(broker.address);
    let lossy = null;
    let extra = null;
    try {
      const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
      const kafka = new Kafka({ clientId: 'floe-stream-references-test', brokers: [broker.address], logLevel: logLevel.NOTHING });

      // Protobuf: the serializer registers money.proto, then the payment file referencing it.
      const serializer = new ProtobufSerializer(sr, SerdeType.VALUE,
        { autoRegisterSchemas: true, registry: createMutableRegistry(files.getFile('shop/payment.proto')) });
      const deserializer = new ProtobufDeserializer(sr, SerdeType.VALUE, {});
      const count = 30;
      const framed = [];
      for (let i = 1; i <= count; i++) framed.push(await serializer.serialize('payments', payment(i)));
      const latest = await sr.getLatestSchemaMetadata('payments-value');
      assert.deepEqual(latest.references, [{ name: 'money.proto', subject: 'money.proto', version: 1 }]);
      assert.equal((await sr.getLatestSchemaMetadata('money.proto')).schemaType, 'PROTOBUF');
      await produce(kafka, 'payments', framed);

      // floe's registry checks the imports against the references: an import no reference
      // names, and a reference to a subject it lacks, are invalid schemas (42201).
      const moneyText = 'syntax = "proto3"; package money; message Money { string currency = 1; int64 units = 2; }';
      await rejectsWith(sr.register('bad-value', { schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; import "tax.proto"; message T { int32 a = 1; }',
        references: [{ name: 'money.proto', subject: 'money.proto', version: 1 }] }), 422, 42201, /tax\.proto/);
      await rejectsWith(sr.register('bad-value', { schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; import "money.proto"; message T { money.Euro a = 1; }',
        references: [{ name: 'money.proto', subject: 'money.proto', version: 1 }] }), 422, 42201, /money\.Euro/);
      await rejectsWith(sr.register('bad-value', { schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; import "ghost.proto"; message T { int32 a = 1; }',
        references: [{ name: 'ghost.proto', subject: 'ghost.proto', version: 1 }] }), 422, 42201, /ghost\.proto/);

      // Bad references among the payments. (1) A referenced subject a registry no longer has:
      // the job below reads through a registry that answers 40401 for "ghost.proto".
      await sr.register('ghost.proto', { schemaType: 'PROTOBUF', schema: moneyText });
      const ghostId = await sr.register('ghosted-value', { schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; package g; import "ghost.proto"; message G { int64 id = 1; money.Money m = 2; }',
        references: [{ name: 'ghost.proto', subject: 'ghost.proto', version: 1 }] });
      // (2) A cycle: cyc-b.proto refers to the latest cyc-a.proto, whose version 2 refers to cyc-b.proto.
      await sr.register('cyc-a.proto', { schemaType: 'PROTOBUF', schema: 'syntax = "proto3"; package ca; message A { int64 id = 1; }' });
      await sr.register('cyc-b.proto', { schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; package cb; import "cyc-a.proto"; message B { ca.A a = 1; }',
        references: [{ name: 'cyc-a.proto', subject: 'cyc-a.proto', version: -1 }] });
      const cycleId = await sr.register('cyc-a.proto', { schemaType: 'PROTOBUF',
        // Another package: at registration the latest cyc-a.proto is version 1, which cyc-b imports.
        schema: 'syntax = "proto3"; package ca2; import "cyc-b.proto"; message A { int64 id = 1; cb.B b = 2; }',
        references: [{ name: 'cyc-b.proto', subject: 'cyc-b.proto', version: 1 }] });
      const idOne = Buffer.from([0, 0x08, 0x01]);  // Message indexes [0], then id = 1.
      await produce(kafka, 'payments', [frame(ghostId, idOne), frame(cycleId, idOne),
        await serializer.serialize('payments', payment(100))]);

      lossy = await registryWithout(registry.url, 'ghost.proto');
      await streamAsync(dir, broker, lossy.url, '--topic', 'payments', '--table', 'shop.payments', '--format', 'protobuf');
      const wanted = [];
      for (const f of framed) wanted.push(await deserializer.deserialize('payments', f));
      wanted.push(payment(100));
      assertPaymentsEqual(await readTable(join(dir, 'catalog.db'), folder, 'shop.payments'), wanted);
      const dead = sql(dir, 'SELECT "offset", error FROM shop.payments_dlq ORDER BY "offset"');
      assert.deepEqual(dead.map((r) => Number(r.offset)), [count, count + 1], JSON.stringify(dead));
      assert.match(dead[0].error, /reference to subject 'ghost\.proto' version 1 of schema id \d+ is unknown to the registry/,
        dead[0].error);
      assert.match(dead[1].error,
        /schema references form a cycle: subject 'cyc-b\.proto' version 1 -> subject 'cyc-a\.proto' version 2 -> subject 'cyc-b\.proto' version 1/,
        dead[1].error);

      // The payment file registered as .proto text with its reference, as Confluent's Java
      // serializer would: floe stream parses the text with money.proto's descriptor as its
      // import; the client asks for ?format=serialized and gets a descriptor whose dependency
      // it resolves by the reference's name.
      const paymentText = `syntax = "proto3";
package shop;
import "money.proto";
import "google/protobuf/timestamp.proto";
message Payment {
  int64 id = 1; money.Money amount = 2; repeated money.Money parts = 3; money.Kind kind = 4; string note = 5;
  google.protobuf.Timestamp at = 6;
}
`;
      const textId = await sr.register('textpayments-value', { schemaType: 'PROTOBUF', schema: paymentText,
        references: [{ name: 'money.proto', subject: 'money.proto', version: 1 }] });
      const textSerializer = new ProtobufSerializer(sr, SerdeType.VALUE,
        { useLatestVersion: true, registry: createMutableRegistry(files.getFile('shop/payment.proto')) });
      const textFramed = [];
      for (let i = 200; i < 206; i++) textFramed.push(await textSerializer.serialize('textpayments', payment(i)));
      assert.equal(textFramed[0].readInt32BE(1), textId);
      await produce(kafka, 'textpayments', textFramed);
      stream(dir, broker, registry.url, '--topic', 'textpayments', '--table', 'shop.textpayments', '--format', 'protobuf');
      const textWanted = [];
      for (const f of textFramed) textWanted.push(await deserializer.deserialize('textpayments', f));
      assertPaymentsEqual(await readTable(join(dir, 'catalog.db'), folder, 'shop.textpayments'), textWanted);
      // Fresh reads decode the tail past the snapshot with the same references resolved.
      await produce(kafka, 'textpayments', [await textSerializer.serialize('textpayments', payment(301))]);
      assert.deepEqual(sql(dir, 'SELECT CAST(id AS VARCHAR) AS id, note, kind FROM shop.textpayments WHERE id = 301', 'live'),
        [{ id: '301', note: 'note 301', kind: 'CASH' }]);

      // JSON Schema: customer.json's "address" is a $ref to the reference named address.json.
      const addressId = await sr.register('address.json', { schemaType: 'JSON', schema: JSON.stringify({
        type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] }) });
      assert.ok(addressId > 0);
      const customerId = await sr.register('customers-value', { schemaType: 'JSON', schema: JSON.stringify({
        type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, address: { $ref: 'address.json' } },
        required: ['id'] }), references: [{ name: 'address.json', subject: 'address.json', version: 1 }] });
      const jsonSerializer = new JsonSerializer(sr, SerdeType.VALUE, { useLatestVersion: true, validate: true });
      const jsonDeserializer = new JsonDeserializer(sr, SerdeType.VALUE, {});
      const customers = [{ id: 1, name: 'one', address: { city: 'Lyon', zip: '69001' } }, { id: 2, name: '' },
        { id: 3, address: { city: '' } }];
      const jsonFramed = [];
      for (const c of customers) jsonFramed.push(await jsonSerializer.serialize('customers', c));
      assert.equal(jsonFramed[0].readInt32BE(1), customerId);
      // The client's own validation follows the $ref: an address without its required city is refused.
      await assert.rejects(jsonSerializer.serialize('customers', { id: 4, address: { zip: '1' } }));

      // A $ref no reference names, and a chain of references 34 deep: floe's registry refuses
      // both (42201), so a registry in front serves them as one that accepted them would.
      const stray = { schemaType: 'JSON',
        schema: JSON.stringify({ type: 'object', properties: { address: { $ref: 'adress.json' } } }),
        references: [{ name: 'address.json', subject: 'address.json', version: 1 }] };
      await assert.rejects(sr.register('stray-value', stray), (e) => e.errorCode === 42201 && /adress\.json/.test(e.message));
      await sr.register('deep-0', { schemaType: 'JSON', schema: JSON.stringify({ type: 'object' }) });
      const deep = (k) => ({ schemaType: 'JSON', schema: JSON.stringify({ $ref: `deep-${k - 1}.json` }),
        references: [{ name: `deep-${k - 1}.json`, subject: `deep-${k - 1}`, version: 1 }] });
      for (let k = 1; k <= 32; k++) await sr.register(`deep-${k}`, deep(k));
      await assert.rejects(sr.register('deep-33', deep(33)),
        (e) => e.errorCode === 42201 && /nested deeper than 32/.test(e.message));
      const strayId = 9000;
      const deepId = 9001;
      extra = await registryWithExtra(registry.url, new Map([
        [`/schemas/ids/${strayId}`, stray],
        [`/schemas/ids/${deepId}`, deep(34)],
        ['/subjects/deep-33/versions/1', { subject: 'deep-33', version: 1, id: 9002, ...deep(33) }]]));
      await produce(kafka, 'customers', [...jsonFramed.slice(0, 2), frame(strayId, '{"id": 8}'),
        frame(deepId, '{"id": 9}'), jsonFramed[2]]);
      writeFileSync(join(dir, 'customers.json'), JSON.stringify({ type: 'struct', 'schema-id': 0, fields: [
        { id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 'name', required: false, type: 'string' },
        { id: 3, name: 'address', required: false, type: { type: 'struct', fields: [
          { id: 4, name: 'city', required: false, type: 'string' }, { id: 5, name: 'zip', required: false, type: 'string' }] } }] }));
      await streamAsync(dir, broker, extra.url, '--topic', 'customers', '--table', 'shop.customers', '--format', 'json-schema',
        '--schema', join(dir, 'customers.json'));
      const customerRows = (await readTable(join(dir, 'catalog.db'), folder, 'shop.customers'))
        .sort((a, b) => Number(a.id) - Number(b.id));
      assert.equal(customerRows.length, 3, show(customerRows));
      for (let k = 0; k < 3; k++) {
        const want = await jsonDeserializer.deserialize('customers', jsonFramed[k]);
        const got = customerRows[k];
        assert.deepEqual([Number(got.id), got.name ?? null, got.address == null ? null : [got.address.city ?? null, got.address.zip ?? null]],
          [want.id, want.name ?? null, want.address === undefined ? null : [want.address.city, want.address.zip ?? null]]);
      }
      const deadCustomers = sql(dir, 'SELECT "offset", error FROM shop.customers_dlq ORDER BY "offset"');
      assert.deepEqual(deadCustomers.map((r) => Number(r.offset)), [2, 3], JSON.stringify(deadCustomers));
      assert.match(deadCustomers[0].error,
        /"\$ref": "adress\.json" at \/properties\/address\/\$ref names no schema reference \(references: 'address\.json'\)/,
        deadCustomers[0].error);
      assert.match(deadCustomers[1].error, /schema references nested deeper than 32/, deadCustomers[1].error);
    } finally {
      if (lossy) await lossy.close();
      if (extra) await extra.close();
      await registry.stop();
      await broker.stop();
      await folder.close();
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });

test('a routed job compacts every table it writes; rows unchanged', { timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-stream-routed-compaction-'));
  const folder = await serveFolder(dir);
  const broker = await startBroker([], join(dir, 'broker'));
  const registry = await startRegistry(broker.address);
  let job = null;
  try {
    const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
    const serializer = new ProtobufSerializer(sr, SerdeType.VALUE,
      { autoRegisterSchemas: true, registry: createMutableRegistry(files.getFile('shop/payment.proto')) });
    const kafka = new Kafka({ clientId: 'floe-routed-compaction-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
    const topics = ['pay_eu', 'pay_us', 'pay_asia'];
    const sent = new Map(topics.map((t) => [t, []]));
    const rounds = 5;
    const route = ['--topics', 'pay_.*', '--table', 'routed', '--format', 'protobuf', '--maintenance-interval', '0'];
    // Each round drained by its own run: one small file per table per round.
    let next = 1;
    for (let round = 0; round < rounds; round++) {
      for (const topic of topics) {
        const batch = [];
        for (let k = 0; k < 4; k++) batch.push(payment(next++));
        sent.get(topic).push(...batch);
        await produce(kafka, topic, await Promise.all(batch.map((p) => serializer.serialize(topic, p))));
      }
      stream(dir, broker, registry.url, ...route);
    }
    const fileCount = (table) => Number(sql(dir, `SELECT count(*) AS n FROM routed."${table}$files"`)[0].n);
    for (const topic of topics) assert.equal(fileCount(topic), rounds, topic);

    // The same job with maintenance every second: one more round opens every table, and each
    // is compacted.
    for (const topic of topics) {
      const p = payment(next++);
      sent.get(topic).push(p);
      await produce(kafka, topic, [await serializer.serialize(topic, p)]);
    }
    const args = streamArgs(dir, broker, registry.url, ...route.slice(0, -1), '1s');
    job = spawn(floe, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    job.stderr.on('data', (d) => { stderr += d; });
    const deadline = Date.now() + 90000;
    let counts = [];
    while (Date.now() < deadline) {
      counts = topics.map((t) => { try { return fileCount(t); } catch { return -1; } });
      if (counts.every((n) => n === 1)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.deepEqual(counts, topics.map(() => 1), `file counts ${counts}; job log:\n${stderr.slice(-3000)}`);
    for (const topic of topics) {
      assertPaymentsEqual(await readTable(join(dir, 'catalog.db'), folder, `routed.${topic}`), sent.get(topic));
      const ops = sql(dir, `SELECT operation FROM routed."${topic}$snapshots" ORDER BY committed_at`).map((r) => r.operation);
      assert.ok(ops.includes('replace'), `${topic}: ${ops}`);
    }
  } finally {
    if (job && job.exitCode === null) {
      job.kill('SIGTERM');
      await new Promise((r) => job.once('exit', r));
    }
    await registry.stop();
    await broker.stop();
    await folder.close();
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  }
});
