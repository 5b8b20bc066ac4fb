// `floe stream --format avro` against records nobody here encoded: Confluent's own JavaScript
// client (@confluentinc/schemaregistry, npm) registers an Avro schema with `floe registry` and
// its AvroSerializer frames the records (magic byte 0, schema id, datum) that kafkajs produces
// to `floe broker`. The job creates the table from the writer's schema and drains the topic;
// every row read back with `floe sql` equals, field by field, what the client's own
// AvroDeserializer returns for the same record: every logical type the job maps, nulls, and ''
// told apart from NULL. Records the job cannot decode (an unknown schema id, a truncated datum,
// magic byte 1) land in the dead-letter table with reasons that say what went wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType } from '@confluentinc/schemaregistry';
import { serveFolder } from '../support/folder_server.mjs';
import { readTable } from '../support/sqlite_catalog_tables.mjs';
import { startBroker } from '../broker/broker_process.mjs';
import { startRegistry } from './registry_process.mjs';

const { Kafka, logLevel } = kafkajs;
const floe = process.env.FLOE_BIN;

const orderSchema = {
  type: 'record', name: 'Order', namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'customer', type: ['null', 'string'], default: null },
    { name: 'note', type: 'string' },
    { name: 'qty', type: 'int' },
    { name: 'ratio', type: 'float' },
    { name: 'amount', type: 'double' },
    { name: 'paid', type: 'boolean' },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'placed_ms', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'shipped_us', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
    { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
    { name: 'discount', type: ['null', { type: 'fixed', name: 'Discount', size: 4, logicalType: 'decimal',
                                          precision: 6, scale: 3 }], default: null },
    { name: 'order_uuid', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID', 'SHIPPED'] } },
    { name: 'payload', type: ['null', 'bytes'], default: null },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'counts', type: { type: 'map', values: 'long' } },
    { name: 'address', type: ['null', { type: 'record', name: 'Address', fields: [
      { name: 'city', type: 'string' }, { name: 'zip', type: ['null', 'string'], default: null }] }], default: null },
  ],
};

// Big-endian two's complement of `unscaled` in `size` bytes (or as few as it needs).
function decimalBytes(unscaled, size = null) {
  let v = BigInt(unscaled);
  const bytes = [];
  do {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (!(v === 0n && (bytes[0] & 0x80) === 0) && !(v === -1n && (bytes[0] & 0x80) !== 0));
  while (size !== null && bytes.length < size) bytes.unshift(BigInt.asIntN(64, BigInt(unscaled)) < 0n ? 0xff : 0);
  return Buffer.from(bytes);
}

function unscaledOf(buffer) {
  let v = 0n;
  for (const b of buffer) v = (v << 8n) | BigInt(b);
  if (buffer.length > 0 && (buffer[0] & 0x80)) v -= 1n << BigInt(8 * buffer.length);
  return v;
}

function decimalText(buffer, scale) {
  const v = unscaledOf(buffer);
  const negative = v < 0n;
  let digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  return (negative ? '-' : '') + digits.slice(0, digits.length - scale) + '.' + digits.slice(digits.length - scale);
}

function order(i) {
  return {
    id: 1000 + i,
    customer: i % 4 === 0 ? null : (i % 4 === 1 ? '' : `customer-${i} ünïcode`),
    note: i % 3 === 0 ? '' : `note ${i}`,
    qty: i % 2 ? -i : i * 1000,
    ratio: i / 4,
    amount: i * 1.25 - 7,
    paid: i % 2 === 0,
    day: 19000 + i - 20000 * (i === 5 ? 1 : 0),  // One day before 1970.
    placed_ms: 1_700_000_000_000 + i * 1001,
    shipped_us: i % 5 === 0 ? null : 1_700_000_000_000_000 + i * 7,
    price: decimalBytes(i % 7 === 3 ? -(i * 12345) : i * 12345),
    discount: i % 6 === 0 ? null : decimalBytes(i * 37 - 100, 4),
    order_uuid: `${String(i).padStart(8, '0')}-e89b-12d3-a456-4266141740${String(i).padStart(2, '0')}`,
    status: ['NEW', 'PAID', 'SHIPPED'][i % 3],
    payload: i % 4 === 2 ? null : Buffer.from(i === 3 ? [] : [i, 0, 255, 10]),
    tags: i % 5 === 1 ? [] : [`t${i}`, '', `x${i % 2}`],
    counts: i % 3 === 1 ? {} : { a: i, b: -i },
    address: i % 7 === 0 ? null : { city: `city-${i}`, zip: i % 2 ? null : '' },
  };
}

// Microseconds since the epoch of floe sql's timestamptz text, "2023-11-14 22:13:20.000007 UTC".
function micros(text) {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))? UTC$/.exec(text);
  assert.ok(m, `timestamp text ${text}`);
  return BigInt(Date.parse(`${m[1]}T${m[2]}Z`)) * 1000n + BigInt((m[3] ?? '').padEnd(6, '0'));
}

