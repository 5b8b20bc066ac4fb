// Confluent's own JavaScript Schema Registry client (@confluentinc/schemaregistry, npm) against
// `floe registry` kept on `floe broker`: register, fetch by id, compatibility (409 for an
// incompatible change), config, deletes, its Avro serializer's framing read back by its
// deserializer, and every id unchanged after kill -9 and a restart that replays `_schemas`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType, RestError,
} from '@confluentinc/schemaregistry';
import { startBroker } from '../broker/broker_process.mjs';
import { startRegistry } from './registry_process.mjs';

const orderV1 = {
  type: 'record', name: 'Order', namespace: 'shop',
  fields: [{ name: 'id', type: 'long' }, { name: 'customer', type: 'string' }, { name: 'amount', type: 'double' }],
};
// Adds a field with a default: readers of v2 read v1 data (BACKWARD).
const orderV2 = { ...orderV1, fields: [...orderV1.fields, { name: 'note', type: ['null', 'string'], default: null }] };
// Changes a field's type to one it does not promote from: incompatible.
const orderBroken = { ...orderV1, fields: [{ name: 'id', type: 'string' }, ...orderV1.fields.slice(1)] };

function client(url, userInfo) {
  return new SchemaRegistryClient({
    baseURLs: [url],
    maxRetries: 0,
    ...(userInfo ? { basicAuthCredentials: { credentialsSource: 'USER_INFO', userInfo } } : {}),
  });
}

