// Per-address connection caps on the query server's PostgreSQL and HTTP ports (issue #27):
// with `--max-connections-per-ip 4`, a fifth connection from 127.0.0.1 is refused (PostgreSQL:
// FATAL 53300, through node pg; HTTP: closed on accept) while 127.0.0.2, another loopback
// address, is still served; when one of the four goes, 127.0.0.1 is served again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { startQueryServer } from './query_process.mjs';

const CAP = 4;
let server;

before(async () => {
  server = await startQueryServer(['--max-connections-per-ip', String(CAP)]);
});

after(async () => {
  await server.stop();
});

// A node pg client whose connection leaves from `localAddress`.
function pgFrom(localAddress) {
  return new pg.Client({
    ...server.pgConfig,
    stream: () => {
      const socket = new net.Socket();
      const connect = socket.connect.bind(socket);
      socket.connect = (port, host) => connect({ port, host, localAddress });
      return socket;
    },
  });
}

// GET /v1/info from `localAddress` on a connection of its own: the status, or the error.
function getFrom(localAddress, agent = false) {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port: server.httpPort, path: '/v1/info', localAddress, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode }));
    });
    request.on('error', (error) => resolve({ error: error.code ?? error.message }));
    request.setTimeout(5000, () => request.destroy(new Error('timeout')));
  });
}

test('the PostgreSQL port refuses a fifth connection from one address with 53300 and serves another address', async () => {
  const held = [];
  try {
    for (let i = 0; i < CAP; i++) {
      const client = pgFrom('127.0.0.1');
      await client.connect();
      held.push(client);
    }
    const fifth = pgFrom('127.0.0.1');
    await assert.rejects(fifth.connect(), (e) => e.code === '53300' && /from 127\.0\.0\.1/.test(e.message));
    await fifth.end().catch(() => {});

    const other = pgFrom('127.0.0.2');
    await other.connect();
    assert.equal((await other.query('SELECT 1 AS one')).rows[0].one, 1);
    await other.end();

    // The four still work; when one leaves, its place is free again.
    assert.equal((await held[0].query('SELECT 2 AS two')).rows[0].two, 2);
    await held.pop().end();
    await waitUntil(async () => {
      const again = pgFrom('127.0.0.1');  // A pg client connects once: a fresh one per try.
      try {
        await again.connect();
        held.push(again);
        return true;
      } catch {
        await again.end().catch(() => {});
        return false;
      }
    });
  } finally {
    await Promise.all(held.map((c) => c.end().catch(() => {})));
  }
});

test('an HTTP port closes a fifth connection from one address on accept and serves another address', async () => {
  // Four kept-alive connections from 127.0.0.1, each proven accepted by an answer.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CAP, localAddress: '127.0.0.1' });
  try {
    const answers = await Promise.all(Array.from({ length: CAP }, () => getFrom('127.0.0.1', agent)));
    assert.deepEqual(answers, Array(CAP).fill({ status: 200 }));
    assert.equal(Object.values(agent.freeSockets).flat().length, CAP, 'four idle kept-alive connections');

    const refused = await getFrom('127.0.0.1');
    assert.ok(refused.error, `a fifth connection was served: ${JSON.stringify(refused)}`);
    assert.deepEqual(await getFrom('127.0.0.2'), { status: 200 });
  } finally {
    agent.destroy();
  }
  // Their places are free once they close.
  await waitUntil(async () => (await getFrom('127.0.0.1')).status === 200);
});

async function waitUntil(predicate, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}
