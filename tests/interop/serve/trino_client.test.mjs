// Trino's client protocol, proven with the npm `trino-client` (nobody's code here): rows and
// column types, paging, errors with their location, session headers, cancellation by DELETE on
// /v1/query/{id} (npm) and on nextUri (CLI/JDBC/Python), and what BI tools probe on connect.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Trino } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

let server;
before(async () => { server = await startQueryServer(['--max-running-queries', '2']); });
after(async () => { await server.stop(); });

function client(extra = {}) {
  return Trino.create({ server: server.url, catalog: 'floe', schema: 'default', source: 'floe-test', ...extra });
}

// Every page of a query: {columns, rows, last (the final QueryResult)}.
async function collect(iterator) {
  let columns;
  const rows = [];
  let last;
  for await (const result of iterator) {
    last = result;
    if (result.columns) columns = result.columns;
    if (result.data) rows.push(...result.data);
    if (result.error) break;
  }
  return { columns, rows, last };
}

test('rows and column types', async () => {
  const { columns, rows, last } = await collect(await client().query(
    "SELECT 1 AS i, CAST(7 AS bigint) AS b, 2.50 AS d, CAST(1.5 AS double) AS f, 'hé' AS s, true AS t, " +
    "DATE '2024-02-29' AS day, TIMESTAMP '2024-01-01 10:00:00.123456' AS ts, NULL AS n"));
  assert.equal(last.error, undefined);
  assert.deepEqual(columns.map((c) => c.name), ['i', 'b', 'd', 'f', 's', 't', 'day', 'ts', 'n']);
  assert.deepEqual(columns.map((c) => c.type),
    ['integer', 'bigint', 'decimal(3,2)', 'double', 'varchar', 'boolean', 'date', 'timestamp(6)', 'unknown']);
  assert.deepEqual(columns[2].typeSignature, { rawType: 'decimal', arguments: [{ kind: 'LONG', value: 3 }, { kind: 'LONG', value: 2 }] });
  assert.deepEqual(rows, [[1, 7, '2.50', 1.5, 'hé', true, '2024-02-29', '2024-01-01 10:00:00.123456', null]]);
  assert.equal(last.stats.state, 'FINISHED');
});

test('arrays and maps arrive as JSON arrays and objects with their type signatures', async () => {
  const { columns, rows, last } = await collect(await client().query(
    "SELECT ARRAY[1, NULL] AS a, MAP(ARRAY['k', ''], ARRAY[1.5, NULL]) AS m, ARRAY[ARRAY['x', ''], NULL] AS n, ARRAY[] AS e"));
  assert.equal(last.error, undefined);
  assert.deepEqual(columns.map((c) => c.type), ['array(integer)', 'map(varchar, decimal(2,1))', 'array(array(varchar))', 'array(unknown)']);
  assert.deepEqual(columns[1].typeSignature.arguments.map((a) => a.value.rawType), ['varchar', 'decimal']);
  assert.deepEqual(rows, [[[1, null], { k: '1.5', '': null }, [['x', ''], null], []]]);
});

test('version() and the catalog probes BI tools send', async () => {
  const version = await collect(await client().query('SELECT version()'));
  assert.equal(version.rows.length, 1);
  assert.match(String(version.rows[0][0]), /\d/);
  const catalogs = await collect(await client().query('SHOW CATALOGS'));
  assert.deepEqual(catalogs.rows, [['floe']]);
  const schemas = await collect(await client().query('SHOW SCHEMAS FROM floe'));
  assert.ok(schemas.rows.some((r) => r[0] === 'default'), JSON.stringify(schemas.rows));
  const tables = await collect(await client().query(
    "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = 'default'"));
  assert.equal(tables.last.error, undefined);
  assert.deepEqual(tables.columns.map((c) => c.name), ['table_schema', 'table_name']);
  const info = await (await fetch(`${server.url}/v1/info`)).json();
  assert.equal(info.coordinator, true);
  assert.equal(info.starting, false);
});

test('large results are paged by size', async () => {
  // A VALUES list of 3000 rows of ~1 KiB: more than one 1 MiB page.
  const text = 'x'.repeat(1000);
  const values = Array.from({ length: 3000 }, (_, i) => `(${i}, '${text}')`).join(',');
  let pages = 0;
  const rows = [];
  for await (const result of await client().query(`SELECT * FROM (VALUES ${values}) AS t(n, s)`)) {
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    if (result.data) { pages += 1; rows.push(...result.data); }
  }
  assert.equal(rows.length, 3000);
  assert.ok(pages >= 2, `pages: ${pages}`);
  assert.deepEqual(rows.map((r) => r[0]), Array.from({ length: 3000 }, (_, i) => i));
});

