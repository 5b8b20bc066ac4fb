// Compaction beside a busy format v3 upsert job, with real processes: kafkajs (npm) keeps
// producing keyed order events (updates of random keys, tombstones, re-inserts) while
// `floe stream --mode upsert --format-version 3` commits a deletion vector on nearly every data
// file each batch, and `floe table compact` runs while the job works through each chunk of the
// stream; the job is killed with SIGKILL once mid-way and restarted. Iceberg's rule for such a race: a rewrite whose input
// files gained deletes since it was planned must not lose them (fail and plan again, or carry
// them onto the new files), and the job's deletes aimed at a file compaction removed must be
// planned again: never a lost delete, never a resurrected row. So the table must equal "the last
// event per key, minus deleted keys" (DuckDB over the produced JSON lines) row by row, read by
// floe and without floe (avsc + the test's Puffin decoder + DuckDB over the data files), and
// compactions must have landed while the job was committing.
// Row lineage (format/spec.md, "Row Lineage"): a compaction moves rows without changing them, so
// every row keeps its `_row_id` and `_last_updated_sequence_number`: computed without floe
// (DuckDB's file_row_number + each file's inherited first_row_id and data sequence number, or
// the values a rewritten file stores) before and after a last compaction, they must be equal per
// key, and unique.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startBroker } from '../../interop/broker/broker_process.mjs';
import { metadataLocation } from '../../interop/support/sqlite_catalog_tables.mjs';
import { liveFiles, puffinBlobs, decodeDeletionVector } from '../../interop/support/deletion_vectors.mjs';
import { waitFor } from '../../interop/support/waiting.mjs';

const require = createRequire(new URL('../../interop/package.json', import.meta.url));
const { Kafka, logLevel, Partitioners } = require('kafkajs');
const { DuckDBInstance } = require('@duckdb/node-api');
const floe = process.env.FLOE_BIN;
const EVENTS = Number(process.env.FLOE_UPSERT_EVENTS ?? 24000);
const KEYS = Number(process.env.FLOE_UPSERT_KEYS ?? 1500);
const STATUSES = ['created', 'paid', 'shipped', 'cancelled'];
let dir, broker, duck, catalogDb, events = [];

function prng(seed) {  // mulberry32: failures reproduce.
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
}

// `floe table compact` as a child process: { ok, out }.
function compact() {
  return new Promise(resolve => {
    execFile(floe, ['table', 'compact', 'shop.orders', '--catalog', `sqlite:${catalogDb}`, '--target-size', String(64 << 20)],
             { encoding: 'utf8' }, (err, stdout, stderr) => resolve({ ok: !err, out: stdout + stderr }));
  });
}

function streamArgs(...extra) {
  return ['stream', '--brokers', broker.address, '--topic', 'orders', '--table', 'shop.orders',
          '--catalog', `sqlite:${catalogDb}`, '--warehouse', `file://${join(dir, 'wh')}`,
          '--schema', join(dir, 'orders.schema.json'), '--mode', 'upsert', '--key', 'order_id',
          '--format-version', '3', '--trigger', '50ms', '--max-batch-records', '400',
          '--maintenance-interval', '0', ...extra];
}

// The job of the upgrade test: topic orders2 into shop.orders2, format v2 until the table is upgraded.
function upgradeStreamArgs(...extra) {
  return ['stream', '--brokers', broker.address, '--topic', 'orders2', '--table', 'shop.orders2',
          '--catalog', `sqlite:${catalogDb}`, '--warehouse', `file://${join(dir, 'wh')}`,
          '--schema', join(dir, 'orders.schema.json'), '--mode', 'upsert', '--key', 'order_id',
          '--trigger', '50ms', '--max-batch-records', '300', '--maintenance-interval', '0', ...extra];
}

