// Malformed input closes only the offending connection, on both ports: garbage, truncation,
// absurd lengths and protocol violations on the PostgreSQL port; garbage and oversize requests on
// the HTTP port. Meanwhile node `pg` and `trino-client` keep being served.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import pg from 'pg';
import { Trino } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

let server;
before(async () => { server = await startQueryServer(); });
after(async () => { await server.stop(); });

// Sends `bytes` and resolves with what came back and whether the server closed (within `ms`).
function exchange(port, bytes, ms = 3000) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    let settled = false;
    const finish = (closed) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), closed });
    };
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', () => socket.write(bytes));
    setTimeout(() => finish(false), ms);
  });
}

function int32(n) { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; }
function startup(user = 'tester') {
  const body = Buffer.concat([int32(196608), Buffer.from(`user\0${user}\0database\0floe\0\0`)]);
  return Buffer.concat([int32(body.length + 4), body]);
}
function message(type, body) { return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]); }

async function stillServes() {
  const client = new pg.Client(server.pgConfig);
  await client.connect();
  const { rows } = await client.query('SELECT 42 AS answer');
  await client.end();
  assert.deepEqual(rows, [{ answer: 42 }]);
  let data;
  for await (const result of await Trino.create({ server: server.url }).query('SELECT 7')) {
    if (result.data) data = result.data;
  }
  assert.deepEqual(data, [[7]]);
}

test('PostgreSQL port: bad bytes close that connection only', { timeout: 60000 }, async () => {
  const cases = {
    garbage: Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'),
    absurdStartupLength: Buffer.from([0x7f, 0xff, 0xff, 0xff, 0, 3, 0, 0]),
    negativeStartupLength: Buffer.from([0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0]),
    unknownProtocol: Buffer.concat([int32(8), int32(0x00090000)]),
    startupWithoutTerminator: Buffer.concat([int32(15), int32(196608), Buffer.from('useruse')]),
    startupWithoutUser: Buffer.concat([int32(9), int32(196608), Buffer.from([0])]),
    absurdMessageLength: Buffer.concat([startup(), Buffer.from('Q'), int32(0x7fffffff)]),
    tinyMessageLength: Buffer.concat([startup(), Buffer.from('Q'), int32(2)]),
    unknownMessageType: Buffer.concat([startup(), message('!', Buffer.from('xx'))]),
    parseWithoutTerminators: Buffer.concat([startup(), message('P', Buffer.from('abc'))]),
    bindWithHugeCounts: Buffer.concat([startup(), message('P', Buffer.from('\0SELECT 1\0\0\0')),
      message('B', Buffer.concat([Buffer.from('\0\0'), Buffer.from([0x7f, 0xff])]))]),
    bindWithTruncatedValue: Buffer.concat([startup(), message('P', Buffer.from('\0SELECT $1\0\0\0')),
      message('B', Buffer.concat([Buffer.from('\0\0'), Buffer.from([0, 0, 0, 1]), int32(1000), Buffer.from('ab')]))]),
  };
  for (const [name, bytes] of Object.entries(cases)) {
    const { closed, data } = await exchange(server.pgPort, bytes);
    assert.ok(closed, `${name}: connection left open`);
    // Where the server answered, its last message is an ErrorResponse ('E').
    if (data.length > 0 && name !== 'garbage') assert.ok(data.includes(Buffer.from('E')), `${name}: ${data.toString('hex')}`);
    await stillServes();
  }
  // Truncated: a message cut off mid-body, then the client goes away; the server just closes.
  const socket = net.connect(server.pgPort, '127.0.0.1');
  await new Promise((resolve) => socket.on('connect', resolve));
  socket.write(Buffer.concat([startup(), Buffer.from('Q'), int32(100), Buffer.from('SELE')]));
  socket.destroy();
  await stillServes();
  assert.ok(server.alive());
});

test('PostgreSQL port: SSLRequest is refused with N and the session carries on in the clear', async () => {
  const { data } = await exchange(server.pgPort, Buffer.concat([int32(8), int32(80877103)]), 500);
  assert.equal(data.toString(), 'N');
  const client = new pg.Client({ ...server.pgConfig, ssl: false });
  await client.connect();
  await client.end();
});

test('HTTP port: garbage and oversize requests close that connection only', { timeout: 60000 }, async () => {
  const cases = {
    garbage: Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10]),
    badRequestLine: Buffer.from('NOT A REQUEST\r\n\r\n'),
    hugeHeader: Buffer.from(`GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100000)}\r\n\r\n`),
    hugeBody: Buffer.from('POST /v1/statement HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\nSELECT'),
  };
  for (const [name, bytes] of Object.entries(cases)) {
    const { closed, data } = await exchange(server.httpPort, bytes);
    assert.ok(closed, `${name}: connection left open`);
    assert.match(data.toString(), /^HTTP\/1\.1 4\d\d/, name);
    await stillServes();
  }
  // Malformed JSON and unknown query ids are answered, not fatal.
  const bad = await fetch(`${server.url}/api/query`, { method: 'POST', headers: { 'content-type': 'application/json' },
                                                        body: '{"sql":' });
  assert.equal(bad.status, 400);
  const unknown = await fetch(`${server.url}/v1/statement/queued/nope/x/1`);
  assert.equal(unknown.status, 404);
  await stillServes();
});

test('session properties floe interprets are checked, by SET SESSION, SET and X-Trino-Session alike', async () => {
  const header = await fetch(`${server.url}/v1/statement`, {
    method: 'POST', body: 'SELECT 1', headers: { 'X-Trino-User': 'me', 'X-Trino-Session': 'freshness=recent' },
  });
  assert.equal(header.status, 400);
  assert.match(await header.text(), /freshness 'recent' is not 'live' or 'snapshot'/);
  const trino = Trino.create({ server: server.url, catalog: 'floe', schema: 'default', source: 'robustness' });
  const failures = [];
  for await (const r of await trino.query("SET SESSION live_tail_max_bytes = 'lots'")) if (r.error) failures.push(r.error.message);
  assert.match(failures.join(' '), /data size/);
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'tester', database: 'floe' });
  await client.connect();
  await assert.rejects(client.query("SET freshness = 'recent'"), /'live' or 'snapshot'/);
  await client.query("SET freshness = 'snapshot'");
  assert.equal((await client.query('SELECT 1 AS one')).rows[0].one, 1);
  await client.end();
});
