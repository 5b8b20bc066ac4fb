// Chaos: `floe up --processes` with the generator at a steady rate while roles are killed with
// SIGKILL (the stream job and the broker at least once each, the rest at random; the table must
// gain commits between kills) and every object store of every role injects faults (errors,
// latency, torn writes). Afterwards every event the broker acknowledged is in shop.orders exactly
// once (by event id: the count, no duplicate, and the sum of the ids' XXH64 hashes equals the
// generator's ledger, so one lost acknowledged event plus one unacknowledged event written does
// not pass), every malformed one in the dead-letter table once, every snapshot of the table is
// readable by icebird (so no referenced file is missing), and after remove-orphans no data file
// is left that no snapshot references.
//
// FLOE_CHAOS_SECONDS (default 75) and FLOE_CHAOS_KILLS (default 6) size the run: `make test` runs
// this short smoke, `make chaos` a long run with twenty kills.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer as createNetServer, connect } from 'node:net';
import { mkdtempSync, rmSync, readFileSync, statSync, existsSync, openSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveFolder } from '../support/folder_server.mjs';
import { icebergRead, icebergManifests } from 'icebird';

const floe = process.env.FLOE_BIN;
const seconds = Number(process.env.FLOE_CHAOS_SECONDS ?? 75);
const kills = Number(process.env.FLOE_CHAOS_KILLS ?? 6);
const faults = { error_rate: 0.01, latency_ms: 1, short_write_rate: 0.005 };
const killable = ['broker', 'catalog', 'stream', 'state', 'query'];
let dir, folder, up;

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function freePort() {
  const s = createNetServer();
  await new Promise(resolve => s.listen(0, '127.0.0.1', resolve));
  const port = s.address().port;
  await new Promise(resolve => s.close(resolve));
  return port;
}

