// floe query over real Iceberg tables (a warehouse written by `floe table create/append`):
// node `pg`, `trino-client` and Debian's psql read the same rows; the console's /api/tables
// routes list the table with its schema, snapshots and files; DELETE through both protocols
// reports its count the way each protocol does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Trino } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

const floe = process.env.FLOE_BIN;
let dir;
let server;
const rows = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-serve-tables-'));
  const warehouse = join(dir, 'wh');
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: true, type: 'long' },
      { id: 2, name: 'region', required: true, type: 'string' },
      { id: 3, name: 'amount', required: true, type: 'double' },
    ] }));
  execFileSync(floe, ['table', 'create', 'shop.orders', '--warehouse', warehouse, '--schema', join(dir, 'schema.json')]);
  for (let batch = 0; batch < 2; batch++) {
    const lines = [];
    for (let i = 0; i < 50; i++) {
      const row = { id: batch * 50 + i, region: ['eu', 'us', 'apac'][i % 3], amount: (batch * 50 + i) * 1.5 };
      rows.push(row);
      lines.push(JSON.stringify(row));
    }
    writeFileSync(join(dir, `batch-${batch}.jsonl`), lines.join('\n') + '\n');
    execFileSync(floe, ['table', 'append', 'shop.orders', '--warehouse', warehouse, join(dir, `batch-${batch}.jsonl`)]);
  }
  server = await startQueryServer(['--warehouse', `file://${warehouse}`]);
});

after(async () => {
  if (server) await server.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const expectedEu = rows.filter((r) => r.region === 'eu');

test('node pg reads the table, with and without bound parameters', async () => {
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  try {
    const count = await client.query('SELECT count(*) AS n FROM shop.orders');
    assert.equal(Number(count.rows[0].n), rows.length);
    const eu = await client.query("SELECT id, amount FROM shop.orders WHERE region = 'eu' ORDER BY id");
    assert.deepEqual(eu.rows.map((r) => [Number(r.id), r.amount]), expectedEu.map((r) => [r.id, r.amount]));
    const bound = await client.query('SELECT id FROM shop.orders WHERE region = $1 AND id < $2 ORDER BY id', ['us', 10]);
    assert.deepEqual(bound.rows.map((r) => Number(r.id)), rows.filter((r) => r.region === 'us' && r.id < 10).map((r) => r.id));
  } finally {
    await client.end();
  }
});

test('trino-client reads the same rows', async () => {
  const data = [];
  let columns;
  for await (const result of await Trino.create({ server: server.url, catalog: 'floe', schema: 'shop' })
    .query("SELECT id, amount FROM orders WHERE region = 'eu' ORDER BY id")) {
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    if (result.columns) columns = result.columns;
    if (result.data) data.push(...result.data);
  }
  assert.deepEqual(columns.map((c) => c.type), ['bigint', 'double']);
  assert.deepEqual(data, expectedEu.map((r) => [r.id, r.amount]));
});

test('psql lists and describes the table', () => {
  const psql = (command) => execFileSync('psql', ['-X', '-A', '-h', '127.0.0.1', '-p', String(server.pgPort), '-U', 'tester',
    '-d', 'floe', '-c', command], { encoding: 'utf8' });
  assert.match(psql('\\dt shop.*'), /shop\|orders\|table\|tester/);
  const described = psql('\\d shop.orders');
  assert.match(described, /id\|bigint/);
  assert.match(described, /region\|text/);
  assert.match(described, /amount\|double precision/);
  assert.match(psql('SELECT count(*) FROM shop.orders'), new RegExp(`\\n${rows.length}\\n`));
});

test('the console API lists the table with schema, snapshots and files', async () => {
  const { tables } = await (await fetch(`${server.url}/api/tables`)).json();
  assert.deepEqual(tables.filter((t) => t.schema === 'shop'), [{ catalog: 'floe', schema: 'shop', name: 'orders' }]);
  const table = await (await fetch(`${server.url}/api/tables/shop/orders`)).json();
  assert.deepEqual(table.columns.map((c) => [c.name, c.type]), [['id', 'bigint'], ['region', 'varchar'], ['amount', 'double']]);
  const missing = await fetch(`${server.url}/api/tables/shop/nope`);
  assert.equal(missing.status, 404);
  assert.equal(table.snapshots?.length, 2, JSON.stringify(table.errors));
  assert.ok(table.files.length >= 2, JSON.stringify(table.files));
  assert.equal(table.files.reduce((sum, f) => sum + Number(f.record_count), 0), rows.length);
  const query = await (await fetch(`${server.url}/api/query`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sql: 'SELECT count(*) AS n FROM shop.orders' }) })).json();
  assert.deepEqual(query.rows, [[rows.length]]);
});

