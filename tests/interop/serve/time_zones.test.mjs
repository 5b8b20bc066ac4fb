// Session time zones through both protocols, proven with clients nobody here wrote: node `pg`
// and psql (PostgreSQL: `SET TIME ZONE`, the TimeZone startup parameter libpq sends for PGTZ,
// text values printed with the zone's offset) and the npm `trino-client` (X-Trino-Time-Zone,
// values printed with the zone's name). The instants are checked against DuckDB with the same
// session zone, so a wrong offset fails twice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import pg from 'pg';
import { Trino } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

const require = createRequire(import.meta.url);
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));

// Around Berlin's spring gap (31 March 2024, 02:00 -> 03:00) and on New Year's Eve.
const INSTANTS = `(VALUES (1, TIMESTAMP '2024-03-31 00:59:59 UTC'), (2, TIMESTAMP '2024-03-31 01:00:00 UTC'),
  (3, TIMESTAMP '2024-12-31 23:30:00 UTC')) AS v(id, ts)`;
// DuckDB reads TIMESTAMP '... UTC' as a wall clock without a zone; TIMESTAMPTZ names the same instants.
const DUCKDB_INSTANTS = INSTANTS.replaceAll("TIMESTAMP '", "TIMESTAMPTZ '");
const LOCAL_VIEW = `SELECT id, CAST(ts AS varchar) AS text, CAST(ts AS date) AS day, hour(ts) AS h FROM ${INSTANTS} ORDER BY id`;

let server;
before(async () => { server = await startQueryServer(); });
after(async () => { await server.stop(); });

async function duckdbRows(zone, sql) {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`SET TimeZone = '${zone}'`);
  const rows = (await conn.runAndReadAll(sql)).getRowsJson();
  conn.closeSync?.();
  return rows;
}

test('PostgreSQL: SET TIME ZONE changes printing, local dates and hours; DuckDB agrees', async () => {
  const client = new pg.Client({ ...server.pgConfig, types: { getTypeParser: () => (text) => text } });
  await client.connect();
  try {
    await client.query("SET TIME ZONE 'Europe/Berlin'");
    const shown = await client.query('SHOW TimeZone');
    assert.equal(Object.values(shown.rows[0])[0], 'Europe/Berlin');
    const result = await client.query(`SELECT id, ts, CAST(ts AS date) AS day, hour(ts) AS h FROM ${INSTANTS} ORDER BY id`);
    assert.equal(result.fields[1].dataTypeID, 1184);
    assert.deepEqual(result.rows.map((r) => [r.id, r.ts, r.day, r.h]), [
      ['1', '2024-03-31 01:59:59+01', '2024-03-31', '1'],
      ['2', '2024-03-31 03:00:00+02', '2024-03-31', '3'],
      ['3', '2025-01-01 00:30:00+01', '2025-01-01', '0'],
    ]);
    const duck = await duckdbRows('Europe/Berlin', `SELECT id, CAST(ts AS date), hour(ts) FROM ${DUCKDB_INSTANTS} ORDER BY id`);
    assert.deepEqual(result.rows.map((r) => [r.day, r.h]), duck.map((r) => [r[1], String(r[2])]));

    // A wall clock without a zone is read in the session zone.
    const local = await client.query("SELECT CAST(TIMESTAMP '2024-07-01 12:00:00' AS timestamp with time zone) AT TIME ZONE 'UTC' AS utc");
    assert.equal(local.rows[0].utc, '2024-07-01 10:00:00');

    await assert.rejects(client.query("SET TIME ZONE 'Mars/Olympus_Mons'"), (error) => {
      assert.equal(error.code, '22023');
      assert.match(error.message, /Mars\/Olympus_Mons/);
      return true;
    });
    // The failed SET changed nothing.
    const still = await client.query("SELECT TIMESTAMP '2024-01-01 00:00:00 UTC' AS t");
    assert.equal(still.rows[0].t, '2024-01-01 01:00:00+01');
    await client.query('SET TIME ZONE DEFAULT');
    const reset = await client.query("SELECT TIMESTAMP '2024-01-01 00:00:00 UTC' AS t");
    assert.equal(reset.rows[0].t, '2024-01-01 00:00:00+00');
  } finally {
    await client.end();
  }
});

test('PostgreSQL: psql with PGTZ sends the zone at startup', () => {
  const out = execFileSync('psql', ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(server.pgPort), '-U', 'tester', '-d', 'floe',
    '-c', "SELECT TIMESTAMP '2024-06-01 12:00:00 UTC'"], { env: { ...process.env, PGTZ: 'America/New_York' }, encoding: 'utf8' });
  assert.equal(out.trim(), '2024-06-01 08:00:00-04');
  assert.throws(() => execFileSync('psql', ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(server.pgPort), '-U', 'tester',
    '-d', 'floe', '-c', 'SELECT 1'], { env: { ...process.env, PGTZ: 'No/Such_Zone' }, encoding: 'utf8', stdio: 'pipe' }),
  /No\/Such_Zone/);
});

async function trinoRows(zone, sql) {
  const client = Trino.create({ server: server.url, catalog: 'floe', schema: 'default', source: 'floe-test',
    extraHeaders: zone ? { 'X-Trino-Time-Zone': zone } : {} });
  const rows = [];
  let error;
  for await (const page of await client.query(sql)) {
    if (page.data) rows.push(...page.data);
    if (page.error) error = page.error;
  }
  return { rows, error };
}

test('Trino: X-Trino-Time-Zone prints instants with the zone name and decides local dates; DuckDB agrees', async () => {
  const berlin = await trinoRows('Europe/Berlin', `SELECT id, ts, CAST(ts AS date), hour(ts), date_trunc('day', ts) FROM ${INSTANTS} ORDER BY id`);
  assert.equal(berlin.error, undefined);
  assert.deepEqual(berlin.rows, [
    [1, '2024-03-31 01:59:59.000000 Europe/Berlin', '2024-03-31', 1, '2024-03-31 00:00:00.000000 Europe/Berlin'],
    [2, '2024-03-31 03:00:00.000000 Europe/Berlin', '2024-03-31', 3, '2024-03-31 00:00:00.000000 Europe/Berlin'],
    [3, '2025-01-01 00:30:00.000000 Europe/Berlin', '2025-01-01', 0, '2025-01-01 00:00:00.000000 Europe/Berlin'],
  ]);
  for (const zone of ['Asia/Kolkata', 'America/Los_Angeles']) {
    const floe = await trinoRows(zone, LOCAL_VIEW);
    const duck = await duckdbRows(zone, `SELECT id, CAST(ts AS date), hour(ts) FROM ${DUCKDB_INSTANTS} ORDER BY id`);
    assert.deepEqual(floe.rows.map((r) => [r[0], r[2], r[3]]), duck.map((r) => [Number(r[0]), r[1], Number(r[2])]), zone);
  }
  const utc = await trinoRows(null, "SELECT TIMESTAMP '2024-03-31 01:00:00 UTC'");
  assert.deepEqual(utc.rows, [['2024-03-31 01:00:00.000000 UTC']]);
  const unknown = await trinoRows('Mars/Olympus_Mons', 'SELECT 1');
  assert.ok(unknown.error, JSON.stringify(unknown));
  assert.match(unknown.error.message, /Mars\/Olympus_Mons/);
  assert.equal(unknown.error.errorName, 'INVALID_SESSION_PROPERTY');
  assert.equal(unknown.error.errorCode, 14);
});