async function produce(from, to, topic = 'orders', list = events) {
  const kafka = new Kafka({ clientId: 'floe-upsert-compaction-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  for (let start = from; start < to; start += 400) {
    const messages = list.slice(start, Math.min(to, start + 400)).map(e => ({
      key: String(e.order_id),
      value: e.deleted ? null : JSON.stringify({ order_id: e.order_id, status: e.status, amount: e.amount }),
    }));
    await producer.send({ topic, acks: -1, messages });
  }
  await producer.disconnect();
}

function metadata(table = 'shop.orders') {
  if (!existsSync(catalogDb)) return null;
  let location;
  try { location = metadataLocation(catalogDb, table); } catch { return null; }
  if (!location || location === 'None') return null;
  return JSON.parse(readFileSync(location.slice('file://'.length), 'utf8'));
}

// The events the table's current snapshot says it holds (floe.offsets.orders: partition -> next offset).
function committedEvents() {
  const m = metadata();
  const current = m?.snapshots?.find(s => s['snapshot-id'] === m['current-snapshot-id']);
  const offsets = current?.summary?.['floe.offsets.orders'];
  return offsets ? Object.values(JSON.parse(offsets)).reduce((a, b) => a + Number(b), 0) : 0;
}

// Each start joins a group of its own, so a restart after SIGKILL gets its partitions at once
// instead of after the dead member's session timeout (the job seeks to the table's offsets,
// never to the group's).
let starts = 0;
function startJob() {
  const job = spawn(floe, streamArgs('--group', `floe-upsert-compaction-${++starts}`), { stdio: ['ignore', 'ignore', 'pipe'] });
  job.log = '';
  job.stderr.on('data', chunk => { job.log += chunk; });
  job.exited = new Promise(resolve => job.on('exit', resolve));
  return job;
}

function floeRows(sql) {
  const out = run('sql', '--catalog', `sqlite:${catalogDb}`, '--threads', '2', '--format', 'json', '-e', sql);
  return out.split('\n').filter(Boolean).map(line => JSON.parse(line));
}

async function duckRows(sql) {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson();
}

async function expectedRows(file = 'events.jsonl', alsoGone = 'false') {
  return duckRows(`
    WITH ev AS (SELECT * FROM read_json('${join(dir, file)}', format = 'newline_delimited',
                  columns = {seq: 'BIGINT', order_id: 'BIGINT', deleted: 'BOOLEAN', status: 'VARCHAR', amount: 'BIGINT'})),
         last AS (SELECT * FROM ev QUALIFY row_number() OVER (PARTITION BY order_id ORDER BY seq DESC) = 1)
    SELECT order_id, status, amount FROM last WHERE NOT deleted AND NOT (${alsoGone}) ORDER BY order_id`);
}

function assertSameRows(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} rows, expected ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i], e = expected[i];
    assert.deepEqual([String(a.order_id), a.status, String(a.amount)], [String(e.order_id), e.status, String(e.amount)],
                     `${what}: row ${i}`);
  }
}

// The live rows read without floe, each with its row lineage: avsc for the manifests, the
// test's Puffin decoder for the vectors, DuckDB for the data files. `_row_id` is the file's
// stored value when not null, else its first_row_id + position; `_last_updated_sequence_number`
// the stored value, else the file's data sequence number (format/spec.md, "Row Lineage").
async function rowsWithoutFloe() {
  const files = await liveFiles(metadataLocation(catalogDb, 'shop.orders').slice('file://'.length));
  assert.deepEqual(files.others, [], 'delete files other than deletion vectors');
  const live = new Set(files.data.map(d => d.path));
  const deleted = new Map();
  for (const v of files.vectors) {
    assert.ok(live.has(v.dataFile), `a vector for ${v.dataFile}, which is not live`);
    assert.ok(!deleted.has(v.dataFile), `two vectors for ${v.dataFile}`);
    const { file, blobs } = puffinBlobs(v.path);
    const blob = blobs.find(b => Number(b.offset) === v.offset);
    assert.ok(blob, `${v.path}: no footer entry at ${v.offset}`);
    assert.equal(blob.properties['referenced-data-file'], v.dataFile);
    const positions = decodeDeletionVector(file.subarray(v.offset, v.offset + v.length));
    assert.equal(positions.length, v.records, `${v.dataFile}: cardinality`);
    deleted.set(v.dataFile, new Set(positions));
  }
  const rows = [];
  for (const d of files.data) {
    const path = d.path.replace(/^file:\/\//, '');
    const columns = (await duckRows(`SELECT name FROM parquet_schema('${path}')`)).map(c => c.name);
    const stored = columns.includes('_row_id');
    const read = await duckRows(`SELECT order_id, status, amount, file_row_number AS pos
                                        ${stored ? ', _row_id, _last_updated_sequence_number' : ''}
                                 FROM read_parquet('${path}', file_row_number = true)`);
    assert.equal(read.length, d.records, `${d.path}: record_count`);
    const gone = deleted.get(d.path) ?? new Set();
    for (const r of read) {
      if (gone.has(Number(r.pos))) continue;
      r.row_id = r._row_id != null ? Number(r._row_id) : d.firstRowId + Number(r.pos);
      r.seq = r._last_updated_sequence_number != null ? Number(r._last_updated_sequence_number) : d.sequenceNumber;
      rows.push(r);
    }
  }
  return rows.sort((a, b) => Number(a.order_id) - Number(b.order_id));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-upsert-compaction-'));
  catalogDb = join(dir, 'catalog.db');
  broker = await startBroker([], join(dir, 'broker'));
  run('topic', 'create', 'orders', '--partitions', '2', '--brokers', broker.address);
  writeFileSync(join(dir, 'orders.schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'order_id', required: true, type: 'long' },
      { id: 2, name: 'status', required: false, type: 'string' },
      { id: 3, name: 'amount', required: false, type: 'long' },
    ],
  }));
  const rand = prng(2525);
  for (let seq = 0; seq < EVENTS; seq++) {
    const order_id = Math.floor(rand() * KEYS);
    events.push({ seq, order_id, deleted: rand() < 0.12, status: STATUSES[Math.floor(rand() * 4)], amount: seq });
  }
  writeFileSync(join(dir, 'events.jsonl'), events.map(e => JSON.stringify(e)).join('\n') + '\n');
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