// The statements Trino's JDBC driver sends for DatabaseMetaData (what Metabase, DBeaver and
// Superset's JDBC paths call), as the driver writes them: upper-case names, LIKE ... ESCAPE.
test('system.jdbc answers the JDBC driver\'s metadata queries', async () => {
  const trino = Trino.create({ server: server.url, catalog: 'floe', schema: 'shop' });
  const run = async (sql) => {
    let columns;
    const data = [];
    for await (const result of await trino.query(sql)) {
      assert.equal(result.error, undefined, `${sql}: ${JSON.stringify(result.error)}`);
      if (result.columns) columns = result.columns;
      if (result.data) data.push(...result.data);
    }
    return { names: columns.map((c) => c.name), types: columns.map((c) => c.type), data };
  };
  const catalogs = await run('SELECT TABLE_CAT\nFROM system.jdbc.catalogs\nORDER BY TABLE_CAT');
  assert.deepEqual(catalogs.data, [['floe']]);
  const schemas = await run("SELECT TABLE_SCHEM, TABLE_CATALOG\nFROM system.jdbc.schemas\nWHERE TABLE_CATALOG = 'floe' " +
    "AND TABLE_SCHEM LIKE 'sh%' ESCAPE '\\'\nORDER BY TABLE_CATALOG, TABLE_SCHEM");
  assert.deepEqual(schemas.names, ['table_schem', 'table_catalog']);
  assert.deepEqual(schemas.data, [['shop', 'floe']]);
  const tables = await run('SELECT TABLE_CAT, TABLE_SCHEM, TABLE_NAME, TABLE_TYPE, REMARKS,\n  TYPE_CAT, TYPE_SCHEM, ' +
    "TYPE_NAME,   SELF_REFERENCING_COL_NAME, REF_GENERATION\nFROM system.jdbc.tables\nWHERE TABLE_CAT = 'floe' AND " +
    "TABLE_SCHEM LIKE 'shop' ESCAPE '\\' AND TABLE_NAME LIKE '%' ESCAPE '\\' AND TABLE_TYPE IN ('TABLE', 'VIEW')\n" +
    'ORDER BY TABLE_TYPE, TABLE_CAT, TABLE_SCHEM, TABLE_NAME');
  assert.deepEqual(tables.names, ['table_cat', 'table_schem', 'table_name', 'table_type', 'remarks', 'type_cat',
    'type_schem', 'type_name', 'self_referencing_col_name', 'ref_generation']);
  assert.deepEqual(tables.data, [['floe', 'shop', 'orders', 'TABLE', null, null, null, null, null, null]]);
  const columns = await run('SELECT TABLE_CAT, TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, DATA_TYPE,\n  TYPE_NAME, ' +
    'COLUMN_SIZE, BUFFER_LENGTH, DECIMAL_DIGITS, NUM_PREC_RADIX,\n  NULLABLE, REMARKS, COLUMN_DEF, SQL_DATA_TYPE, ' +
    'SQL_DATETIME_SUB,\n  CHAR_OCTET_LENGTH, ORDINAL_POSITION, IS_NULLABLE,\n  SCOPE_CATALOG, SCOPE_SCHEMA, ' +
    'SCOPE_TABLE,\n  SOURCE_DATA_TYPE, IS_AUTOINCREMENT, IS_GENERATEDCOLUMN\nFROM system.jdbc.columns\n' +
    "WHERE TABLE_CAT = 'floe' AND TABLE_SCHEM LIKE 'shop' ESCAPE '\\' AND TABLE_NAME LIKE 'orders' ESCAPE '\\'\n" +
    'ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION');
  assert.equal(columns.names.length, 24);
  assert.deepEqual(columns.types.slice(0, 7), ['varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'bigint']);
  // name, java.sql.Types code, type name, size, nullable, position, IS_NULLABLE
  assert.deepEqual(columns.data.map((r) => [r[3], r[4], r[5], r[6], r[10], r[16], r[17]]), [
    ['id', -5, 'bigint', 19, 0, 1, 'NO'],
    ['region', 12, 'varchar', 2147483647, 0, 2, 'NO'],
    ['amount', 8, 'double', 53, 0, 3, 'NO'],
  ]);
  const types = await run('SELECT TABLE_TYPE\nFROM system.jdbc.table_types\nORDER BY TABLE_TYPE');
  assert.deepEqual(types.data, [['TABLE'], ['VIEW']]);
  const typeInfo = await run('SELECT TYPE_NAME, DATA_TYPE, PRECISION, LITERAL_PREFIX, LITERAL_SUFFIX,\nCREATE_PARAMS, ' +
    'NULLABLE, CASE_SENSITIVE, SEARCHABLE, UNSIGNED_ATTRIBUTE,\nFIXED_PREC_SCALE, AUTO_INCREMENT, LOCAL_TYPE_NAME, ' +
    'MINIMUM_SCALE, MAXIMUM_SCALE,\nSQL_DATA_TYPE, SQL_DATETIME_SUB, NUM_PREC_RADIX\nFROM system.jdbc.types\nORDER BY DATA_TYPE');
  assert.ok(typeInfo.data.some((r) => r[0] === 'bigint' && r[1] === -5), JSON.stringify(typeInfo.data));
  assert.deepEqual(typeInfo.types.slice(7, 8), ['boolean']);
  const empty = await run('SELECT TYPE_CAT, TYPE_SCHEM, TYPE_NAME,\n  CLASS_NAME, DATA_TYPE, REMARKS, BASE_TYPE\n' +
    'FROM system.jdbc.udts\nORDER BY DATA_TYPE, TYPE_CAT, TYPE_SCHEM, TYPE_NAME');
  assert.deepEqual(empty.data, []);
  const metadata = await run('SELECT catalog_name FROM system.metadata.catalogs');
  assert.deepEqual(metadata.data, [['floe']]);
});

test('DELETE through pg (command tag DELETE n) and Trino (updateType, updateCount)', async () => {
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  try {
    const created = await client.query('CREATE TABLE shop.scratch AS SELECT * FROM shop.orders');
    assert.equal(created.rowCount, rows.length);
    const deleted = await client.query("DELETE FROM shop.scratch WHERE region = 'eu' AND amount > $1", [30]);
    assert.equal(deleted.command, 'DELETE');
    assert.equal(deleted.rowCount, rows.filter((r) => r.region === 'eu' && r.amount > 30).length);
  } finally {
    await client.end();
  }
  let update;
  for await (const result of await Trino.create({ server: server.url, catalog: 'floe', schema: 'shop' })
    .query('DELETE FROM scratch WHERE id < 10')) {
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    if (result.updateType) update = result;
  }
  assert.equal(update.updateType, 'DELETE');
  const kept = rows.filter((r) => !(r.region === 'eu' && r.amount > 30));
  assert.equal(update.updateCount, kept.filter((r) => r.id < 10).length);
  const left = await (await fetch(`${server.url}/api/query`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sql: 'SELECT count(*) AS n FROM shop.scratch' }) })).json();
  assert.deepEqual(left.rows, [[kept.filter((r) => r.id >= 10).length]], JSON.stringify(left));
});

