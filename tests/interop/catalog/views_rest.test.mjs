// Iceberg views through `floe catalog` with plain fetch: iceberg-js has no view API and npm has
// no spec-driven client for them, so each request and response body below is written from the
// REST OpenAPI spec (open-api/rest-catalog-open-api.yaml: CreateViewRequest, LoadViewResult,
// CommitViewRequest, RenameTableRequest, ErrorModel) and the view spec (format/view-spec.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCatalogServer } from '../support/catalog_server.mjs';

let dir;
let server;
let baseUrl;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-catalog-views-'));
  server = await startCatalogServer(dir);
  baseUrl = server.url;
});

after(() => {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method, path, body) {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

function assertError(result, status, type) {
  assert.equal(result.status, status, JSON.stringify(result.body));
  assert.equal(result.body.error.code, status);
  assert.equal(result.body.error.type, type);
  assert.ok(result.body.error.message.length > 0);
}

const schema = {
  type: 'struct', 'schema-id': 0,
  fields: [{ id: 1, name: 'region', type: 'string', required: false },
    { id: 2, name: 'total', type: 'decimal(12, 2)', required: false }],
};

function version(sql, extra = {}) {
  return {
    'version-id': 1, 'timestamp-ms': Date.now(), 'schema-id': 0,
    summary: { 'engine-name': 'node-fetch' },
    representations: [{ type: 'sql', sql, dialect: 'trino' }],
    'default-namespace': ['shop'], ...extra,
  };
}

test('config lists the view endpoints', async () => {
  const config = await call('GET', '/config');
  assert.equal(config.status, 200);
  for (const endpoint of ['GET /v1/{prefix}/namespaces/{namespace}/views',
    'POST /v1/{prefix}/namespaces/{namespace}/views',
    'GET /v1/{prefix}/namespaces/{namespace}/views/{view}',
    'HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}',
    'POST /v1/{prefix}/namespaces/{namespace}/views/{view}',
    'DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}',
    'POST /v1/{prefix}/views/rename']) {
    assert.ok(config.body.endpoints.includes(endpoint), endpoint);
  }
});

test('a view is created, listed, loaded, replaced, renamed and dropped', async () => {
  assert.equal((await call('POST', '/namespaces', { namespace: ['shop'], properties: {} })).status, 200);
  const sql = 'SELECT region, sum(amount) AS total FROM orders GROUP BY region';
  const created = await call('POST', '/namespaces/shop/views', {
    name: 'revenue', schema, 'view-version': version(sql, { 'x-kept': { by: 'floe' } }),
    properties: { comment: 'revenue per region' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const metadata = created.body.metadata;
  assert.equal(metadata['format-version'], 1);
  assert.match(metadata['view-uuid'], /^[0-9a-f-]{36}$/);
  assert.equal(metadata.location, `file://${join(dir, 'warehouse')}/shop/revenue`);
  assert.equal(metadata['current-version-id'], 1);
  assert.equal(metadata.versions[0].representations[0].sql, sql);
  assert.deepEqual(metadata.versions[0]['x-kept'], { by: 'floe' });
  assert.equal(metadata['version-log'].length, 1);
  assert.equal(metadata.properties.comment, 'revenue per region');
  assert.match(created.body['metadata-location'], /\/shop\/revenue\/metadata\/00000-[0-9a-f-]{36}\.metadata\.json$/);
  const file = fileURLToPath(created.body['metadata-location']);
  assert.ok(existsSync(file));
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), metadata);

  assert.deepEqual((await call('GET', '/namespaces/shop/views')).body.identifiers,
    [{ namespace: ['shop'], name: 'revenue' }]);
  assert.deepEqual((await call('GET', '/namespaces/shop/tables')).body.identifiers, []);
  assert.equal((await call('HEAD', '/namespaces/shop/views/revenue')).status, 204);
  assert.deepEqual((await call('GET', '/namespaces/shop/views/revenue')).body.metadata, metadata);

  // CREATE OR REPLACE, as a commit: a new schema and version made current, guarded by the uuid.
  const replacement = 'SELECT region, count(*) AS orders FROM orders GROUP BY region';
  const replaced = await call('POST', '/namespaces/shop/views/revenue', {
    identifier: { namespace: ['shop'], name: 'revenue' },
    requirements: [{ type: 'assert-view-uuid', uuid: metadata['view-uuid'] }],
    updates: [
      { action: 'add-schema', schema: { type: 'struct', 'schema-id': 1, fields: [
        { id: 1, name: 'region', type: 'string', required: false },
        { id: 2, name: 'orders', type: 'long', required: false }] } },
      { action: 'add-view-version', 'view-version': { ...version(replacement), 'version-id': 2, 'schema-id': -1 } },
      { action: 'set-current-view-version', 'view-version-id': -1 },
    ],
  });
  assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
  assert.equal(replaced.body.metadata['current-version-id'], 2);
  assert.equal(replaced.body.metadata.versions.length, 2);
  assert.equal(replaced.body.metadata.versions[1]['schema-id'], 1);
  assert.equal(replaced.body.metadata['version-log'].length, 2);
  assert.match(replaced.body['metadata-location'], /\/metadata\/00001-/);

  assertError(await call('POST', '/namespaces/shop/views/revenue', {
    requirements: [{ type: 'assert-view-uuid', uuid: '00000000-0000-0000-0000-000000000000' }], updates: [],
  }), 409, 'CommitFailedException');

  assert.equal((await call('POST', '/namespaces', { namespace: ['archive'] })).status, 200);
  const renamed = await call('POST', '/views/rename', {
    source: { namespace: ['shop'], name: 'revenue' }, destination: { namespace: ['archive'], name: 'revenue_2024' },
  });
  assert.equal(renamed.status, 204);
  assert.equal((await call('HEAD', '/namespaces/shop/views/revenue')).status, 404);
  assert.equal((await call('GET', '/namespaces/archive/views/revenue_2024')).body['metadata-location'],
    replaced.body['metadata-location']);
  assert.equal((await call('DELETE', '/namespaces/archive/views/revenue_2024')).status, 204);
  assertError(await call('GET', '/namespaces/archive/views/revenue_2024'), 404, 'NoSuchViewException');
});

test('tables and views share names, and bad requests get the spec error bodies', async () => {
  await call('POST', '/namespaces', { namespace: ['mixed'] });
  const table = await call('POST', '/namespaces/mixed/tables', { name: 't', schema });
  assert.equal(table.status, 200, JSON.stringify(table.body));
  assertError(await call('POST', '/namespaces/mixed/views', { name: 't', schema, 'view-version': version('SELECT 1') }),
    409, 'AlreadyExistsException');
  assert.equal((await call('POST', '/namespaces/mixed/views',
    { name: 'v', schema, 'view-version': version('SELECT 1') })).status, 200);
  assertError(await call('POST', '/namespaces/mixed/tables', { name: 'v', schema }), 409, 'AlreadyExistsException');
  assertError(await call('GET', '/namespaces/mixed/views/t'), 404, 'NoSuchViewException');
  assertError(await call('GET', '/namespaces/mixed/tables/v'), 404, 'NoSuchTableException');
  assertError(await call('POST', '/views/rename', {
    source: { namespace: ['mixed'], name: 'v' }, destination: { namespace: ['mixed'], name: 't' },
  }), 409, 'AlreadyExistsException');
  assertError(await call('DELETE', '/namespaces/mixed'), 409, 'NamespaceNotEmptyException');

  assertError(await call('POST', '/namespaces/mixed/views', '{"name": "x", "schema": '), 400, 'BadRequestException');
  assertError(await call('POST', '/namespaces/mixed/views', '['.repeat(10000) + ']'.repeat(10000)),
    400, 'BadRequestException');
  assertError(await call('POST', '/namespaces/mixed/views', { name: 'x', schema }), 400, 'BadRequestException');
  assertError(await call('POST', '/namespaces/mixed/views',
    { name: 'x', schema, 'view-version': { ...version('SELECT 1'), 'schema-id': 5 } }), 400, 'BadRequestException');
  assertError(await call('POST', '/namespaces/mixed/views/v', { updates: [{ action: 'add-snapshot' }] }),
    400, 'BadRequestException');
  assertError(await call('POST', '/namespaces/mixed/views/v',
    { updates: [{ action: 'upgrade-format-version', 'format-version': 2 }] }), 400, 'BadRequestException');
  assertError(await call('POST', '/namespaces/nowhere/views', { name: 'x', schema, 'view-version': version('SELECT 1') }),
    404, 'NoSuchNamespaceException');
});
