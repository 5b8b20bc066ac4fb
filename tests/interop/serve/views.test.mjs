// SQL views through a REST catalog: `floe query --catalog http://...` in front of `floe catalog`.
// Views made with CREATE VIEW over node `pg` are read through `trino-client`, and are Iceberg
// views another engine can load: the REST LoadViewResult (plain fetch, bodies per the REST spec
// and format/view-spec.md) carries the query as a `trino` SQL representation with its default
// namespace. A view another engine creates over REST is read by SQL; OR REPLACE adds a version;
// DROP VIEW removes it from the catalog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Trino } from 'trino-client';
import { startCatalogServer } from '../support/catalog_server.mjs';
import { startQueryServer } from './query_process.mjs';

let dir;
let catalog;
let catalogUrl;
let server;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-serve-views-'));
  catalog = await startCatalogServer(dir);
  catalogUrl = catalog.url;
  server = await startQueryServer(['--catalog', catalogUrl]);
  await withPg(async (client) => {
    await client.query('CREATE SCHEMA shop');
    await client.query('CREATE TABLE shop.orders (id bigint, status varchar, region varchar, amount decimal(8,2))');
    await client.query(`INSERT INTO shop.orders VALUES (1, 'paid', 'eu', 10.00), (2, 'paid', 'us', 20.50),
      (3, 'created', 'eu', 5.25), (4, 'paid', NULL, 1.00), (5, 'paid', '', 2.00)`);
  });
});

