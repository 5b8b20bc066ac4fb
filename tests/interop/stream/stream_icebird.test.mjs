// The whole ingest path with readers nobody here wrote: `floe produce` sends order events (some
// malformed) to `floe broker`; `floe stream` drains them into shop.orders and its dead-letter
// table through the SQLite catalog; icebird (npm) reads both tables back. Every acknowledged
// valid event is in shop.orders exactly once, every malformed one in shop.orders_dlq with its
// reason, and running the job again adds nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveFolder } from '../support/folder_server.mjs';
import { metadataLocation, readTable } from '../support/sqlite_catalog_tables.mjs';
import { startBroker } from '../broker/broker_process.mjs';

const floe = process.env.FLOE_BIN;
let dir, broker, folder;

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}


function streamOnce() {
  return run('stream', '--brokers', broker.address, '--topic', 'orders', '--table', 'shop.orders',
             '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
             '--schema', join(dir, 'orders.schema.json'), '--partition', 'hour(ts)',
             '--trigger', '300ms', '--max-batch-records', '700', '--available-now');
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-stream-'));
  folder = await serveFolder(dir);
  broker = await startBroker([], join(dir, 'broker'));
  run('topic', 'create', 'orders', '--partitions', '4', '--brokers', broker.address);
  writeFileSync(join(dir, 'orders.schema.json'), run('produce', '--print-schema'));
  run('produce', '--brokers', broker.address, '--count', '3000', '--rate', '0', '--malformed-rate', '0.03',
      '--seed', '17', '--ledger', join(dir, 'ledger.json'));
});

after(async () => {
  await broker?.stop({ keepData: true });
  await folder.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every acknowledged event lands once; malformed ones land as dead letters; a rerun adds nothing', async () => {
  const ledger = JSON.parse(readFileSync(join(dir, 'ledger.json'), 'utf8')).total;
  assert.equal(ledger.acked, 3000);
  assert.ok(ledger.acked_malformed > 0);

  streamOnce();
  const rows = await readTable(join(dir, 'catalog.db'), folder, 'shop.orders');
  assert.equal(rows.length, ledger.acked_valid);
  assert.equal(new Set(rows.map(r => r.event_id)).size, rows.length, 'every event id once');
  for (const r of rows) {
    assert.ok(["created", "paid", "shipped", "cancelled"].includes(r.type), `type ${r.type}`);
    assert.ok(r.amount > 0 && r.items >= 1);
    assert.ok(new Date(r.ts).getFullYear() >= 2024);
  }
  const dead = await readTable(join(dir, 'catalog.db'), folder, 'shop.orders_dlq');
  assert.equal(dead.length, ledger.acked_malformed);
  for (const d of dead) {
    assert.equal(d.topic, 'orders');
    assert.ok(d.error.length > 0);
  }

  const before = metadataLocation(join(dir, 'catalog.db'), 'shop.orders');
  streamOnce();
  assert.equal(metadataLocation(join(dir, 'catalog.db'), 'shop.orders'), before, 'a rerun over the same offsets commits nothing');
  assert.equal((await readTable(join(dir, 'catalog.db'), folder, 'shop.orders')).length, ledger.acked_valid);
});