async function rejectsWith(promise, status, errorCode) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RestError, `expected a RestError, got ${error}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.errorCode, errorCode, error.message);
    return true;
  });
}

test('Confluent schemaregistry client against floe registry, then kill -9 and replay', { timeout: 180000 }, async () => {
  let broker = await startBroker();
  let registry = await startRegistry(broker.address);
  try {
    let sr = client(registry.url);
    const v1 = await sr.register('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderV1) });
    assert.equal(typeof v1, 'number');
    // The same schema again (spaced differently) gets the same id.
    assert.equal(await client(registry.url).register('orders-value',
      { schemaType: 'AVRO', schema: JSON.stringify(orderV1, null, 2) }), v1);
    const v2 = await sr.register('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderV2) });
    assert.ok(v2 > v1);
    // Ids are global: the same schema under another subject keeps its id.
    const shared = await sr.register('payments-value', { schemaType: 'AVRO', schema: JSON.stringify(orderV1) });
    assert.equal(shared, v1);
    const other = await sr.register('customers-value', { schemaType: 'AVRO', schema: '"string"' });
    const jsonId = await sr.register('events-value',
      { schemaType: 'JSON', schema: JSON.stringify({ type: 'object', properties: { a: { type: 'integer' } } }) });

    assert.deepEqual((await sr.getAllSubjects()).sort(),
      ['customers-value', 'events-value', 'orders-value', 'payments-value']);
    assert.deepEqual(await sr.getAllVersions('orders-value'), [1, 2]);
    const latest = await sr.getLatestSchemaMetadata('orders-value');
    assert.equal(latest.id, v2);
    assert.equal(latest.version, 2);
    assert.deepEqual(JSON.parse(latest.schema).fields.map((f) => f.name), ['id', 'customer', 'amount', 'note']);
    const byId = await sr.getBySubjectAndId('orders-value', v1);
    assert.deepEqual(JSON.parse(byId.schema).fields.map((f) => f.name), ['id', 'customer', 'amount']);
    assert.equal((await sr.getBySubjectAndId('events-value', jsonId)).schemaType, 'JSON');
    assert.equal(await sr.getId('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderV2) }), v2);

    // Compatibility: BACKWARD by default; the broken change is refused with 409.
    assert.equal(await sr.getDefaultCompatibility(), 'BACKWARD');
    assert.equal(await sr.testCompatibility('orders-value', 'latest',
      { schemaType: 'AVRO', schema: JSON.stringify(orderBroken) }), false);
    assert.equal(await sr.testSubjectCompatibility('orders-value',
      { schemaType: 'AVRO', schema: JSON.stringify({ ...orderV2, fields: [...orderV2.fields,
        { name: 'extra', type: 'int', default: 0 }] }) }), true);
    await rejectsWith(sr.register('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderBroken) }), 409, 409);
    // Schemas that do not parse: 422 / 42201.
    await rejectsWith(sr.register('orders-value', { schemaType: 'AVRO', schema: '{"type":"record","name":"X"' }), 422, 42201);
    await rejectsWith(sr.register('orders-value',
      { schemaType: 'AVRO', schema: '{"type":"record","name":"X","fields":[{"name":"a","type":"nosuch"}]}' }), 422, 42201);
    await rejectsWith(sr.getBySubjectAndId('nobody', 9999), 404, 40403);
    await rejectsWith(sr.getLatestSchemaMetadata('nobody'), 404, 40401);
    await rejectsWith(sr.getSchemaMetadata('orders-value', 7), 404, 40402);

    // Config: the subject's level, and a change FULL refuses that BACKWARD allowed.
    assert.equal(await sr.updateCompatibility('customers-value', 'NONE'), 'NONE');
    assert.equal(await sr.getCompatibility('customers-value'), 'NONE');
    const customersV2 = await sr.register('customers-value', { schemaType: 'AVRO', schema: '"int"' });
    assert.ok(customersV2 > jsonId);
    await sr.updateConfig('payments-value', { compatibility: 'FULL' });
    assert.equal((await sr.getConfig('payments-value')).compatibilityLevel, 'FULL');
    const paymentsNoDefault = { ...orderV1, fields: [...orderV1.fields, { name: 'currency', type: 'string' }] };
    await rejectsWith(sr.register('payments-value', { schemaType: 'AVRO', schema: JSON.stringify(paymentsNoDefault) }),
      409, 409);

    // The Avro serializer frames magic byte 0 + the 4-byte id + the payload; the deserializer
    // reads it back with the schema it fetches from floe by that id.
    const serializer = new AvroSerializer(client(registry.url), SerdeType.VALUE, { useLatestVersion: true });
    const deserializer = new AvroDeserializer(client(registry.url), SerdeType.VALUE, {});
    const order = { id: 42, customer: 'ada', amount: 12.5, note: 'rush' };
    const framed = await serializer.serialize('orders', order);
    assert.equal(framed[0], 0);
    assert.equal(framed.readInt32BE(1), v2);
    const back = await deserializer.deserialize('orders', framed);
    assert.equal(back.id, 42);
    assert.equal(back.customer, 'ada');
    assert.equal(back.amount, 12.5);
    assert.equal(back.note, 'rush');
    const paymentsSerializer = new AvroSerializer(client(registry.url), SerdeType.VALUE, { useLatestVersion: true });
    const framedV1 = await paymentsSerializer.serialize('payments', { id: 7, customer: 'bo', amount: 1 });
    assert.equal(framedV1.readInt32BE(1), v1);  // payments-value holds orders' first schema, under its id.
    assert.equal((await deserializer.deserialize('payments', framedV1)).customer, 'bo');

    // Deletes: soft, then permanent; a permanent delete needs the soft one first.
    await rejectsWith(sr.deleteSubjectVersion('orders-value', 1, true), 404, 40407);
    assert.equal(await sr.deleteSubjectVersion('orders-value', 1), 1);
    assert.deepEqual(await sr.getAllVersions('orders-value'), [2]);
    await rejectsWith(sr.deleteSubject('customers-value', true), 404, 40405);
    assert.deepEqual(await sr.deleteSubject('customers-value'), [1, 2]);
    assert.ok(!(await sr.getAllSubjects()).includes('customers-value'));
    assert.deepEqual(await sr.deleteSubject('customers-value', true), [1, 2]);
    await rejectsWith(client(registry.url).getBySubjectAndId('customers-value', other), 404, 40403);

    // Raw HTTP: the types, the schema text alone, and Confluent's error bodies.
    const types = await (await fetch(`${registry.url}/schemas/types`)).json();
    assert.deepEqual(types.sort(), ['AVRO', 'JSON', 'PROTOBUF']);
    const raw = await fetch(`${registry.url}/schemas/ids/${v2}/schema`);
    assert.match(raw.headers.get('content-type'), /application\/vnd\.schemaregistry\.v1\+json/);
    const rawSchema = JSON.parse(await raw.text());
    assert.deepEqual([rawSchema.namespace, rawSchema.name], ['shop', 'Order']);
    const garbage = await fetch(`${registry.url}/subjects/x/versions`, {
      method: 'POST', headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' }, body: '{"schema": ',
    });
    assert.equal(garbage.status, 400);
    assert.equal((await garbage.json()).error_code, 400);
    const unknownType = await fetch(`${registry.url}/subjects/x/versions`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ schemaType: 'THRIFT', schema: 'struct X {}' }),
    });
    assert.equal(unknownType.status, 422);
    assert.equal((await unknownType.json()).error_code, 42201);
    const missing = await fetch(`${registry.url}/subjects/nobody/versions`);
    assert.deepEqual(await missing.json(), { error_code: 40401, message: "Subject 'nobody' not found." });
    const badVersion = await fetch(`${registry.url}/subjects/orders-value/versions/zero`);
    assert.equal((await badVersion.json()).error_code, 42202);
    const mode = await (await fetch(`${registry.url}/mode`)).json();
    assert.deepEqual(mode, { mode: 'READWRITE' });

    // kill -9, restart: the registry replays _schemas and every id is what it was.
    const before = {
      subjects: (await sr.getAllSubjects()).sort(),
      orders: await sr.getLatestSchemaMetadata('orders-value'),
      payments: await sr.getSchemaMetadata('payments-value', 1),
      events: await sr.getLatestSchemaMetadata('events-value'),
    };
    await registry.kill9();
    registry = await startRegistry(broker.address);
    sr = client(registry.url);
    assert.deepEqual((await sr.getAllSubjects()).sort(), before.subjects);
    assert.deepEqual(await sr.getLatestSchemaMetadata('orders-value'), before.orders);
    assert.deepEqual(await sr.getSchemaMetadata('payments-value', 1), before.payments);
    assert.deepEqual(await sr.getLatestSchemaMetadata('events-value'), before.events);
    assert.equal((await sr.getConfig('payments-value')).compatibilityLevel, 'FULL');
    assert.equal(await sr.register('orders-value', { schemaType: 'AVRO', schema: JSON.stringify(orderV2) }), v2);
    // The soft-deleted version 1 still reads by id; new ids continue past every id ever given.
    assert.equal(JSON.parse((await sr.getBySubjectAndId('orders-value', v1)).schema).name, 'Order');
    const next = await sr.register('fresh-value', { schemaType: 'AVRO', schema: '"bytes"' });
    assert.ok(next > customersV2, `id ${next} must be past ${customersV2}`);
    const again = await new AvroDeserializer(client(registry.url), SerdeType.VALUE, {}).deserialize('orders', framed);
    assert.equal(again.customer, 'ada');

    // kill -9 of the broker and the registry together: what the broker acknowledged (acks=all)
    // is on disk, so a new broker on the same data and a new registry answer the same ids.
    await registry.kill9();
    await broker.kill9();
    broker = await startBroker([], broker.dir);
    registry = await startRegistry(broker.address);
    sr = client(registry.url);
    assert.deepEqual(await sr.getLatestSchemaMetadata('orders-value'), before.orders);
    assert.deepEqual(await sr.getSchemaMetadata('payments-value', 1), before.payments);
    assert.equal((await sr.getLatestSchemaMetadata('fresh-value')).id, next);
  } finally {
    await registry.stop();
    await broker.stop();
  }
});

test('registry auth: basic auth users with roles; non-loopback without auth is refused', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-registry-auth-'));
  const authFile = join(dir, 'users.toml');
  for (const [name, role] of [['rita', 'reader'], ['wes', 'writer'], ['ada', 'admin']]) {
    execFileSync(process.env.FLOE_BIN, ['user', 'add', name, '--role', role, '--auth-file', authFile],
      { input: `${name}-pw\n`, stdio: ['pipe', 'ignore', 'ignore'] });
  }
  const broker = await startBroker();
  const registry = await startRegistry(broker.address, ['--auth-file', authFile]);
  try {
    const schema = { schemaType: 'AVRO', schema: '"string"' };
    await rejectsWith(client(registry.url).getAllSubjects(), 401, 401);
    await rejectsWith(client(registry.url, 'wes:wrong').getAllSubjects(), 401, 401);
    await rejectsWith(client(registry.url, 'rita:rita-pw').register('s', schema), 403, 403);
    const id = await client(registry.url, 'wes:wes-pw').register('s', schema);
    assert.equal((await client(registry.url, 'rita:rita-pw').getBySubjectAndId('s', id)).schema, '"string"');
    await rejectsWith(client(registry.url, 'wes:wes-pw').deleteSubject('s'), 403, 403);
    await rejectsWith(client(registry.url, 'wes:wes-pw').updateCompatibility('s', 'NONE'), 403, 403);
    assert.deepEqual(await client(registry.url, 'ada:ada-pw').deleteSubject('s'), [1]);

    // Beyond loopback without --auth-file: refused unless --insecure-bind.
    assert.throws(() => execFileSync(process.env.FLOE_BIN, ['registry', '--listen', '0.0.0.0:0', '--brokers',
      broker.address], { stdio: 'pipe', timeout: 20000 }), (error) => error.status === 2);
  } finally {
    await registry.stop();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