async function waitForPort(port, deadlineMs = 30000) {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    const ok = await new Promise(resolve => {
      const c = connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on ${port}`);
}

// The role children of `floe up`: {broker: pid, catalog: pid, stream: pid, ...} from their argv.
function roles(parentPid) {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parentPid)], { encoding: 'utf8' });
  } catch { return {}; }  // ps exits 1 when there are no children.
  const found = {};
  for (const line of out.trim().split('\n')) {
    const m = /^\s*(\d+)\s+\S+\s+(\S+)/.exec(line);
    if (!m) continue;
    let name = { broker: 'broker', catalog: 'catalog', stream: 'stream', query: 'query', produce: 'generator' }[m[2]];
    // The second stream job (shop.order_state, upsert mode) is a role of its own.
    if (name === 'stream' && line.includes('--table shop.order_state')) name = 'state';
    if (name) found[name] = Number(m[1]);
  }
  return found;
}

function metadataLocation(table) {
  const [ns, name] = table.split('.');
  return execFileSync('/usr/bin/python3', ['-c', `
import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute(
  "SELECT metadata_location FROM iceberg_tables WHERE table_namespace=? AND table_name=?", (sys.argv[2], sys.argv[3])).fetchone()
print(row[0] if row else "")`, join(dir, 'data', 'catalog.db'), ns, name], { encoding: 'utf8' }).trim();
}

function tableUrl(location) {
  return folder.base + location.slice('file://'.length, location.lastIndexOf('/metadata/'));
}

async function metadataOf(table) {
  const location = metadataLocation(table);
  return JSON.parse(readFileSync(location.slice('file://'.length), 'utf8'));
}

// XXH64 (seed 0) of a string's UTF-8 bytes, as the generator's ledger hashes event ids
// (xxHash's published algorithm, over BigInt arithmetic modulo 2^64).
function xxh64(text) {
  const M = (1n << 64n) - 1n;
  const P1 = 11400714785074694791n, P2 = 14029467366897019727n, P3 = 1609587929392839161n;
  const P4 = 9650029242287828579n, P5 = 2870177450012600261n;
  const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M;
  const round = (acc, lane) => (rotl((acc + lane * P2) & M, 31) * P1) & M;
  const merge = (acc, v) => (((acc ^ round(0n, v)) * P1) + P4) & M;
  const b = Buffer.from(text, 'utf8');
  let i = 0, h;
  if (b.length >= 32) {
    let v1 = (P1 + P2) & M, v2 = P2, v3 = 0n, v4 = (M + 1n - P1) & M;
    for (; i + 32 <= b.length; i += 32) {
      v1 = round(v1, b.readBigUInt64LE(i));
      v2 = round(v2, b.readBigUInt64LE(i + 8));
      v3 = round(v3, b.readBigUInt64LE(i + 16));
      v4 = round(v4, b.readBigUInt64LE(i + 24));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) & M;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(b.length)) & M;
  for (; i + 8 <= b.length; i += 8) h = ((rotl(h ^ round(0n, b.readBigUInt64LE(i)), 27) * P1) + P4) & M;
  if (i + 4 <= b.length) {
    h = ((rotl(h ^ ((BigInt(b.readUInt32LE(i)) * P1) & M), 23) * P2) + P3) & M;
    i += 4;
  }
  for (; i < b.length; ++i) h = (rotl(h ^ ((BigInt(b[i]) * P5) & M), 11) * P1) & M;
  h ^= h >> 33n; h = (h * P2) & M;
  h ^= h >> 29n; h = (h * P3) & M;
  h ^= h >> 32n;
  return h;
}

// Snapshots of shop.orders so far (0 before the table exists).
function snapshotCount() {
  try {
    const location = metadataLocation('shop.orders');
    if (!location) return 0;
    return (JSON.parse(readFileSync(location.slice('file://'.length), 'utf8')).snapshots ?? []).length;
  } catch { return 0; }  // The catalog file is being written: count it as nothing yet.
}

function runFloe(args, env = process.env) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-chaos-'));
  folder = await serveFolder(dir);
});

after(async () => {
  if (up && up.exitCode === null) up.kill('SIGKILL');
  await folder.close();
  if (!process.env.FLOE_KEEP_CHAOS) rmSync(dir, { recursive: true, force: true });
});

test(`${kills} kill -9s over ${seconds}s under storage faults lose and double nothing`, { timeout: (seconds + 240) * 1000 }, async () => {
  const brokerPort = await freePort();
  const catalogPort = await freePort();
  const queryPort = await freePort();
  const pgPort = await freePort();
  const data = join(dir, 'data');
  const log = openSync(join(dir, 'up.log'), 'a');
  up = spawn(floe, ['up', '--processes', '--data', data, '--broker-listen', `127.0.0.1:${brokerPort}`,
                    '--broker-metrics-listen', '', '--catalog-port', String(catalogPort),
                    '--query-listen', `127.0.0.1:${queryPort}`, '--pg-listen', `127.0.0.1:${pgPort}`,
                    '--registry-listen', `127.0.0.1:${await freePort()}`, '--traffic', '300',
                    '--trigger', '1s', '--malformed-rate', '0.01'],
             { env: { ...process.env, FLOE_STORAGE_FAULTS: JSON.stringify(faults) }, stdio: ['ignore', log, log] });
  const upLog = () => readFileSync(join(dir, 'up.log'), 'utf8');
  await waitForPort(brokerPort);
  await waitForPort(catalogPort);

  // Let the first commits land, then kill a role at even intervals (the stream job and the broker
  // first, in random order, then at random); each must come back, and the table must gain
  // commits between kills (the job recovers, not merely restarts).
  assert.ok(kills >= 2, 'the chaos run needs at least two kills: the stream job and the broker');
  const first = Math.random() < 0.5 ? ['stream', 'broker'] : ['broker', 'stream'];
  const start = Date.now();
  let snapshotsBefore = snapshotCount();
  for (let i = 0; i < kills; ++i) {
    await sleep(Math.max(0, start + ((i + 1) * seconds * 1000) / (kills + 1) - Date.now()));
    const commitDeadline = Date.now() + 30000;
    while (snapshotCount() <= snapshotsBefore && Date.now() < commitDeadline) await sleep(250);
    const snapshotsNow = snapshotCount();
    assert.ok(snapshotsNow > snapshotsBefore, `no commit to shop.orders before kill ${i + 1}:\n${upLog()}`);
    snapshotsBefore = snapshotsNow;
    const now = roles(up.pid);
    const candidates = killable.filter(name => now[name]);
    assert.ok(candidates.length > 0, `no role children of floe up:\n${upLog()}`);
    const victim = i < first.length ? first[i] : candidates[Math.floor(Math.random() * candidates.length)];
    assert.ok(now[victim], `${victim} is not running before kill ${i + 1}:\n${upLog()}`);
    process.kill(now[victim], 'SIGKILL');
    const end = Date.now() + 60000;
    while (Date.now() < end && !(roles(up.pid)[victim] && roles(up.pid)[victim] !== now[victim])) await sleep(200);
    assert.ok(roles(up.pid)[victim], `${victim} was not restarted after kill ${i + 1}:\n${upLog()}`);
  }
  await sleep(Math.max(0, start + seconds * 1000 - Date.now()));

  // A clean stop leaves no child and writes the ledger one last time.
  up.kill('SIGTERM');
  const code = await new Promise(resolve => up.once('exit', resolve));
  assert.equal(code, 0, upLog());
  assert.deepEqual(roles(up.pid), {});

  // Drain what the broker holds, without faults, then compare with the ledger.
  const brokerAgain = spawn(floe, ['broker', '--listen', `127.0.0.1:${brokerPort}`, '--data', join(data, 'broker'),
                                   '--metrics-listen', ''], { stdio: 'ignore' });
  try {
    await waitForPort(brokerPort);
    const env = { ...process.env };
    delete env.FLOE_STORAGE_FAULTS;
    runFloe(['stream', '--brokers', `127.0.0.1:${brokerPort}`, '--topic', 'orders', '--table', 'shop.orders',
             '--catalog', `sqlite:${join(data, 'catalog.db')}`, '--warehouse', `file://${join(data, 'warehouse')}`,
             '--schema', join(data, 'orders.schema.json'), '--partition', 'hour(ts)', '--timestamp-unit', 'ms',
             '--available-now'], env);
  } finally {
    brokerAgain.kill('SIGTERM');
    await new Promise(resolve => brokerAgain.once('exit', resolve));
  }

  const ledger = JSON.parse(readFileSync(join(data, 'ledger.json'), 'utf8')).total;
  assert.ok(ledger.acked_valid > seconds * 100, `too few events acknowledged: ${JSON.stringify(ledger)}`);
  const metadata = await metadataOf('shop.orders');
  const rows = await icebergRead({ tableUrl: tableUrl(metadataLocation('shop.orders')), metadata });
  const ids = new Set(rows.map(r => r.event_id));
  assert.equal(ids.size, rows.length, 'an event is in the table twice');
  assert.equal(rows.length, ledger.acked_valid, 'the table does not hold exactly what the broker acknowledged');
  let hashSum = 0n;
  for (const r of rows) hashSum = (hashSum + xxh64(r.event_id)) & ((1n << 64n) - 1n);
  assert.equal(hashSum.toString(16).padStart(16, '0'), ledger.event_id_hash_sum,
               'the table\'s event ids are not the ones the broker acknowledged');
  const dlqMetadata = await metadataOf('shop.orders_dlq');
  const dead = await icebergRead({ tableUrl: tableUrl(metadataLocation('shop.orders_dlq')), metadata: dlqMetadata });
  assert.equal(dead.length, ledger.acked_malformed);

  // Every snapshot reads, with the row count its summary promises.
  const referenced = new Set();
  for (const snapshot of metadata.snapshots) {
    const at = { ...metadata, 'current-snapshot-id': snapshot['snapshot-id'] };
    const manifests = await icebergManifests(at);
    for (const manifest of manifests) {
      for (const entry of manifest.entries) referenced.add(entry.data_file.file_path.replace('file://', ''));
    }
    if (Number(snapshot.summary['total-data-files'] ?? 0) === 0) continue;
    const read = await icebergRead({ tableUrl: tableUrl(metadataLocation('shop.orders')), metadata: at });
    assert.equal(read.length, Number(snapshot.summary['total-records']), `snapshot ${snapshot['snapshot-id']}`);
  }

  // Killed batches and torn writes leave files nothing references; remove-orphans takes them.
  runFloe(['table', 'remove-orphans', 'shop.orders', '--catalog', `sqlite:${join(data, 'catalog.db')}`,
           '--warehouse', `file://${join(data, 'warehouse')}`, '--older-than', '0s', '--unsafe-retention']);
  const dataFolder = join(data, 'warehouse', 'shop', 'orders', 'data');
  const left = readdirSync(dataFolder, { recursive: true })
    .map(f => join(dataFolder, String(f)))
    .filter(f => statSync(f).isFile() && !referenced.has(f));
  assert.deepEqual(left, [], 'unreferenced data files after remove-orphans');
  for (const file of referenced) assert.ok(existsSync(file), `referenced file missing: ${file}`);
});
