// [[grant]] entries on the query server (issue #27), with clients nobody here wrote (node pg,
// trino-client): a reader granted create, write and delete in the sandbox schema works there
// and nowhere else; a writer denied the finance schema cannot read it (not even joined to
// another table, nor by location) and does not see it listed, and one denied writes to audit
// cannot insert there. Each refusal is PostgreSQL SQLSTATE 42501 or Trino PERMISSION_DENIED.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Trino, BasicAuth } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

let dir, server;
const password = 'pw for all';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-grants-'));
  const users = [['admin1', 'admin'], ['ana', 'reader'], ['bo', 'writer']]
    .map(([name, role]) => `[[user]]\nname = "${name}"\npassword = "${password}"\nrole = "${role}"\n`).join('\n');
  writeFileSync(join(dir, 'users.toml'), `${users}
[[grant]]
user = "ana"
namespace = "sandbox"
allow = ["create", "write", "delete"]

[[grant]]
user = "bo"
namespace = "finance"
deny = ["read", "write"]

[[grant]]
user = "bo"
namespace = "audit"
deny = ["write"]
`, { mode: 0o600 });
  // A catalog service (SQLite) rather than a bare folder: views need one.
  server = await startQueryServer(['--auth-file', join(dir, 'users.toml'), '--catalog', `sqlite:${join(dir, 'catalog.db')}`,
    '--warehouse', `file://${join(dir, 'wh')}`]);
  for (const sql of ['CREATE SCHEMA shop', 'CREATE SCHEMA finance', 'CREATE SCHEMA audit',
                     'CREATE TABLE shop.orders (id bigint, item varchar)', "INSERT INTO shop.orders VALUES (1, 'tea'), (2, 'cake')",
                     'CREATE TABLE finance.ledger (id bigint, amount double)', 'INSERT INTO finance.ledger VALUES (1, 9.5)',
                     'CREATE TABLE audit.log (id bigint)']) {
    await pgAs('admin1', sql);
  }
});