test('errors carry name, code, type and location', async () => {
  const { last } = await collect(await client().query('SELECT 1,\n  nope FROM (VALUES (1)) AS t(a)'));
  assert.equal(last.error.errorName, 'COLUMN_NOT_FOUND');
  assert.equal(last.error.errorCode, 47);
  assert.equal(last.error.errorType, 'USER_ERROR');
  assert.deepEqual(last.error.errorLocation, { lineNumber: 2, columnNumber: 3 });
  assert.equal(last.stats.state, 'FAILED');
  const syntax = await collect(await client().query('SELECT FROM WHERE'));
  assert.equal(syntax.last.error.errorName, 'SYNTAX_ERROR');
  const missing = await collect(await client().query('SELECT * FROM nowhere'));
  assert.equal(missing.last.error.errorName, 'TABLE_NOT_FOUND');
});

test('session headers: USE, SET SESSION, PREPARE and EXECUTE travel as X-Trino-* headers', async () => {
  const post = (sql, headers = {}) => fetch(`${server.url}/v1/statement`, {
    method: 'POST', body: sql, headers: { 'X-Trino-User': 'tester', ...headers } });
  const follow = async (response) => {
    let body = await response.json();
    let last = response;
    while (body.nextUri) {
      last = await fetch(body.nextUri);
      body = await last.json();
    }
    return { body, headers: last.headers };
  };
  const use = await follow(await post('USE floe.default', { 'X-Trino-Schema': 'elsewhere' }));
  assert.equal(use.headers.get('x-trino-set-catalog'), 'floe');
  assert.equal(use.headers.get('x-trino-set-schema'), 'default');
  const set = await follow(await post('SET SESSION query_max_run_time = \'10m\''));
  assert.equal(set.headers.get('x-trino-set-session'), 'query_max_run_time=10m');
  assert.equal(set.body.updateType, 'SET SESSION');
  const prepare = await follow(await post('PREPARE q FROM SELECT ? + 1 AS r'));
  const added = prepare.headers.get('x-trino-added-prepare');
  assert.match(added, /^q=/);
  const run = await follow(await post('EXECUTE q USING 41', { 'X-Trino-Prepared-Statement': added }));
  assert.deepEqual(run.body.data, [[42]]);
  const immediate = await follow(await post("EXECUTE IMMEDIATE 'SELECT ? * 2' USING 21"));
  assert.deepEqual(immediate.body.data, [[42]]);
  const gone = await follow(await post('DEALLOCATE PREPARE q', { 'X-Trino-Prepared-Statement': added }));
  assert.equal(gone.headers.get('x-trino-deallocated-prepare'), 'q');
});

test('cancellation by DELETE /v1/query/{id} (npm client)', async () => {
  const trino = client({ session: { testing_delay_ms: '20000' } });
  // The npm iterator polls until the query ends, so cancel from beside it, as an app would.
  const running = collect(await trino.query('SELECT 1 AS held'));
  let id;
  while (!id) {
    const { queries } = await (await fetch(`${server.url}/api/queries`)).json();
    id = queries.find((q) => q.sql === 'SELECT 1 AS held' && q.state === 'RUNNING')?.id;
  }
  await trino.cancel(id);
  const { last } = await running;
  assert.equal(last.error.errorName, 'USER_CANCELED');
  const info = await trino.queryInfo(id);
  assert.equal(info.state, 'CANCELED');
});

test('cancellation by DELETE on nextUri (CLI, JDBC, Python)', async () => {
  const response = await fetch(`${server.url}/v1/statement`, {
    method: 'POST', body: 'SELECT 1', headers: { 'X-Trino-User': 'tester', 'X-Trino-Session': 'testing_delay_ms=20000' } });
  const body = await response.json();
  const deleted = await fetch(body.nextUri, { method: 'DELETE' });
  assert.equal(deleted.status, 204);
  const after = await (await fetch(body.nextUri)).json();
  assert.equal(after.error.errorName, 'USER_CANCELED');
  assert.equal(after.nextUri, undefined);
});

test('a query past its time limit fails with EXCEEDED_TIME_LIMIT', async () => {
  const limited = await startQueryServer(['--query-timeout-s', '1']);
  try {
    const trino = Trino.create({ server: limited.url, session: { testing_delay_ms: '30000' } });
    const { last } = await collect(await trino.query('SELECT 1'));
    assert.equal(last.error.errorName, 'EXCEEDED_TIME_LIMIT');
  } finally {
    await limited.stop();
  }
});