after(async () => {
  await broker?.stop({ keepData: true });
  if (!process.env.FLOE_KEEP_TEST_DIR) rmSync(dir, { recursive: true, force: true });
});

test('compactions land beside a busy v3 upsert job (killed once) and no delete is lost', { timeout: 280000 }, async () => {
  // A first backlog makes the table; then the stream keeps coming while compactions run.
  await produce(0, Math.floor(EVENTS / 6));
  const jobs = [startJob()];
  const outcomes = [];
  try {
    // The rest in twelve chunks: each is produced at once, then a compaction runs while the
    // job works through it (at 400 records a batch, several commits), whatever the machine's
    // speed. The job is killed with SIGKILL after the fifth.
    const chunks = 12, first = Math.floor(EVENTS / 6), size = Math.ceil((EVENTS - first) / chunks);
    for (let c = 0; c < chunks; c++) {
      await produce(first + c * size, Math.min(EVENTS, first + (c + 1) * size));
      outcomes.push(await compact());
      if (c === 4) {
        jobs[0].kill('SIGKILL');  // Maybe mid-commit: the restarted job must carry on exactly once.
        await jobs[0].exited;
        jobs.push(startJob());
      }
    }
    // Until the job has committed every event (the offsets in the current snapshot's summary,
    // which compactions carry over, reach the end of the topic).
    while (committedEvents() < EVENTS) {
      outcomes.push(await compact());
      assert.ok(outcomes.length < 500, `the job does not catch up (log: ${jobs.at(-1).log.slice(-500)})`);
    }
  } finally {
    jobs.at(-1).kill('SIGKILL');
    await jobs.at(-1).exited;
  }
  assert.ok(jobs.length === 2, 'the job was never killed');
  run(...streamArgs('--available-now'));

  const m = metadata();
  const ops = [...m.snapshots].sort((a, b) => a['sequence-number'] - b['sequence-number']).map(s => s.summary.operation);
  const landed = outcomes.filter(o => o.ok && /rewrote/.test(o.out)).length;
  console.log(ops.join(' '));
  console.log(`compactions: ${outcomes.length} run, ${landed} rewrote files, ` +
              `${outcomes.filter(o => !o.ok).length} failed; snapshots ${ops.length}`);
  for (const o of outcomes.filter(o => !o.ok)) console.log(o.out.trim().split('\n').at(-1));
  // Compactions committed between the job's batches: a replace with overwrites on both sides.
  const between = ops.some((op, i) => op === 'replace' && ops.slice(0, i).includes('overwrite') &&
                                      ops.slice(i + 1).includes('overwrite'));
  assert.ok(between, `no compaction landed between the job's commits: ${ops.join(' ')}`);
  assert.ok(landed >= 2, `${landed} compactions rewrote files`);
  // Some compaction raced the job and carried its new vectors onto the rewritten files.
  const carried = m.snapshots.filter(s => s.summary.operation === 'replace' && Number(s.summary['added-dvs'] ?? 0) > 0);
  console.log(`${carried.length} compactions carried deletion vectors committed while they ran`);
  assert.ok(carried.length >= 1, 'no compaction raced the job');

  const expected = await expectedRows();
  assert.ok(expected.length > KEYS / 2, `only ${expected.length} live keys`);
  assertSameRows(floeRows('SELECT order_id, status, amount FROM shop.orders ORDER BY order_id'), expected, 'floe sql');
  const before = await rowsWithoutFloe();
  assertSameRows(before, expected, 'avsc + Puffin decoder + DuckDB');
  assert.equal(new Set(before.map(r => r.row_id)).size, before.length, 'row ids are not unique');

  // One more compaction with the job stopped folds every vector, and moves rows without
  // changing their lineage.
  const last = await compact();
  assert.ok(last.ok, last.out);
  const after = await rowsWithoutFloe();
  assertSameRows(after, expected, 'after the last compaction');
  for (let i = 0; i < after.length; i++) {
    assert.deepEqual([after[i].row_id, after[i].seq], [before[i].row_id, before[i].seq],
                     `order ${after[i].order_id}: row lineage changed by compaction`);
  }
  const files = floeRows(`SELECT content FROM shop."orders$files"`);
  for (const f of files) assert.equal(Number(f.content), 0, 'a delete file is left after compaction');
});

