// PostgreSQL wire protocol v3, proven with node `pg` (nobody's code here): simple query with
// several statements and an empty query, extended query with bound parameters (text and binary
// results), errors with SQLSTATE and position, session statements, CancelRequest, and
// password authentication (SCRAM-SHA-256, MD5, cleartext) from --auth-file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startQueryServer } from './query_process.mjs';

let server;
before(async () => { server = await startQueryServer(); });
after(async () => { await server.stop(); });

async function connect(config = {}) {
  const client = new pg.Client({ ...server.pgConfig, ...config });
  await client.connect();
  return client;
}

test('simple query: rows, type OIDs, several statements, empty query', async () => {
  const client = await connect();
  try {
    const result = await client.query(
      "SELECT 1 AS i, CAST(7 AS bigint) AS b, 2.50 AS d, CAST(1.5 AS double) AS f, 'hé' AS s, true AS t, " +
      "DATE '2024-02-29' AS day, TIMESTAMP '2024-01-01 10:00:00.5' AS ts, NULL AS n");
    assert.deepEqual(result.fields.map((f) => f.dataTypeID), [23, 20, 1700, 701, 25, 16, 1082, 1114, 25]);
    const row = result.rows[0];
    assert.equal(row.i, 1);
    assert.equal(row.b, '7');  // pg returns int8 as text by default.
    assert.equal(row.d, '2.50');
    assert.equal(row.f, 1.5);
    assert.equal(row.s, 'hé');
    assert.equal(row.t, true);
    assert.equal(row.n, null);
    assert.equal(result.command, 'SELECT');
    assert.equal(result.rowCount, 1);
    const several = await client.query('SELECT 1 AS a; SELECT 2 AS b, 3 AS c');
    assert.equal(several.length, 2);
    assert.deepEqual(several[0].rows, [{ a: 1 }]);
    assert.deepEqual(several[1].rows, [{ b: 2, c: 3 }]);
    const empty = await client.query('');
    assert.equal(empty.rows.length, 0);
    const comment = await client.query('-- ping');
    assert.equal(comment.rows.length, 0);
  } finally {
    await client.end();
  }
});

// node pg parses PostgreSQL arrays by their type OID (int4[] 1007, text[] 1009): the cells arrive
// as JS arrays, NULL elements and '' apart; a map has no PostgreSQL type and arrives as text.
test('arrays arrive as PostgreSQL arrays, maps as Trino text', async () => {
  const client = await connect();
  try {
    const result = await client.query(
      "SELECT ARRAY[1, NULL, 3] AS ints, ARRAY['a b', '', NULL, 'q\"x', 'NULL'] AS texts, CAST(NULL AS array(integer)) AS none, " +
      "MAP(ARRAY['k'], ARRAY[1]) AS m, ARRAY[ARRAY[1]] AS nested");
    assert.deepEqual(result.fields.map((f) => f.dataTypeID), [1007, 1009, 1007, 25, 25]);
    assert.deepEqual(result.rows[0], { ints: [1, null, 3], texts: ['a b', '', null, 'q"x', 'NULL'], none: null, m: '{k=1}', nested: '[[1]]' });
  } finally {
    await client.end();
  }
});

test('extended query with bound parameters', async () => {
  const client = await connect();
  try {
    const result = await client.query('SELECT $1::integer + 1 AS n, $2 AS s, $3::double precision AS f', [41, "it's", 2.25]);
    assert.deepEqual(result.rows, [{ n: 42, s: "it's", f: 2.25 }]);
    const nulls = await client.query('SELECT $1::integer AS n', [null]);
    assert.deepEqual(nulls.rows, [{ n: null }]);
    // A named statement reused with other values.
    for (const v of [1, 2, 3]) {
      const r = await client.query({ name: 'plus', text: 'SELECT $1::integer * 10 AS v', values: [v] });
      assert.deepEqual(r.rows, [{ v: v * 10 }]);
    }
    // Binary results. node pg decodes every cell as UTF-8 text even in binary mode, so only
    // cells whose binary bytes are valid UTF-8 can be checked from here (pg_types_test.cc covers
    // the encodings byte by byte).
    const binaryClient = await connect({ binary: true });
    const binary = await binaryClient.query({ text: "SELECT CAST($1 AS integer) AS i, false AS t, 'x' AS s", values: [5] });
    await binaryClient.end();
    assert.equal(binary.fields.every((f) => f.format === 'binary'), true);
    assert.deepEqual(binary.rows, [{ i: 5, t: false, s: 'x' }]);
    // Placeholders inside strings are text, not parameters.
    const quoted = await client.query("SELECT '$1' AS t, $1::integer AS v", [3]);
    assert.deepEqual(quoted.rows, [{ t: '$1', v: 3 }]);
  } finally {
    await client.end();
  }
});