test('UPDATE and MERGE through pg (command tags UPDATE n, MERGE n) and Trino (updateType, updateCount)', async () => {
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  let expected;
  try {
    await client.query('CREATE TABLE shop.changed AS SELECT * FROM shop.orders');
    const updated = await client.query("UPDATE shop.changed SET amount = amount * 2 WHERE region = $1", ['eu']);
    assert.equal(updated.command, 'UPDATE');
    assert.equal(updated.rowCount, rows.filter((r) => r.region === 'eu').length);
    expected = new Map(rows.map((r) => [r.id, r.region === 'eu' ? r.amount * 2 : r.amount]));
    const merged = await client.query(
      `MERGE INTO shop.changed t USING (SELECT id, amount FROM shop.orders WHERE id < 5) s ON t.id = s.id
       WHEN MATCHED AND t.amount > s.amount THEN UPDATE SET amount = s.amount
       WHEN MATCHED THEN DELETE`);
    assert.equal(merged.command, 'MERGE');
    assert.equal(merged.rowCount, rows.filter((r) => r.id < 5).length);
    for (const r of rows.filter((r) => r.id < 5)) {
      if (expected.get(r.id) > r.amount) expected.set(r.id, r.amount);
      else expected.delete(r.id);
    }
  } finally {
    await client.end();
  }
  let update;
  for await (const result of await Trino.create({ server: server.url, catalog: 'floe', schema: 'shop' })
    .query('UPDATE changed SET amount = amount + 1 WHERE id >= 10')) {
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    if (result.updateType) update = result;
  }
  assert.equal(update.updateType, 'UPDATE');
  assert.equal(update.updateCount, [...expected.keys()].filter((id) => id >= 10).length);
  for (const id of expected.keys()) if (id >= 10) expected.set(id, expected.get(id) + 1);
  const left = await (await fetch(`${server.url}/api/query`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sql: 'SELECT id, amount FROM shop.changed ORDER BY id' }) })).json();
  assert.deepEqual(left.rows.map(([id, amount]) => [Number(id), Number(amount)]),
    [...expected.entries()].sort((a, b) => a[0] - b[0]), JSON.stringify(left));
});