// A v2 upsert table (equality deletes) with merge-on-read position deletes of `floe table delete`,
// upgraded to v3 with `floe table alter --property format-version=3`; the job goes on writing
// deletion vectors (killed once with SIGKILL). Each data file's first vector must hold its
// position deletes (the spec's readers, floe's included, ignore position delete files beside a
// vector), so the table stays exactly the expected state; compaction then folds everything.
test('a v2 upsert table upgraded to v3 keeps its position and equality deletes', { timeout: 200000 }, async () => {
  const list = [];
  const rand = prng(3003);
  const total = 6000, keys = 600, half = 3000, cut = 150;
  for (let seq = 0; seq < total; seq++) {
    list.push({ seq, order_id: Math.floor(rand() * keys), deleted: rand() < 0.12,
                status: STATUSES[Math.floor(rand() * 4)], amount: seq });
  }
  writeFileSync(join(dir, 'events2.jsonl'), list.map(e => JSON.stringify(e)).join('\n') + '\n');
  run('topic', 'create', 'orders2', '--partitions', '2', '--brokers', broker.address);
  await produce(0, half, 'orders2', list);
  run(...upgradeStreamArgs('--available-now'));
  assert.equal(metadata('shop.orders2')['format-version'], 2);
  run('table', 'delete', 'shop.orders2', '--catalog', `sqlite:${catalogDb}`, '--mode', 'merge-on-read',
      '--filter', `order_id < ${cut}`);
  // One live key more, deleted alone: its delete file names one data file (file-scoped).
  const single = Number(floeRows(`SELECT min(order_id) AS k FROM shop.orders2 WHERE order_id >= ${cut}`)[0].k);
  run('table', 'delete', 'shop.orders2', '--catalog', `sqlite:${catalogDb}`, '--mode', 'merge-on-read',
      '--filter', `order_id = ${single}`);
  const positionFiles = floeRows(`SELECT file_path FROM shop."orders2$files" WHERE content = 1`);
  assert.equal(positionFiles.length, 2, 'position delete files');
  run('table', 'alter', 'shop.orders2', '--catalog', `sqlite:${catalogDb}`, '--property', 'format-version=3');
  const upgraded = metadata('shop.orders2');
  assert.equal(upgraded['format-version'], 3);
  assert.equal(upgraded.properties?.['format-version'], undefined);

  await produce(half, total, 'orders2', list);
  const job = spawn(floe, upgradeStreamArgs(), { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise(resolve => job.on('exit', resolve));
  const base = upgraded.snapshots.length;
  try {
    await waitFor('two commits after the upgrade', () => (metadata('shop.orders2')?.snapshots?.length ?? 0) >= base + 2,
                  { timeoutMs: 60000, intervalMs: 20 });
  } finally {
    job.kill('SIGKILL');
    await exited;
  }
  run(...upgradeStreamArgs('--available-now'));
  const m = metadata('shop.orders2');
  const after = m.snapshots.filter(s => s['sequence-number'] > upgraded['last-sequence-number']);
  assert.ok(after.some(s => Number(s.summary['added-dvs'] ?? 0) > 0), 'no deletion vector after the upgrade');
  for (const s of after) assert.equal(s.summary['added-equality-deletes'] ?? '0', '0');
  for (const s of after) assert.equal(typeof s['first-row-id'], 'number', 'a v3 snapshot without first-row-id');
  // Some vector took a position delete file over: a file-scoped one went with it.
  assert.ok(after.some(s => Number(s.summary['removed-delete-files'] ?? 0) > Number(s.summary['removed-dvs'] ?? 0)),
            'no position delete file was taken over by a vector');

  const expected = await expectedRows('events2.jsonl', `seq < ${half} AND (order_id < ${cut} OR order_id = ${single})`);
  assert.ok(expected.length > keys / 2, `only ${expected.length} live keys`);
  assertSameRows(floeRows('SELECT order_id, status, amount FROM shop.orders2 ORDER BY order_id'), expected,
                 'floe sql after the upgrade');
  run('table', 'compact', 'shop.orders2', '--catalog', `sqlite:${catalogDb}`);
  const files = floeRows(`SELECT content, file_path FROM shop."orders2$files"`);
  for (const f of files) assert.equal(Number(f.content), 0, `a delete file is left: ${f.file_path}`);
  const paths = files.map(f => `'${f.file_path.replace(/^file:\/\//, '')}'`).join(', ');
  assertSameRows(await duckRows(`SELECT order_id, status, amount FROM read_parquet([${paths}]) ORDER BY order_id`),
                 expected, 'DuckDB over the compacted data files');
});