after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function pgAs(user, sql) {
  const client = new pg.Client({ ...server.pgConfig, user, password });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const denied = (what) => (e) => {
  assert.equal(e.code, '42501', `${what}: ${e.message}`);
  return true;
};

async function trinoAs(user, sql) {
  const trino = Trino.create({ server: server.url, auth: new BasicAuth(user, password), catalog: 'floe', schema: 'shop' });
  const rows = [];
  for await (const result of await trino.query(sql)) {
    if (result.error) return { error: result.error };
    rows.push(...(result.data ?? []));
  }
  return { rows };
}

const ledgerLocation = () => `file://${join(dir, 'wh', 'finance', 'ledger')}`;
const count = async (table) => Number((await pgAs('admin1', `SELECT count(*) AS n FROM ${table}`)).rows[0].n);

test('a reader granted the sandbox schema creates, writes and drops there, and only there (42501)', async () => {
  await pgAs('ana', 'CREATE SCHEMA sandbox');
  await pgAs('ana', 'CREATE TABLE sandbox.picks AS SELECT * FROM shop.orders');
  await pgAs('ana', "INSERT INTO sandbox.picks VALUES (3, 'jam')");
  assert.equal(await count('sandbox.picks'), 3);
  for (const sql of ["INSERT INTO shop.orders VALUES (9, 'x')", 'CREATE TABLE shop.mine (a bigint)', 'DROP TABLE shop.orders',
                     'DELETE FROM shop.orders', 'ALTER TABLE sandbox.picks ADD COLUMN note varchar', 'CREATE SCHEMA other']) {
    await assert.rejects(pgAs('ana', sql), denied(`ana: ${sql}`));
  }
  await pgAs('ana', 'DROP TABLE sandbox.picks');
  assert.equal(await count('shop.orders'), 2, 'shop.orders unchanged');
  const schemas = (await pgAs('admin1', 'SHOW SCHEMAS')).rows.map((r) => Object.values(r)[0]);
  assert.ok(!schemas.includes('other'), schemas.join());
});

test('a writer denied finance reads it in no way, and is denied writes to audit (42501, PERMISSION_DENIED)', async () => {
  assert.equal(Number((await pgAs('bo', 'SELECT count(*) AS n FROM shop.orders')).rows[0].n), 2);
  for (const sql of ['SELECT * FROM finance.ledger', 'SELECT o.item FROM shop.orders o JOIN finance.ledger l ON o.id = l.id',
                     'INSERT INTO shop.orders SELECT id, \'x\' FROM finance.ledger', 'SELECT count(*) FROM "finance"."ledger$snapshots"',
                     'DESCRIBE finance.ledger', 'INSERT INTO audit.log VALUES (1)', 'DELETE FROM audit.log',
                     `SELECT count(*) FROM iceberg_scan('${ledgerLocation()}')`]) {
    await assert.rejects(pgAs('bo', sql), denied(`bo: ${sql}`));
  }
  await pgAs('bo', "INSERT INTO shop.orders VALUES (3, 'bun')");
  assert.equal(await count('shop.orders'), 3);
  assert.equal(await count('audit.log'), 0);
  assert.equal(Number((await pgAs('bo', 'SELECT count(*) AS n FROM audit.log')).rows[0].n), 0, 'bo still reads audit');
  // Listings leave finance out for bo; the admin sees it.
  const tablesOf = async (user) => (await pgAs(user, "SELECT table_schema || '.' || table_name AS t FROM information_schema.tables WHERE table_schema IN ('shop', 'finance', 'audit') ORDER BY 1")).rows.map((r) => r.t);
  assert.deepEqual(await tablesOf('bo'), ['audit.log', 'shop.orders']);
  assert.deepEqual(await tablesOf('admin1'), ['audit.log', 'finance.ledger', 'shop.orders']);

  // By location the admin reads it (the location is right), bo does not.
  assert.equal(Number((await pgAs('admin1', `SELECT count(*) AS n FROM iceberg_scan('${ledgerLocation()}')`)).rows[0].n), 1);

  // So does the console's table browser.
  const api = (user, path) => fetch(`${server.url}${path}`, {
    headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } });
  const listed = (await (await api('bo', '/api/tables')).json()).tables.map((t) => `${t.schema}.${t.name}`).sort();
  assert.ok(listed.includes('shop.orders') && !listed.includes('finance.ledger'), listed.join());
  assert.equal((await api('bo', '/api/tables/finance/ledger')).status, 403);
  assert.equal((await api('admin1', '/api/tables/finance/ledger')).status, 200);

  // A view runs with its reader's rights: bo cannot read finance through the admin's view, nor
  // make one of his own over it; the admin reads through it.
  await pgAs('admin1', 'CREATE VIEW shop.ledger_view AS SELECT id, amount FROM finance.ledger');
  assert.deepEqual((await pgAs('admin1', 'SELECT amount FROM shop.ledger_view')).rows, [{ amount: 9.5 }]);
  for (const sql of ['SELECT * FROM shop.ledger_view', 'CREATE VIEW shop.mine AS SELECT * FROM finance.ledger']) {
    await assert.rejects(pgAs('bo', sql), denied(`bo: ${sql}`));
  }
  // A reader without create rights makes no view; dropping one needs delete.
  await assert.rejects(pgAs('ana', 'CREATE VIEW shop.ana_view AS SELECT 1 AS one'), denied('ana: CREATE VIEW'));
  await assert.rejects(pgAs('ana', 'DROP VIEW shop.ledger_view'), denied('ana: DROP VIEW'));
  await pgAs('admin1', 'DROP VIEW shop.ledger_view');

  const trino = await trinoAs('bo', 'SELECT * FROM finance.ledger');
  assert.equal(trino.error?.errorName, 'PERMISSION_DENIED', JSON.stringify(trino));
  assert.deepEqual((await trinoAs('admin1', 'SELECT amount FROM finance.ledger')).rows, [[9.5]]);
});
