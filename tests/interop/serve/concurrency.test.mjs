// Many sessions at once: 100 node `pg` clients and 100 `trino-client` queries at the same time,
// with fewer workers than clients (the rest wait in the admission queue), each getting its own
// answer; and a full queue refusing with QUERY_QUEUE_FULL / SQLSTATE 53300.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Trino } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

test('100 concurrent PostgreSQL and 100 concurrent Trino clients', { timeout: 120000 }, async () => {
  // 100 clients from one address: past the default per-address cap (64), as a large
  // connection pool on one host would be.
  const server = await startQueryServer(['--max-running-queries', '4', '--max-connections-per-ip', '256']);
  try {
    const pgClients = Array.from({ length: 100 }, async (_, i) => {
      const client = new pg.Client(server.pgConfig);
      await client.connect();
      const simple = await client.query(`SELECT ${i} AS n`);
      const bound = await client.query('SELECT $1::integer * 2 AS twice', [i]);
      await client.end();
      return [simple.rows[0].n, bound.rows[0].twice];
    });
    const trinoClients = Array.from({ length: 100 }, async (_, i) => {
      const trino = Trino.create({ server: server.url, source: `client-${i}` });
      let data;
      for await (const result of await trino.query(`SELECT ${i} + 1000`)) {
        assert.equal(result.error, undefined);
        if (result.data) data = result.data;
      }
      return data[0][0];
    });
    const pgResults = await Promise.all(pgClients);
    const trinoResults = await Promise.all(trinoClients);
    assert.deepEqual(pgResults, Array.from({ length: 100 }, (_, i) => [i, 2 * i]));
    assert.deepEqual(trinoResults, Array.from({ length: 100 }, (_, i) => i + 1000));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const total = [...metrics.matchAll(/^floe_queries_total\{protocol="(\w+)"\} (\d+)/gm)]
      .reduce((sum, m) => sum + Number(m[2]), 0);
    assert.equal(total, 300, metrics);  // Two per PostgreSQL client, one per Trino client.
  } finally {
    await server.stop();
  }
});

test('admission: a full queue refuses with QUERY_QUEUE_FULL and 53300', { timeout: 60000 }, async () => {
  const server = await startQueryServer(['--max-running-queries', '1', '--max-queued-queries', '1']);
  try {
    const hold = { testing_delay_ms: '3000' };
    const post = (session) => fetch(`${server.url}/v1/statement`, {
      method: 'POST', body: 'SELECT 1',
      headers: { 'X-Trino-User': 't', 'X-Trino-Session': Object.entries(session).map(([k, v]) => `${k}=${v}`).join(',') } });
    const first = await (await post(hold)).json();   // Runs.
    const second = await (await post(hold)).json();  // Waits in the queue.
    const third = await (await post({})).json();     // Refused.
    const refused = await (await fetch(third.nextUri)).json();
    assert.equal(refused.error.errorName, 'QUERY_QUEUE_FULL');
    const queued = await (await fetch(`${server.url}/api/queries`)).json();
    assert.equal(queued.running, 1);
    assert.equal(queued.queued, 1);
    const client = new pg.Client(server.pgConfig);
    await client.connect();
    await assert.rejects(client.query('SELECT 1'), (error) => error.code === '53300');
    await client.end();
    for (const q of [first, second]) await fetch(`${server.url}/v1/query/${q.id}`, { method: 'DELETE' });
  } finally {
    await server.stop();
  }
});