test('UPDATE and DELETE with subqueries on an Iceberg table, through pg', async () => {
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  try {
    await client.query('CREATE TABLE shop.scaled AS SELECT * FROM shop.orders');
    // Correlated in SET; the subquery reads the table as it was before the statement.
    const updated = await client.query(`UPDATE shop.scaled SET amount = amount + (SELECT max(o.amount) FROM shop.scaled o
      WHERE o.region = scaled.region) WHERE id IN (SELECT id FROM shop.orders WHERE id % 10 = 0)`);
    assert.equal(updated.rowCount, rows.filter((r) => r.id % 10 === 0).length);
    const maxByRegion = new Map();
    for (const r of rows) maxByRegion.set(r.region, Math.max(maxByRegion.get(r.region) ?? -Infinity, r.amount));
    const expected = new Map(rows.map((r) => [r.id, r.id % 10 === 0 ? r.amount + maxByRegion.get(r.region) : r.amount]));
    const deleted = await client.query(
      'DELETE FROM shop.scaled WHERE amount > (SELECT avg(amount) FROM shop.scaled) AND region IN (SELECT region FROM shop.orders WHERE id = 1)');
    const average = [...expected.values()].reduce((a, b) => a + b, 0) / expected.size;
    const region = rows.find((r) => r.id === 1).region;
    const gone = rows.filter((r) => expected.get(r.id) > average && r.region === region).map((r) => r.id);
    assert.equal(deleted.rowCount, gone.length);
    for (const id of gone) expected.delete(id);
    const left = await client.query('SELECT id, amount FROM shop.scaled ORDER BY id');
    assert.deepEqual(left.rows.map((r) => [Number(r.id), Number(r.amount)]), [...expected.entries()].sort((a, b) => a[0] - b[0]));
  } finally {
    await client.end();
  }
});
