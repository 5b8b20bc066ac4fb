// Roles on the query server (issue #27, finding 6), run as the attack with clients nobody here
// wrote: a reader (node pg, trino-client) cannot DROP TABLE or INSERT (PostgreSQL 42501, Trino
// PERMISSION_DENIED), a writer inserts but cannot drop, an admin does both; /api/query ignores
// an X-Floe-User header claiming admin; a reader cannot cancel or view a writer's query.
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
  dir = mkdtempSync(join(tmpdir(), 'floe-roles-'));
  writeFileSync(join(dir, 'users.toml'),
    ['reader', 'writer', 'admin'].map((r) => `[[user]]\nname = "${r}1"\npassword = "${password}"\nrole = "${r}"\n`).join('\n'),
    { mode: 0o600 });
  server = await startQueryServer(['--auth-file', join(dir, 'users.toml'), '--warehouse', `file://${join(dir, 'wh')}`]);
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

async function trinoAs(user, sql) {
  const trino = Trino.create({ server: server.url, auth: new BasicAuth(user, password), catalog: 'floe', schema: 'default' });
  for await (const result of await trino.query(sql)) {
    if (result.error) return result.error;
  }
  return null;
}

function basic(user) {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

test('PostgreSQL wire: reader reads, writer writes, only admin changes structure (42501)', async () => {
  await pgAs('admin1', 'CREATE SCHEMA IF NOT EXISTS shop');
  await pgAs('admin1', 'CREATE TABLE shop.orders (id bigint, item varchar)');
  await pgAs('writer1', "INSERT INTO shop.orders VALUES (1, 'tea')");
  const rows = await pgAs('reader1', 'SELECT id, item FROM shop.orders');
  assert.deepEqual(rows.rows.map((r) => [Number(r.id), r.item]), [[1, 'tea']]);
  for (const [user, sql] of [['reader1', 'DROP TABLE shop.orders'], ['reader1', "INSERT INTO shop.orders VALUES (2, 'x')"],
                             ['reader1', 'DELETE FROM shop.orders'], ['reader1', "UPDATE shop.orders SET item = 'x'"],
                             ['reader1', "MERGE INTO shop.orders t USING (VALUES (1, 'x')) AS s(id, item) ON t.id = s.id WHEN MATCHED THEN UPDATE SET item = s.item"],
                             ['writer1', 'DROP TABLE shop.orders'],
                             ['writer1', 'CREATE TABLE shop.other (a int)']]) {
    await assert.rejects(pgAs(user, sql), (e) => e.code === '42501', `${user}: ${sql}`);
  }
  assert.equal((await pgAs('reader1', 'SELECT count(*) AS n FROM shop.orders')).rows[0].n, '1');
  assert.equal((await pgAs('reader1', 'SELECT item FROM shop.orders')).rows[0].item, 'tea', 'the refused UPDATE and MERGE changed nothing');
  // The write role may change rows.
  await pgAs('writer1', "UPDATE shop.orders SET item = 'coffee' WHERE id = 1");
  assert.equal((await pgAs('reader1', 'SELECT item FROM shop.orders')).rows[0].item, 'coffee');
});

test('Trino protocol: a reader gets PERMISSION_DENIED for DROP TABLE; its X-Floe-User claim is ignored', async () => {
  const denied = await trinoAs('reader1', 'DROP TABLE shop.orders');
  assert.ok(denied, 'the reader dropped the table');
  assert.equal(denied.errorName, 'PERMISSION_DENIED');
  assert.equal(await trinoAs('reader1', 'SELECT count(*) FROM shop.orders'), null);

  const api = await fetch(`${server.url}/api/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: basic('reader1'), 'X-Floe-User': 'admin1' },
    body: JSON.stringify({ sql: 'DROP TABLE shop.orders' }),
  });
  const body = await api.json();
  assert.notEqual(api.status, 200, JSON.stringify(body));
  assert.match(JSON.stringify(body), /permission denied/i);
  assert.equal((await pgAs('admin1', 'SELECT count(*) AS n FROM shop.orders')).rows[0].n, '1', 'the table survived');
});

test("a reader can neither view nor cancel another user's query; the owner and an admin can", async () => {
  const posted = await fetch(`${server.url}/v1/statement`, {
    method: 'POST', headers: { Authorization: basic('writer1'), 'X-Trino-User': 'writer1' }, body: 'SELECT 1',
  });
  const { id } = await posted.json();
  assert.ok(id);
  const as = (user, method) => fetch(`${server.url}/v1/query/${id}`, {
    method, headers: { Authorization: basic(user), 'X-Trino-User': user } });
  assert.equal((await as('reader1', 'GET')).status, 403);
  assert.equal((await as('reader1', 'DELETE')).status, 403);
  assert.equal((await as('writer1', 'GET')).status, 200);
  assert.equal((await as('admin1', 'GET')).status, 200);
  const history = await (await fetch(`${server.url}/api/queries`, { headers: { Authorization: basic('reader1') } })).json();
  assert.ok(history.queries.every((q) => q.user === 'reader1'), JSON.stringify(history.queries.map((q) => q.user)));
});
