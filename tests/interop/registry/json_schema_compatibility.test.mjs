// JSON Schema in floe's registry, driven by Confluent's own JavaScript client
// (@confluentinc/schemaregistry, npm): schemas registered and checked for compatibility under
// BACKWARD, FORWARD and FULL (compatible changes accepted; incompatible ones refused with 409
// on registration and answered `is_compatible: false`, with `?verbose=true` messages naming the
// JSON pointer of the change), a change inside a referenced document found through its `$ref`,
// and schemas that are invalid (not JSON, a keyword of the wrong shape, a `$ref` that resolves
// nowhere) refused with 42201.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaRegistryClient, RestError } from '@confluentinc/schemaregistry';
import { startBroker } from '../broker/broker_process.mjs';
import { startRegistry } from './registry_process.mjs';

const json = (schema, references) => ({ schemaType: 'JSON', schema: JSON.stringify(schema), ...(references ? { references } : {}) });

async function rejectsWith(promise, status, errorCode, pattern) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RestError, `expected a RestError, got ${error}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.errorCode, errorCode, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

// The verbose answer of the compatibility route (the client returns only the boolean).
async function verbose(url, subject, schemaInfo) {
  const answer = await fetch(`${url}/compatibility/subjects/${subject}/versions/latest?verbose=true`, {
    method: 'POST', headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' }, body: JSON.stringify(schemaInfo),
  });
  assert.equal(answer.status, 200);
  return answer.json();
}

const user = (properties, extra = {}) => ({
  type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, ...properties },
  required: ['id'], additionalProperties: false, ...extra,
});

test('JSON Schema compatibility and validation through Confluent\'s client', { timeout: 120000 }, async () => {
  const broker = await startBroker();
  const registry = await startRegistry(broker.address);
  try {
    const sr = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });

    // BACKWARD (the default): the new schema must accept every document the latest accepts.
    const v1 = await sr.register('users-value', json(user({})));
    // A closed model: a new optional property cannot be in old data.
    const v2 = await sr.register('users-value', json(user({ email: { type: 'string' } })));
    assert.ok(v2 > v1);
    assert.equal(await sr.testCompatibility('users-value', 'latest',
      json(user({ email: { type: 'string' } }, { properties: { id: { type: 'number' }, name: { type: 'string' },
        email: { type: 'string' } } }))), true, 'integer -> number widens');
    const narrowed = json(user({ id: { type: 'string' }, email: { type: 'string' } }));
    assert.equal(await sr.testCompatibility('users-value', 'latest', narrowed), false);
    await rejectsWith(sr.register('users-value', narrowed), 409, 409, /#\/properties\/id\/type/);
    const report = await verbose(registry.url, 'users-value', narrowed);
    assert.equal(report.is_compatible, false);
    assert.deepEqual(report.messages, ["new schema cannot read data written with (existing schema 2 of 2, BACKWARD): " +
      "#/properties/id/type: the writer's type 'integer' is not among the reader's ['string']"]);
    // A new required property without a default, and a property removed from the closed model.
    await rejectsWith(sr.register('users-value', json(user({ email: { type: 'string' }, age: { type: 'integer' } },
      { required: ['id', 'age'] }))), 409, 409, /#\/required: the reader requires 'age'/);
    // (v1 itself would answer its id: a schema already under the subject is not checked again.)
    await rejectsWith(sr.register('users-value', json({ ...user({}), properties: { id: { type: 'integer' } } })), 409, 409,
      /#\/properties\/name: the reader's closed content model rejects property 'name'/);
    assert.equal(await sr.register('users-value', json(user({}))), v1);
    assert.deepEqual(await sr.getAllVersions('users-value'), [1, 2]);

    // FORWARD: the latest must accept every document the new schema accepts.
    assert.equal(await sr.updateCompatibility('events-value', 'FORWARD'), 'FORWARD');
    const event = (kinds, extra = {}) => ({ type: 'object', properties: { kind: { enum: kinds }, ...extra } });
    await sr.register('events-value', json(event(['a', 'b'])));
    // An open model takes a new property; an enum may lose values.
    assert.equal(await sr.testCompatibility('events-value', 'latest',
      json(event(['a', 'b'], { at: { type: 'string' } }))), true);
    await sr.register('events-value', json(event(['a'])));
    const added = json(event(['a', 'c']));
    assert.equal(await sr.testCompatibility('events-value', 'latest', added), false);
    await rejectsWith(sr.register('events-value', added), 409, 409, /#\/properties\/kind\/enum: the writer's value \\"c\\" is not among the reader's/);

    // FULL: both ways. Annotations change freely; a property added to a closed model breaks
    // old readers; a oneOf member added breaks them too.
    await sr.updateConfig('orders-value', { compatibility: 'FULL' });
    const order = (extra = {}, amount = { type: 'number' }) => ({ type: 'object', title: 'Order',
      properties: { id: { type: 'integer' }, amount }, additionalProperties: false, ...extra });
    await sr.register('orders-value', json(order()));
    await sr.register('orders-value', json(order({ title: 'An order', description: 'what was bought' })));
    assert.equal(await sr.testCompatibility('orders-value', 'latest',
      json(order({ properties: { id: { type: 'integer' }, amount: { type: 'number' }, note: { type: 'string' } } }))), false);
    const withNote = json(order({ properties: { id: { type: 'integer' }, amount: { type: 'number' }, note: { type: 'string' } } }));
    const fullReport = await verbose(registry.url, 'orders-value', withNote);
    assert.equal(fullReport.is_compatible, false);
    assert.equal(fullReport.messages.length, 1, JSON.stringify(fullReport.messages));
    assert.match(fullReport.messages[0], /^data written with the new schema cannot be read by \(existing schema 2 of 2, FULL\): #\/properties\/note: the reader's closed content model rejects property 'note'/);
    await rejectsWith(sr.register('orders-value', withNote), 409, 409);
    await rejectsWith(sr.register('orders-value', json(order({}, { oneOf: [{ type: 'number' }, { type: 'string' }] }))),
      409, 409, /#\/properties\/amount/);
    // BACKWARD would take that oneOf: it reads more.
    await sr.updateCompatibility('orders-value', 'BACKWARD');
    assert.equal(await sr.testCompatibility('orders-value', 'latest',
      json(order({}, { oneOf: [{ type: 'number' }, { type: 'string' }] }))), true);

    // References: a $ref into a referenced document; one that resolves nowhere is 42201.
    await sr.updateCompatibility('address', 'NONE');
    const address = (zip) => ({ type: 'object', properties: { city: { type: 'string' }, zip },
      definitions: { Zip: zip }, additionalProperties: false });
    await sr.register('address', json(address({ type: 'integer' })));
    const customer = { type: 'object', properties: { id: { type: 'integer' }, address: { $ref: 'address.json' },
      zip: { $ref: 'address.json#/definitions/Zip' } }, additionalProperties: false };
    const ref = (version) => [{ name: 'address.json', subject: 'address', version }];
    await sr.register('customers-value', json(customer, ref(1)));
    await rejectsWith(sr.register('customers-value', json({ ...customer, properties: { a: { $ref: 'adress.json' } } }, ref(1))),
      422, 42201, /"adress\.json" at \/properties\/a\/\$ref names no schema reference \(references: 'address\.json'\)/);
    await rejectsWith(sr.register('customers-value', json({ $ref: 'address.json#/definitions/Nope' }, ref(1))),
      422, 42201, /has nothing at #\/definitions\/Nope/);
    await rejectsWith(sr.register('customers-value', json({ $ref: '#/definitions/Local' })), 422, 42201);
    // The same customer over a new address whose zip became a string: found through both $refs.
    await sr.register('address', json(address({ type: 'string' })));
    assert.equal(await sr.testCompatibility('customers-value', 'latest', json(customer, ref(2))), false);
    const refReport = await verbose(registry.url, 'customers-value', json(customer, ref(2)));
    assert.deepEqual(refReport.messages.map((m) => m.replace(/^.*BACKWARD\): /, '')), [
      "#/properties/address/properties/zip/type: the writer's type 'integer' is not among the reader's ['string']",
      "#/properties/zip/type: the writer's type 'integer' is not among the reader's ['string']",
    ]);
    await rejectsWith(sr.register('customers-value', json(customer, ref(2))), 409, 409);

    // Invalid schemas: not JSON, not an object or boolean, a keyword of the wrong shape.
    await rejectsWith(sr.register('bad-value', { schemaType: 'JSON', schema: '{"type":"object"' }), 422, 42201);
    await rejectsWith(sr.register('bad-value', { schemaType: 'JSON', schema: '[1]' }), 422, 42201);
    await rejectsWith(sr.register('bad-value', json({ type: 'object', properties: { a: { type: 'text' } } })), 422, 42201,
      /#\/properties\/a\/type: "text" is not a JSON Schema type/);
    await rejectsWith(sr.register('bad-value', json({ type: 'string', maxLength: -1 })), 422, 42201, /maxLength/);
    await rejectsWith(sr.getLatestSchemaMetadata('bad-value'), 404, 40401);
  } finally {
    await registry.stop();
    await broker.stop();
  }
});
