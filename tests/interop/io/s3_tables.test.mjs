// Iceberg tables on s3:// behave exactly as on file://: the floe binary creates, appends to and
// scans the same table in a local warehouse and in a bucket of s3rver (a foreign S3 server,
// started here on a free loopback port), and the answers must match. The bucket's own listing
// shows the table's files really went to S3.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { DuckDBInstance } from '@duckdb/node-api';

const floe = process.env.FLOE_BIN;
const exec = promisify(execFile);
let dir, s3, endpoint;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-s3-tables-'));
  s3 = new S3rver({
    address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3rver'),
    vhostBuckets: false, configureBuckets: [{ name: 'lake' }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: true, type: 'long' },
      { id: 2, name: 'name', required: false, type: 'string' },
      { id: 3, name: 'amount', required: false, type: 'double' },
    ],
  }));
  // Input Parquet files written by DuckDB (floe matches columns by name).
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  for (const [name, from, to] of [['a', 0, 200], ['b', 200, 350]]) {
    await conn.run(`COPY (SELECT i::BIGINT AS id, 'n' || (i % 7)::VARCHAR AS name, (i * 0.5)::DOUBLE AS amount
                          FROM range(${from}, ${to}) t(i))
                    TO '${join(dir, name + '.parquet')}' (FORMAT parquet)`);
  }
});

after(async () => {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

const s3Env = () => ({
  ...process.env,
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: 'us-east-1',
  AWS_ENDPOINT_URL: endpoint,
  // s3rver ignores If-None-Match on PUT; this test is the only writer.
  FLOE_S3_CONDITIONAL_PUT: 'check-then-put',
});

// Asynchronous on purpose: s3rver runs in this process and must keep answering meanwhile.
async function floeRun(warehouse, ...args) {
  const { stdout } = await exec(floe, ['table', ...args, '--warehouse', warehouse], { encoding: 'utf8', env: s3Env() });
  return stdout;
}

async function lifecycle(warehouse) {
  await floeRun(warehouse, 'create', 'db.orders', '--schema', join(dir, 'schema.json'), '--partition', 'bucket(4, id)');
  await floeRun(warehouse, 'append', 'db.orders', join(dir, 'a.parquet'));
  await floeRun(warehouse, 'append', 'db.orders', join(dir, 'b.parquet'));
  const rows = (await floeRun(warehouse, 'scan', 'db.orders')).trim().split('\n').filter(Boolean).map(l => JSON.parse(l));
  rows.sort((x, y) => x.id - y.id);
  const filtered = (await floeRun(warehouse, 'scan', 'db.orders', '--filter', 'id < 10')).trim().split('\n').filter(Boolean);
  const snapshots = JSON.parse(await floeRun(warehouse, 'snapshots', 'db.orders', '--format', 'json'));
  return { rows, filtered: filtered.length, snapshots: Array.isArray(snapshots) ? snapshots.length : snapshots };
}

test('create, append and scan give the same answers on s3:// as on file://', async () => {
  const local = await lifecycle(`file://${dir}/wh`);
  const remote = await lifecycle('s3://lake/warehouse');
  assert.equal(local.rows.length, 350);
  assert.deepEqual(remote.rows, local.rows);
  assert.equal(remote.filtered, local.filtered);
  assert.equal(local.filtered, 10);
  assert.deepEqual(remote.snapshots, local.snapshots);
});

test("the table's files are objects in the bucket", async () => {
  const res = await fetch(`${endpoint}/lake?list-type=2&prefix=warehouse/db/orders/`);
  assert.equal(res.status, 200);
  const xml = await res.text();
  const keys = [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map(m => m[1]);
  assert.ok(keys.some(k => /\/metadata\/v\d+\.metadata\.json$/.test(k)), keys.join('\n'));
  assert.ok(keys.some(k => k.endsWith('.avro')), 'manifests in the bucket');
  assert.ok(keys.filter(k => k.endsWith('.parquet')).length >= 2, 'data files in the bucket');
});

test('a wrong access key is refused with a clear error', async () => {
  await assert.rejects(
    exec(floe, ['table', 'scan', 'db.orders', '--warehouse', 's3://lake/warehouse'],
      { encoding: 'utf8', env: { ...s3Env(), AWS_ACCESS_KEY_ID: 'NOBODY' } }),
    err => {
      const text = String(err.stderr);
      assert.match(text, /s3:\/\/lake\/warehouse\/db\/orders/);
      assert.match(text, /credentials or signature were refused/);
      return true;
    });
});