test('errors carry SQLSTATE and position; the connection stays usable', async () => {
  const client = await connect();
  try {
    await assert.rejects(client.query('SELECT nope FROM (VALUES (1)) AS t(a)'), (error) => {
      assert.equal(error.code, '42703');
      assert.equal(error.severity, 'ERROR');
      assert.equal(error.position, '8');
      return true;
    });
    await assert.rejects(client.query('SELECT * FROM nowhere'), (error) => error.code === '42P01');
    await assert.rejects(client.query('SELECT $1::integer', ['not a number']), (error) => error.code !== undefined);
    await assert.rejects(client.query('SELEC 1'), (error) => error.code === '42601');
    const ok = await client.query('SELECT 1 AS fine');
    assert.deepEqual(ok.rows, [{ fine: 1 }]);
  } finally {
    await client.end();
  }
});

test('session statements and the functions clients call on connect', async () => {
  const client = await connect();
  try {
    const version = await client.query('SELECT version()');
    assert.match(version.rows[0].version, /^PostgreSQL \d+/);
    const schema = await client.query('SELECT current_schema()');
    assert.equal(schema.rows[0].current_schema, 'default');
    const num = await client.query("SELECT current_setting('server_version_num')::int / 100 AS v");
    assert.equal(num.rows[0].v, 1500);
    assert.equal((await client.query('SHOW standard_conforming_strings')).rows[0].standard_conforming_strings, 'on');
    await client.query('SET application_name = \'floe-test\'');
    assert.equal((await client.query('SHOW application_name')).rows[0].application_name, 'floe-test');
    await client.query('BEGIN');
    await client.query('COMMIT');
    const catalogs = await client.query('SHOW CATALOGS');
    assert.deepEqual(catalogs.rows.map((r) => Object.values(r)[0]), ['floe']);
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'default'");
    assert.deepEqual(tables.fields.map((f) => f.name), ['table_name']);
    // Grafana's schema browser wraps names in quote_ident().
    const grafana = await client.query(
      "SELECT quote_ident(table_schema) AS \"schema\", quote_ident(table_name) AS \"table\" FROM information_schema.tables " +
      "WHERE quote_ident(table_schema) NOT IN ('information_schema', 'pg_catalog')");
    assert.deepEqual(grafana.fields.map((f) => f.name), ['schema', 'table']);
  } finally {
    await client.end();
  }
});

test('CancelRequest ends the running query', async () => {
  const client = await connect();
  try {
    await client.query('SET testing_delay_ms = 20000');
    const query = client.query(new pg.Query('SELECT 1 AS held'));
    const done = new Promise((resolve) => {
      query.on('error', (error) => resolve(error));
      query.on('end', () => resolve(null));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    new pg.Client(server.pgConfig).cancel(client, query);
    const error = await done;
    assert.equal(error?.code, '57014');
    await client.query('SET testing_delay_ms = 0');
    assert.deepEqual((await client.query('SELECT 2 AS after')).rows, [{ after: 2 }]);
  } finally {
    await client.end();
  }
});

test('password authentication from --auth-file: verifiers and plaintext entries, SCRAM only without TLS, slowed refusals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-auth-'));
  const file = join(dir, 'users.toml');
  // A group- or world-readable auth file is refused at start, naming the fix.
  writeFileSync(file, '[[user]]\nname = "plain"\npassword = "pw"\n', { mode: 0o644 });
  chmodSync(file, 0o644);
  await assert.rejects(startQueryServer(['--auth-file', file]), /chmod 600/);
  rmSync(file);
  // "scram" is a verifier written by floe user add; the others are deprecated plaintext
  // entries whose methods (MD5, cleartext) need TLS, so this plaintext port offers them SCRAM.
  execFileSync(process.env.FLOE_BIN, ['user', 'add', 'scram', '--role', 'reader', '--auth-file', file], { input: 's3cret\n' });
  writeFileSync(file, readFileSync(file, 'utf8') + [
    '[[user]]', 'name = "md5user"', 'password = "pw5"', 'method = "md5"',
    '[[user]]', 'name = "plain"', 'password = "pw"', 'method = "password"', ''].join('\n'));
  assert.doesNotMatch(readFileSync(file, 'utf8'), /s3cret/);
  const secured = await startQueryServer(['--auth-file', file]);
  try {
    assert.match(secured.stderr(), /user md5user has a plaintext password/);
    for (const [user, password] of [['scram', 's3cret'], ['md5user', 'pw5'], ['plain', 'pw']]) {
      const client = new pg.Client({ ...secured.pgConfig, user, password });
      await client.connect();
      assert.deepEqual((await client.query('SELECT 1 AS ok')).rows, [{ ok: 1 }]);
      await client.end();
      const wrong = new pg.Client({ ...secured.pgConfig, user, password: 'wrong' });
      const started = Date.now();
      await assert.rejects(wrong.connect(), (error) => error.code === '28P01');
      assert.ok(Date.now() - started >= 450, `a refusal of ${user} came after ${Date.now() - started} ms`);
    }
    const stranger = new pg.Client({ ...secured.pgConfig, user: 'nobody', password: 'x' });
    await assert.rejects(stranger.connect(), (error) => error.code === '28P01');
    assert.match(secured.stderr(), /password authentication of "nobody" from 127\.0\.0\.1 failed/);
  } finally {
    await secured.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