after(async () => {
  if (server) await server.stop();
  if (catalog) catalog.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function withPg(body) {
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

async function trino(sql) {
  const client = Trino.create({ server: server.url, catalog: 'floe', schema: 'shop', source: 'floe-test' });
  const rows = [];
  let columns;
  let last;
  for await (const result of await client.query(sql)) {
    last = result;
    if (result.columns) columns = result.columns;
    if (result.data) rows.push(...result.data);
    if (result.error) break;
  }
  if (last?.error) throw new Error(last.error.message);
  return { columns, rows, last };
}

async function rest(method, path, body) {
  const response = await fetch(`${catalogUrl}/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

test('CREATE VIEW over pg; trino-client reads it, lists it and shows its definition', async () => {
  // The session's schema is the view's default namespace, where `orders` resolves.
  const created = await withPg(async (client) => {
    await client.query('SET search_path TO shop');
    return client.query(
      "CREATE VIEW shop.paid_by_region AS SELECT region, count(*) AS orders, sum(amount) AS revenue FROM orders WHERE status = 'paid' GROUP BY region");
  });
  assert.equal(created.command, 'CREATE');
  const { columns, rows } = await trino('SELECT region, orders, revenue FROM paid_by_region ORDER BY region NULLS FIRST');
  assert.deepEqual(columns.map((c) => [c.name, c.type]), [['region', 'varchar'], ['orders', 'bigint'], ['revenue', 'decimal(38,2)']]);
  // NULL and '' are two regions.
  assert.deepEqual(rows, [[null, 1, '1.00'], ['', 1, '2.00'], ['eu', 1, '10.00'], ['us', 1, '20.50']]);
  const tables = await trino('SHOW TABLES');
  assert.deepEqual(tables.rows, [['orders'], ['paid_by_region']]);
  const shown = await trino('SHOW CREATE VIEW paid_by_region');
  assert.equal(shown.rows[0][0], 'CREATE VIEW floe.shop.paid_by_region SECURITY INVOKER AS\n' +
    "SELECT region, count(*) AS orders, sum(amount) AS revenue FROM orders WHERE status = 'paid' GROUP BY region");
});

test('the view is an Iceberg view in the REST catalog, its query in the trino dialect', async () => {
  const list = await rest('GET', '/namespaces/shop/views');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.identifiers, [{ namespace: ['shop'], name: 'paid_by_region' }]);
  const loaded = await rest('GET', '/namespaces/shop/views/paid_by_region');
  assert.equal(loaded.status, 200, JSON.stringify(loaded.body));
  const metadata = loaded.body.metadata;
  assert.equal(metadata['format-version'], 1);
  const current = metadata.versions.find((v) => v['version-id'] === metadata['current-version-id']);
  assert.deepEqual(current.representations, [{ type: 'sql', dialect: 'trino',
    sql: "SELECT region, count(*) AS orders, sum(amount) AS revenue FROM orders WHERE status = 'paid' GROUP BY region" }]);
  assert.deepEqual(current['default-namespace'], ['shop']);
  const schema = metadata.schemas.find((s) => s['schema-id'] === current['schema-id']);
  assert.deepEqual(schema.fields.map((f) => [f.name, f.type]), [['region', 'string'], ['orders', 'long'], ['revenue', 'decimal(38,2)']]);
  // A table's route does not answer for a view.
  assert.equal((await rest('GET', '/namespaces/shop/tables/paid_by_region')).status, 404);
});

test('a view another engine created over REST is read by SQL', async () => {
  const created = await rest('POST', '/namespaces/shop/views', {
    name: 'big_orders',
    schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: false }] },
    'view-version': {
      'version-id': 1, 'timestamp-ms': Date.now(), 'schema-id': 0, summary: { 'engine-name': 'node-fetch' },
      representations: [{ type: 'sql', sql: 'SELECT id FROM orders WHERE amount > 5', dialect: 'trino' },
        { type: 'sql', sql: 'SELECT id FROM orders WHERE amount > 5.0', dialect: 'spark' }],
      'default-namespace': ['shop'],
    },
    properties: {},
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const rows = await withPg((client) => client.query('SELECT id FROM shop.big_orders ORDER BY id'));
  assert.deepEqual(rows.rows.map((r) => Number(r.id)), [1, 2, 3]);

  // Only another dialect: refused with the dialects named, never run as floe's SQL.
  const spark = await rest('POST', '/namespaces/shop/views', {
    name: 'spark_only',
    schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: false }] },
    'view-version': {
      'version-id': 1, 'timestamp-ms': Date.now(), 'schema-id': 0, summary: {},
      representations: [{ type: 'sql', sql: 'SELECT id FROM orders', dialect: 'spark' }], 'default-namespace': ['shop'],
    },
    properties: {},
  });
  assert.equal(spark.status, 200, JSON.stringify(spark.body));
  await assert.rejects(withPg((client) => client.query('SELECT * FROM shop.spark_only')),
    /no SQL in dialect 'trino' \(it has: spark\)/);
});

test('CREATE OR REPLACE VIEW adds a version; DROP VIEW removes the view', async () => {
  await trino("CREATE OR REPLACE VIEW paid_by_region AS SELECT region, count(*) AS orders, sum(amount) AS revenue FROM orders GROUP BY region");
  const { rows } = await trino('SELECT region, orders FROM paid_by_region ORDER BY region NULLS FIRST');
  assert.deepEqual(rows, [[null, 1], ['', 1], ['eu', 2], ['us', 1]]);
  const loaded = await rest('GET', '/namespaces/shop/views/paid_by_region');
  const metadata = loaded.body.metadata;
  assert.equal(metadata.versions.length, 2);
  assert.equal(metadata['version-log'].length, 2);
  assert.equal(metadata['current-version-id'], Math.max(...metadata.versions.map((v) => v['version-id'])));

  await assert.rejects(withPg((client) => client.query('CREATE VIEW shop.paid_by_region AS SELECT 1 AS one')),
    /View 'floe.shop.paid_by_region' already exists/);
  const dropped = await withPg((client) => client.query('DROP VIEW shop.paid_by_region'));
  assert.equal(dropped.command, 'DROP');
  assert.equal((await rest('GET', '/namespaces/shop/views/paid_by_region')).status, 404);
  await assert.rejects(trino('SELECT * FROM paid_by_region'), /Table 'floe.shop.paid_by_region' does not exist/);
});
