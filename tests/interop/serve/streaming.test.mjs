// Streamed results: a result far larger than the server's per-query buffer (--result-buffer-kb)
// reaches node `pg`, psql and `trino-client` whole, while the server holds at most about the
// buffer (the query's peakBufferedBytes, as /v1/query/{id} and /api/queries report it, not a
// timing). Also: cancellation mid-stream, a Trino client that stops polling, and an error after
// rows were already sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { Trino } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

const bufferKb = 256;
let server;
before(async () => {
  server = await startQueryServer(['--result-buffer-kb', String(bufferKb), '--client-timeout-s', '1']);
});
after(async () => { await server.stop(); });

// 100 x 100 x 20 = 200,000 rows of ~60 bytes: about 12 MB, some 50 times the buffer.
const digits = Array.from({ length: 100 }, (_, i) => `(${i})`).join(',');
const big = (tag) => `WITH a(n) AS (VALUES ${digits}) SELECT a.n * 10000 + b.n * 100 + c.n AS id, ` +
  `'${tag}-${'x'.repeat(40)}' AS pad FROM a, a AS b, (SELECT n FROM a WHERE n < 20) AS c`;
const bigRows = 200000;
// The bound plus one executor batch (an empty buffer always takes a batch; a join's output
// batch can be several times 2048 rows): still a tenth of the result.
const peakLimit = bufferKb * 1024 + (1 << 20);

async function infoBySql(sql) {
  const { queries } = await (await fetch(`${server.url}/api/queries`)).json();
  const query = queries.find((q) => q.sql === sql);
  return (await fetch(`${server.url}/v1/query/${query.id}`)).json();
}

test('node pg reads a result 50 times the buffer, the server holding about the buffer', async () => {
  const sql = big('pg');
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  try {
    const result = await client.query(sql);
    assert.equal(result.rows.length, bigRows);
    assert.equal(new Set(result.rows.map((r) => r.id)).size, bigRows);
    // Extended protocol (bound parameter), the same way.
    const bound = await client.query(`SELECT id FROM (${big('pg2')}) AS t WHERE id >= $1`, [100000]);
    assert.equal(bound.rows.length, 180000);
  } finally {
    await client.end();
  }
  const info = await infoBySql(sql);
  assert.equal(info.state, 'FINISHED');
  assert.equal(info.rows, bigRows);
  assert.ok(info.peakBufferedBytes > 0 && info.peakBufferedBytes <= peakLimit, JSON.stringify(info));
});

test('psql reads it too', () => {
  const out = execFileSync('psql', ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(server.pgPort), '-U', 'tester',
    '-d', 'floe', '-c', big('psql')], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(out.trim().split('\n').length, bigRows);
});

test('trino-client pages it from the running query: QUEUED/RUNNING until the last page, then FINISHED', async () => {
  const sql = big('trino');
  let rows = 0;
  let pages = 0;
  const states = [];
  for await (const result of await Trino.create({ server: server.url }).query(sql)) {
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    states.push(result.stats.state);
    if (result.data) { pages += 1; rows += result.data.length; }
  }
  assert.equal(rows, bigRows);
  assert.ok(pages >= 10, `pages: ${pages}`);
  assert.equal(states.at(-1), 'FINISHED');
  assert.ok(states.slice(0, -1).every((s) => s === 'QUEUED' || s === 'RUNNING'), states.join());
  const info = await infoBySql(sql);
  assert.ok(info.peakBufferedBytes > 0 && info.peakBufferedBytes <= peakLimit, JSON.stringify(info));
});

test('cancellation mid-stream by DELETE on nextUri', async () => {
  const response = await fetch(`${server.url}/v1/statement`, { method: 'POST', body: big('cancel'),
    headers: { 'X-Trino-User': 'tester' } });
  let body = await response.json();
  while (!body.data) body = await (await fetch(body.nextUri)).json();
  assert.equal(body.stats.state, 'RUNNING');
  assert.ok(body.nextUri);
  assert.equal((await fetch(body.nextUri, { method: 'DELETE' })).status, 204);
  const after = await (await fetch(body.nextUri)).json();
  assert.equal(after.error.errorName, 'USER_CANCELED');
  const info = await (await fetch(`${server.url}/v1/query/${body.id}`)).json();
  assert.equal(info.state, 'CANCELED');
  assert.ok(info.peakBufferedBytes <= peakLimit, JSON.stringify(info));
});