// A map as icebird returns it (an object, or a Map, or key/value pairs) as a plain object of numbers.
function plainMap(value) {
  const entries = value instanceof Map ? [...value.entries()]
    : Array.isArray(value) ? value.map((e) => [e.key, e.value]) : Object.entries(value ?? {});
  return Object.fromEntries(entries.map(([k, v]) => [k, Number(v)]));
}

function sql(dir, query, freshness = 'snapshot') {
  const out = execFileSync(floe, ['sql', '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--freshness', freshness,
    '--format', 'json', '-e', query], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const text = out.trim();
  if (text.startsWith('[')) return JSON.parse(text);
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

test('Avro records framed by Confluent\'s serializer become rows equal to its deserializer\'s', { timeout: 180000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stream-avro-'));
    const folder = await serveFolder(dir);
    const broker = await startBroker([], join(dir, 'broker'));
    const registry = await startRegistry(broker.address);
    try {
      const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
      const id = await sr.register('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderSchema) });
      const serializer = new AvroSerializer(sr, SerdeType.VALUE, { useLatestVersion: true });
      const deserializer = new AvroDeserializer(sr, SerdeType.VALUE, {});
      const count = 24;
      const framed = [];
      for (let i = 0; i < count; i++) framed.push(await serializer.serialize('orders', order(i)));
      assert.equal(framed[0][0], 0);
      assert.equal(framed[0].readInt32BE(1), id);

      // Bad records among the good: an unknown schema id, a datum cut short, magic byte 1.
      const unknownId = Buffer.from(framed[1]);
      unknownId.writeInt32BE(id + 1000, 1);
      const truncated = framed[2].subarray(0, framed[2].length - 9);
      const magicOne = Buffer.from(framed[3]);
      magicOne[0] = 1;
      const bad = [unknownId, truncated, magicOne];

      const kafka = new Kafka({ clientId: 'floe-stream-avro-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'orders', acks: -1, messages: framed.slice(0, 12).map((value, i) => ({ key: `k${i}`, value })) });
      await producer.send({ topic: 'orders', acks: -1, messages: bad.map((value) => ({ value })) });
      await producer.send({ topic: 'orders', acks: -1, messages: framed.slice(12).map((value, i) => ({ key: `k${i + 12}`, value })) });
      await producer.disconnect();

      execFileSync(floe, ['stream', '--brokers', broker.address, '--topic', 'orders', '--table', 'shop.orders',
        '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
        '--format', 'avro', '--registry', registry.url, '--available-now', '--trigger', '200ms'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

      const rows = sql(dir, `SELECT id, customer, note, qty, ratio, amount, paid, CAST(day AS VARCHAR) AS day,
        placed_ms, shipped_us, CAST(price AS VARCHAR) AS price, CAST(discount AS VARCHAR) AS discount,
        CAST(order_uuid AS VARCHAR) AS order_uuid, status, payload, address IS NULL AS no_address
        FROM shop.orders ORDER BY id`);
      assert.equal(rows.length, count, JSON.stringify(rows[0]));
      const nestedById = new Map((await readTable(join(dir, 'catalog.db'), folder, 'shop.orders'))
        .map((row) => [Number(row.id), row]));
      assert.equal(nestedById.size, count);
      const epochDay = (d) => new Date(d * 86400000).toISOString().slice(0, 10);
      for (let i = 0; i < count; i++) {
        const want = await deserializer.deserialize('orders', framed[i]);
        const got = rows[i];
        const where = `record ${i}: ${JSON.stringify(got)}`;
        assert.equal(Number(got.id), want.id, where);
        assert.equal(got.customer, want.customer, where);  // '' stays '', null stays null.
        assert.equal(got.note, want.note, where);
        assert.equal(Number(got.qty), want.qty, where);
        assert.equal(Number(got.ratio), want.ratio, where);
        assert.equal(Number(got.amount), want.amount, where);
        assert.equal(got.paid, want.paid, where);
        assert.equal(got.day, epochDay(want.day), where);
        assert.equal(micros(got.placed_ms), BigInt(want.placed_ms) * 1000n, where);
        assert.equal(got.shipped_us === null ? null : micros(got.shipped_us),
          want.shipped_us === null ? null : BigInt(want.shipped_us), where);
        assert.equal(got.price, decimalText(want.price, 2), where);
        assert.equal(got.discount, want.discount === null ? null : decimalText(want.discount, 3), where);
        assert.equal(got.order_uuid, want.order_uuid, where);
        assert.equal(got.status, want.status, where);
        // floe sql writes binary as hex.
        assert.equal(got.payload, want.payload === null ? null : want.payload.toString('hex'), where);
        // Lists, maps and structs, which floe sql cannot read yet, read by icebird.
        const nested = nestedById.get(want.id);
        assert.ok(nested, where);
        assert.deepEqual(nested.tags, want.tags, where);
        assert.deepEqual(plainMap(nested.counts), want.counts, where);
        // icebird reads a null struct as {}: its nullness comes from floe sql.
        assert.equal(got.no_address, want.address === null, where);
        if (want.address !== null) assert.deepEqual({ ...nested.address }, { ...want.address }, where);
      }

      const dead = sql(dir, 'SELECT "offset", error FROM shop.orders_dlq ORDER BY "offset"');
      assert.deepEqual(dead.map((r) => Number(r.offset)), [12, 13, 14], JSON.stringify(dead));
      assert.match(dead[0].error, new RegExp(`schema id ${id + 1000}.*unknown`), dead[0].error);
      assert.match(dead[1].error, /truncated|left/, dead[1].error);
      assert.match(dead[1].error, /column '[\w.]+' at byte \d+/, dead[1].error);
      assert.match(dead[2].error, /magic byte 1/, dead[2].error);

      // Fresh reads decode the topic's tail past the snapshot the same way: Avro through the
      // registry the job recorded in the table's properties.
      const late = [];
      for (let i = count; i < count + 3; i++) late.push(await serializer.serialize('orders', order(i)));
      const lateProducer = kafka.producer();
      await lateProducer.connect();
      await lateProducer.send({ topic: 'orders', acks: -1, messages: late.map((value) => ({ value })) });
      await lateProducer.disconnect();
      assert.equal(sql(dir, 'SELECT count(*) AS n FROM shop.orders')[0].n, count);
      const live = sql(dir, `SELECT id, customer, note, CAST(price AS VARCHAR) AS price, placed_ms FROM shop.orders
        WHERE id >= ${1000 + count} ORDER BY id`, 'live');
      assert.equal(live.length, 3, JSON.stringify(live));
      for (let k = 0; k < 3; k++) {
        const want = await deserializer.deserialize('orders', late[k]);
        assert.equal(Number(live[k].id), want.id);
        assert.equal(live[k].customer, want.customer);
        assert.equal(live[k].note, want.note);
        assert.equal(live[k].price, decimalText(want.price, 2));
        assert.equal(micros(live[k].placed_ms), BigInt(want.placed_ms) * 1000n);
      }
    } finally {
      await registry.stop();
      await broker.stop();
      await folder.close();
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });

test('--format auto mixes JSON and Avro records; --with-kafka-columns; --evolve adds a new writer field',
  { timeout: 180000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stream-auto-'));
    const broker = await startBroker([], join(dir, 'broker'));
    const registry = await startRegistry(broker.address);
    try {
      execFileSync(floe, ['topic', 'create', 'events', '--partitions', '1', '--brokers', broker.address]);
      const v1 = { type: 'record', name: 'Event', fields: [{ name: 'id', type: 'long' },
        { name: 'name', type: ['null', 'string'], default: null }] };
      const v2 = { ...v1, fields: [...v1.fields, { name: 'coupon', type: ['null', 'string'], default: null }] };
      const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
      await sr.register('events-value', { schemaType: 'AVRO', schema: JSON.stringify(v1) });
      const serializer = new AvroSerializer(sr, SerdeType.VALUE, { useLatestVersion: true });
      const kafka = new Kafka({ clientId: 'floe-stream-auto-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
      const producer = kafka.producer();
      await producer.connect();
      const t0 = 1_700_000_000_000;
      await producer.send({ topic: 'events', acks: -1, messages: [
        { key: 'k1', value: await serializer.serialize('events', { id: 1, name: 'avro one' }), timestamp: String(t0 + 1) },
        { key: Buffer.from([0, 255]), value: await serializer.serialize('events', { id: 2, name: null }), timestamp: String(t0 + 2) },
        { value: JSON.stringify({ id: 3, name: 'json three' }), timestamp: String(t0 + 3) },
      ] });
      const stream = (table, ...extra) => execFileSync(floe, ['stream', '--brokers', broker.address, '--topic', 'events',
        '--table', table, '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
        '--format', 'auto', '--registry', registry.url, '--available-now', '--trigger', '200ms', ...extra],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      stream('shop.events', '--with-kafka-columns', '--evolve');

      // A new compatible writer schema with a new field: --evolve adds the column.
      await sr.register('events-value', { schemaType: 'AVRO', schema: JSON.stringify(v2) });
      // A fresh client: the first one keeps the latest version it saw.
      const serializer2 = new AvroSerializer(new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 }),
        SerdeType.VALUE, { useLatestVersion: true });
      await producer.send({ topic: 'events', acks: -1, messages: [
        { key: 'k4', value: await serializer2.serialize('events', { id: 4, name: 'avro four', coupon: 'SAVE10' }), timestamp: String(t0 + 4) },
        { key: 'k5', value: await serializer2.serialize('events', { id: 5, name: '', coupon: null }), timestamp: String(t0 + 5) },
      ] });
      await producer.disconnect();
      stream('shop.events', '--with-kafka-columns', '--evolve');
      // The same records without --evolve: the new field is ignored, as with JSON.
      stream('shop.events_fixed');

      const rows = sql(dir, `SELECT id, name, coupon, _kafka_topic, _partition, _offset, _timestamp, _key
        FROM shop.events ORDER BY id`);
      assert.deepEqual(rows.map((r) => [Number(r.id), r.name, r.coupon]),
        [[1, 'avro one', null], [2, null, null], [3, 'json three', null], [4, 'avro four', 'SAVE10'], [5, '', null]]);
      for (const [i, r] of rows.entries()) {
        assert.equal(r._kafka_topic, 'events');
        assert.equal(Number(r._partition), 0);
        assert.equal(Number(r._offset), i);
        assert.equal(micros(r._timestamp), BigInt(t0 + i + 1) * 1000n);
      }
      // Keys as produced, in bytes (floe sql prints binary as hex); a null key is null.
      assert.deepEqual(rows.map((r) => r._key), ['6b31', '00ff', null, '6b34', '6b35']);
      const fixed = sql(dir, 'SELECT * FROM shop.events_fixed ORDER BY id');
      assert.deepEqual(fixed.map((r) => Object.keys(r).sort()), Array(5).fill(['id', 'name']));
      assert.equal(sql(dir, 'SELECT count(*) AS n FROM shop.events_dlq')[0].n, 0);

      // Fresh reads fill the metadata columns of the tail's rows too.
      const late = kafka.producer();
      await late.connect();
      await late.send({ topic: 'events', acks: -1, messages: [
        { key: 'k6', value: await serializer2.serialize('events', { id: 6, name: 'late', coupon: 'X' }), timestamp: String(t0 + 6) }] });
      await late.disconnect();
      const live = sql(dir, `SELECT id, coupon, _kafka_topic, _partition, _offset, _timestamp, _key FROM shop.events
        WHERE id = 6`, 'live');
      assert.equal(live.length, 1, JSON.stringify(live));
      assert.deepEqual([Number(live[0].id), live[0].coupon, live[0]._kafka_topic, Number(live[0]._partition),
        Number(live[0]._offset), micros(live[0]._timestamp), live[0]._key], [6, 'X', 'events', 0, 5, BigInt(t0 + 6) * 1000n, '6b36']);
      assert.equal(sql(dir, 'SELECT count(*) AS n FROM shop.events WHERE id = 6')[0].n, 0);
    } finally {
      await registry.stop();
      await broker.stop();
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });

// Schema references (Confluent's): the writer's schema names types other subjects define. The
// client registers Currency, then Money referencing it, then Payment referencing both; its
// serializer frames Payment records, and the job resolves the references (theirs first) to make
// the table and decode each record into the rows the client's deserializer returns.
test('Avro schemas with references: the job resolves them to make the table and decode', { timeout: 120000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stream-avro-refs-'));
    const folder = await serveFolder(dir);
    const broker = await startBroker([], join(dir, 'broker'));
    const registry = await startRegistry(broker.address);
    try {
      const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
      const currency = { type: 'enum', name: 'Currency', namespace: 'money', symbols: ['EUR', 'USD', 'JPY'] };
      const money = { type: 'record', name: 'Money', namespace: 'money',
        fields: [{ name: 'units', type: 'long' }, { name: 'currency', type: 'Currency' }] };
      const payment = { type: 'record', name: 'Payment', namespace: 'shop', fields: [
        { name: 'id', type: 'long' },
        { name: 'amount', type: 'money.Money' },
        { name: 'tip', type: ['null', 'money.Money'], default: null }] };
      await sr.register('currency', { schemaType: 'AVRO', schema: JSON.stringify(currency) });
      await sr.register('money', { schemaType: 'AVRO', schema: JSON.stringify(money),
        references: [{ name: 'money.Currency', subject: 'currency', version: 1 }] });
      const id = await sr.register('payments-value', { schemaType: 'AVRO', schema: JSON.stringify(payment),
        // Currency is listed too, and first: the client parses the references in list order
        // (each before the next) and would not find Currency inside Money otherwise. For floe
        // Currency is then reached twice (directly and through Money) and defined once.
        references: [{ name: 'money.Currency', subject: 'currency', version: 1 },
          { name: 'money.Money', subject: 'money', version: 1 }] });
      const serializer = new AvroSerializer(sr, SerdeType.VALUE, { useLatestVersion: true });
      const deserializer = new AvroDeserializer(sr, SerdeType.VALUE, {});
      const count = 9;
      const framed = [];
      for (let i = 0; i < count; i++) {
        framed.push(await serializer.serialize('payments', {
          id: i,
          amount: { units: 100 * i + 1, currency: currency.symbols[i % 3] },
          tip: i % 2 ? { units: i, currency: 'EUR' } : null,
        }));
      }
      assert.equal(framed[0].readInt32BE(1), id);
      // The registry checks a schema with references against the types they define: a Payment
      // whose amount is no longer a Money is refused under BACKWARD (409), a type no reference
      // defines is an invalid schema (42201).
      const breaking = { ...payment, fields: [{ name: 'id', type: 'long' }, { name: 'amount', type: 'string' }] };
      await assert.rejects(sr.register('payments-value', { schemaType: 'AVRO', schema: JSON.stringify(breaking),
        references: [{ name: 'money.Money', subject: 'money', version: 1 }] }),
      (e) => e.status === 409 && /incompatible/.test(e.message));
      const dangling = { ...payment, fields: [{ name: 'id', type: 'long' }, { name: 'amount', type: 'money.Nope' }] };
      await assert.rejects(sr.register('payments-value', { schemaType: 'AVRO', schema: JSON.stringify(dangling),
        references: [{ name: 'money.Money', subject: 'money', version: 1 }] }),
      (e) => e.errorCode === 42201 && /unknown type 'money.Nope'/.test(e.message));
      const kafka = new Kafka({ clientId: 'floe-stream-avro-refs', brokers: [broker.address], logLevel: logLevel.NOTHING });
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'payments', acks: -1, messages: framed.map((value) => ({ value })) });
      await producer.disconnect();

      execFileSync(floe, ['stream', '--brokers', broker.address, '--topic', 'payments', '--table', 'shop.payments',
        '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
        '--format', 'avro', '--registry', registry.url, '--available-now', '--trigger', '200ms'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

      assert.equal(Number(sql(dir, 'SELECT count(*) AS n FROM shop.payments_dlq')[0].n), 0);
      const nulls = sql(dir, 'SELECT id, tip IS NULL AS no_tip FROM shop.payments ORDER BY id');
      const nested = new Map((await readTable(join(dir, 'catalog.db'), folder, 'shop.payments'))
        .map((row) => [Number(row.id), row]));
      assert.equal(nulls.length, count);
      assert.equal(nested.size, count);
      for (let i = 0; i < count; i++) {
        const want = await deserializer.deserialize('payments', framed[i]);
        const got = nested.get(i);
        const where = `record ${i}: ${JSON.stringify(got, (k, v) => typeof v === 'bigint' ? String(v) : v)}`;
        assert.equal(Number(got.amount.units), want.amount.units, where);
        assert.equal(got.amount.currency, want.amount.currency, where);
        assert.equal(nulls[i].no_tip, want.tip === null, where);
        if (want.tip !== null) {
          assert.equal(Number(got.tip.units), want.tip.units, where);
          assert.equal(got.tip.currency, want.tip.currency, where);
        }
      }
    } finally {
      await registry.stop();
      await broker.stop();
      await folder.close();
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });
