// A transactional producer's aborted events never reach a table: kafkajs (npm) commits one
// transaction, aborts another and commits a third into `floe broker`; `floe stream
// --available-now` (librdkafka, isolation.level=read_committed) drains the topic, which ends in
// a commit marker rather than a record, and exits; icebird (npm, via the SQLite catalog) reads
// the table back: the committed events, each once, and none of the aborted ones. Then fresh
// reads (`floe sql --freshness live`, the table plus the Kafka tail past its snapshot) see the
// transactions committed since, not the aborted or still open ones, and do not wait on them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { serveFolder } from '../support/folder_server.mjs';
import { readTable } from '../support/sqlite_catalog_tables.mjs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel } = kafkajs;

test('floe stream takes committed transactions only', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-txn-stream-'));
  const folder = await serveFolder(dir);
  const broker = await startBroker([], join(dir, 'broker'));
  const kafka = new Kafka({ clientId: 'floe-txn-stream', brokers: [broker.address], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ transactionalId: 'orders-writer', maxInFlightRequests: 1, idempotent: true });
  try {
    execFileSync(process.env.FLOE_BIN, ['topic', 'create', 'orders', '--partitions', '2', '--brokers', broker.address]);
    writeFileSync(join(dir, 'orders.schema.json'), JSON.stringify({
      type: 'struct', 'schema-id': 0, fields: [
        { id: 1, name: 'id', required: false, type: 'long' },
        { id: 2, name: 'state', required: false, type: 'string' },
      ],
    }));
    await producer.connect();
    const events = (ids, state) => ids.map((id) => ({ key: String(id), value: JSON.stringify({ id, state }) }));
    const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const first = await producer.transaction();
    await first.send({ topic: 'orders', messages: events(range(1, 10), 'committed') });
    await first.commit();
    const aborted = await producer.transaction();
    await aborted.send({ topic: 'orders', messages: events(range(100, 120), 'aborted') });
    await aborted.abort();
    const last = await producer.transaction();
    await last.send({ topic: 'orders', messages: events(range(11, 15), 'committed') });
    await last.commit();

    execFileSync(process.env.FLOE_BIN, ['stream', '--brokers', broker.address, '--topic', 'orders', '--table', 'shop.orders',
      '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
      '--schema', join(dir, 'orders.schema.json'), '--trigger', '200ms', '--available-now'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 });
    const rows = await readTable(join(dir, 'catalog.db'), folder, 'shop.orders');
    assert.deepEqual(rows.map((r) => Number(r.id)).sort((a, b) => a - b), range(1, 15));
    assert.ok(rows.every((r) => r.state === 'committed'));

    // Past the snapshot: a commit, an abort, a commit, and one left open at the end.
    const later = await producer.transaction();
    await later.send({ topic: 'orders', messages: events(range(16, 18), 'committed') });
    await later.commit();
    const laterAborted = await producer.transaction();
    await laterAborted.send({ topic: 'orders', messages: events(range(200, 205), 'aborted') });
    await laterAborted.abort();
    const sql = () => execFileSync(process.env.FLOE_BIN, ['sql', '--catalog', `sqlite:${join(dir, 'catalog.db')}`,
      '--freshness', 'live', '--format', 'json', '-e', 'SELECT id, state FROM shop.orders ORDER BY id'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30000 }).split('\n').filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    let live = sql();
    assert.deepEqual(live.map((r) => Number(r.id)), range(1, 18));
    assert.ok(live.every((r) => r.state === 'committed'));
    const open = await producer.transaction();
    await open.send({ topic: 'orders', messages: events(range(300, 302), 'open') });
    live = sql();
    assert.deepEqual(live.map((r) => Number(r.id)), range(1, 18));
    await open.commit();
    live = sql();
    assert.deepEqual(live.map((r) => Number(r.id)), [...range(1, 18), 300, 301, 302]);
  } finally {
    await producer.disconnect().catch(() => {});
    await broker.stop({ keepData: true });
    await folder.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