test('a Trino client that stops polling has its query canceled (ABANDONED_QUERY)', async () => {
  const response = await fetch(`${server.url}/v1/statement`, { method: 'POST', body: big('abandoned'),
    headers: { 'X-Trino-User': 'tester' } });
  let body = await response.json();
  while (!body.data) body = await (await fetch(body.nextUri)).json();
  // The client goes away; the query waits on its full buffer until the server gives up on it.
  let info;
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    info = await (await fetch(`${server.url}/v1/query/${body.id}`)).json();
  } while (info.state === 'RUNNING' || info.state === 'QUEUED');
  assert.equal(info.state, 'FAILED');
  assert.equal(info.error.errorName, 'ABANDONED_QUERY');
});

test('an error after rows were sent reaches both clients', async () => {
  const failing = `SELECT 1 / (id - 150000) AS r FROM (${big('fail')}) AS t`;
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  try {
    await assert.rejects(client.query(failing), (e) => e.code === '22012');
    const again = await client.query('SELECT 1 AS ok');
    assert.deepEqual(again.rows, [{ ok: 1 }]);
  } finally {
    await client.end();
  }
  let rows = 0;
  let last;
  for await (const result of await Trino.create({ server: server.url }).query(failing)) {
    last = result;
    if (result.data) rows += result.data.length;
    if (result.error) break;
  }
  assert.equal(last.error.errorName, 'DIVISION_BY_ZERO');
  assert.equal(last.stats.state, 'FAILED');
  assert.ok(rows > 0 && rows < bigRows, `rows before the error: ${rows}`);
});

// A raw PostgreSQL client that reads only when told: the server must wait for it (its query
// stays RUNNING with a bounded buffer) and a CancelRequest must stop the query mid-stream.
function int32(n) { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; }
function pgMessage(type, body) { return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]); }

class RawPg {
  constructor(port) {
    this.socket = net.connect(port, '127.0.0.1');
    this.buffer = Buffer.alloc(0);
    this.waiters = [];
    this.socket.on('data', (d) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.wake();
    });
    this.socket.on('error', () => {});
  }
  wake() { const w = this.waiters; this.waiters = []; w.forEach((f) => f()); }
  // The next backend message {type, body}.
  async next() {
    for (;;) {
      if (this.buffer.length >= 5) {
        const length = this.buffer.readInt32BE(1);
        if (this.buffer.length >= 1 + length) {
          const type = String.fromCharCode(this.buffer[0]);
          const body = this.buffer.subarray(5, 1 + length);
          this.buffer = this.buffer.subarray(1 + length);
          return { type, body };
        }
      }
      await new Promise((resolve) => this.waiters.push(resolve));
    }
  }
}

test('psql-style CancelRequest stops a query whose client is not reading; the server held back', async () => {
  // 1,000,000 rows (~60 MB on the wire): more than the kernel's socket buffers hold.
  const sql = `WITH a(n) AS (VALUES ${digits}) SELECT a.n * 10000 + b.n * 100 + c.n AS id, ` +
    `'slow-${'x'.repeat(40)}' AS pad FROM a, a AS b, a AS c`;
  const client = new RawPg(server.pgPort);
  const startupBody = Buffer.concat([int32(196608), Buffer.from('user\0tester\0database\0floe\0\0')]);
  client.socket.write(Buffer.concat([int32(startupBody.length + 4), startupBody]));
  let pid;
  let secret;
  for (let m = await client.next(); m.type !== 'Z'; m = await client.next()) {
    if (m.type === 'K') { pid = m.body.readInt32BE(0); secret = m.body.readInt32BE(4); }
  }
  client.socket.write(pgMessage('Q', Buffer.from(`${sql}\0`)));
  let dataRows = 0;
  for (let m = await client.next(); dataRows === 0; m = await client.next()) {
    if (m.type === 'D') dataRows += 1;
  }
  client.socket.pause();  // The client stops reading.
  // The query stays RUNNING behind its full buffer, however long we look.
  let info;
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    info = await infoBySql(sql);
  } while (info.peakBufferedBytes < bufferKb * 1024);
  assert.equal(info.state, 'RUNNING');
  assert.ok(info.peakBufferedBytes <= peakLimit, JSON.stringify(info));
  // CancelRequest on a second socket, as psql sends on Ctrl-C.
  const cancel = net.connect(server.pgPort, '127.0.0.1');
  cancel.on('error', () => {});
  await new Promise((resolve) => cancel.on('connect', resolve));
  cancel.write(Buffer.concat([int32(16), int32(80877102), int32(pid), int32(secret)]));
  client.socket.resume();
  let error;
  for (let m = await client.next(); m.type !== 'Z'; m = await client.next()) {
    if (m.type === 'D') dataRows += 1;
    if (m.type === 'E') error = m.body.toString('latin1');
  }
  assert.match(error, /C57014/);
  assert.ok(dataRows > 0 && dataRows < 1000000, `rows before the cancel: ${dataRows}`);
  assert.equal((await infoBySql(sql)).state, 'CANCELED');
  client.socket.destroy();
  cancel.destroy();
});
