// `floe stream` routing one job's records to many tables (docs/stream.md, "Routing"), with real
// processes: kafkajs (npm) produces JSON events into several topics of `floe broker`, and
// - `--topics REGEX` with the default `--table-from topic` makes one table per topic, each
//   holding exactly its topic's events, compared row by row through `floe sql` and through
//   DuckDB (npm) reading the table's Parquet files; a topic the regex does not match reaches no
//   table;
// - `--route FILE` maps topics to tables (one topic fans out to two tables, as Connect's
//   route-regex does, each row's `_kafka_topic` its own; a topic no line matches goes to the
//   dead-letter table with the reason);
// - `--table-from field:type` routes by a JSON field; records without the field, with a value
//   that names no table, or that are not JSON, are dead letters with the reason;
// - recovery: a table that missed a batch another table committed (made by rolling the table
//   and the job's checkpoint back, the state a kill -9 between two tables' commits leaves)
//   gets exactly the missing records on restart, and the tables that had them get none twice;
// - the job is killed with SIGKILL mid-drain and restarted; a topic created after the restart
//   is picked up by the regex; every table then holds each of its events exactly once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startBroker } from '../../interop/broker/broker_process.mjs';
import { metadataLocation } from '../../interop/support/sqlite_catalog_tables.mjs';
import { waitFor } from '../../interop/support/waiting.mjs';

// ESM ignores NODE_PATH: kafkajs resolves from tests/interop/node_modules.
const require = createRequire(new URL('../../interop/package.json', import.meta.url));
const { Kafka, logLevel, Partitioners } = require('kafkajs');
const { DuckDBInstance } = require('@duckdb/node-api');
const floe = process.env.FLOE_BIN;
let dir, broker, kafka, producer, admin, catalogDb, duck;

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
}

// The job, draining what the topics hold now (`--available-now`), or the arguments for a spawn.
function streamArgs(...extra) {
  return ['stream', '--brokers', broker.address, '--catalog', `sqlite:${catalogDb}`,
          '--warehouse', `file://${join(dir, 'wh')}`, '--trigger', '100ms', '--maintenance-interval', '0', ...extra];
}

function drain(...extra) {
  return run(...streamArgs(...extra, '--available-now'));
}

function rows(sql) {
  const out = run('sql', '--catalog', `sqlite:${catalogDb}`, '--format', 'json', '-e', sql);
  return out.split('\n').filter(Boolean).map(line => JSON.parse(line));
}

function tables(ns) {
  return rows(`SHOW TABLES FROM ${ns}`).map(r => Object.values(r)[0]).sort();
}

// The newest value of a summary key in the table's snapshots (a commit records only the topics
// its batch read).
function latestSummary(table, key) {
  return snapshots(table).map(s => s.summary[key]).filter(v => v !== undefined).at(-1);
}

function count(table) {
  return Number(rows(`SELECT count(*) AS n FROM ${table}`)[0].n);
}

function snapshots(table) {
  const location = metadataLocation(catalogDb, table);
  // Snapshot ids are 64-bit: kept as strings, which a JavaScript number would round.
  const text = readFileSync(location.slice('file://'.length), 'utf8').replace(/("[a-z-]*snapshot-id"\s*:\s*)(-?\d+)/g, '$1"$2"');
  return JSON.parse(text).snapshots ?? [];
}

async function createTopics(specs) {
  await admin.createTopics({ waitForLeaders: true, topics: specs.map(([topic, numPartitions]) => ({ topic, numPartitions })) });
}

// Sends `events` (objects, or raw strings/Buffers) to `topic`, keyed so partitions get some each.
async function send(topic, events) {
  for (let i = 0; i < events.length; i += 500) {
    await producer.send({
      topic, acks: -1,
      messages: events.slice(i, i + 500).map((e, k) => ({
        key: `k${(i + k) % 7}`,
        value: typeof e === 'string' || Buffer.isBuffer(e) ? e : JSON.stringify(e),
      })),
    });
  }
}

// The table's rows equal `expected` (objects with the same keys), ordered by id, each once.
function assertTableHolds(table, expected, columns) {
  const got = rows(`SELECT ${columns.map(c => `"${c}"`).join(', ')} FROM ${table} ORDER BY id`);
  const want = [...expected].sort((a, b) => a.id - b.id);
  assert.equal(got.length, want.length, `${table}: ${got.length} rows, expected ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    for (const c of columns) {
      assert.equal(String(got[i][c]), String(want[i][c]), `${table} row ${i} column ${c}: ${JSON.stringify(got[i])}`);
    }
  }
}

// A foreign reader: DuckDB (npm) reads the Parquet data files the table's current snapshot lists
// (`$files`; routed tables are append-only, so those files are the table) and must find exactly
// `expected`, each row once, compared column by column with its own rendering of each value.
async function assertDuckDbReads(table, expected, columns) {
  const files = rows(`SELECT content, file_path FROM ${table.replace(/\.([^.]+)$/, '."$1$$files"')}`);
  assert.ok(files.length >= 1, `${table} has data files`);
  for (const f of files) assert.equal(Number(f.content), 0, `${table}: only data files in an append-only table`);
  const paths = files.map(f => `'${f.file_path.replace(/^file:\/\//, '')}'`).join(', ');
  const reader = await duck.runAndReadAll(
    `SELECT ${columns.map(c => `"${c}"`).join(', ')} FROM read_parquet([${paths}]) ORDER BY id`);
  const got = reader.getRowObjectsJS();
  const want = [...expected].sort((a, b) => a.id - b.id);
  assert.equal(got.length, want.length, `DuckDB over ${table}: ${got.length} rows, expected ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    for (const c of columns) {
      assert.equal(String(got[i][c]), String(want[i][c]), `DuckDB over ${table} row ${i} column ${c}`);
    }
  }
}

const orders = Array.from({ length: 900 }, (_, i) => ({ id: i, amount: i * 3, note: i % 5 ? `order ${i}` : '' }));
const clicks = Array.from({ length: 700 }, (_, i) => ({ id: 10000 + i, page: `/p/${i % 13}`, ms: i * 7 }));
const payments = Array.from({ length: 400 }, (_, i) => ({ id: 20000 + i, cents: i * 101, ok: i % 3 !== 0 }));

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-route-'));
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  catalogDb = join(dir, 'catalog.db');
  broker = await startBroker([], join(dir, 'broker'));
  kafka = new Kafka({ clientId: 'floe-route-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  await createTopics([['t_orders', 3], ['t_clicks', 2], ['t_payments', 1], ['other', 1], ['events', 2]]);
  await send('t_orders', orders);
  await send('t_clicks', clicks);
  await send('t_payments', payments);
  await send('other', [{ id: -1 }]);
});

after(async () => {
  await producer?.disconnect();
  await admin?.disconnect();
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('three topics, one job: three tables, each exactly its topic\'s events', { timeout: 120000 }, async () => {
  drain('--topics', 't_.*', '--table', 'shop.raw_*', '--max-batch-records', '250');
  assert.deepEqual(tables('shop'), ['raw_dlq', 'raw_t_clicks', 'raw_t_orders', 'raw_t_payments']);
  assertTableHolds('shop.raw_t_orders', orders, ['id', 'amount', 'note']);
  assertTableHolds('shop.raw_t_clicks', clicks, ['id', 'page', 'ms']);
  assertTableHolds('shop.raw_t_payments', payments, ['id', 'cents', 'ok']);
  assert.equal(count('shop.raw_dlq'), 0);
  await assertDuckDbReads('shop.raw_t_orders', orders, ['id', 'amount', 'note']);
  await assertDuckDbReads('shop.raw_t_clicks', clicks, ['id', 'page', 'ms']);
  await assertDuckDbReads('shop.raw_t_payments', payments, ['id', 'cents', 'ok']);
  // Each table's offsets are its own topic's; the checkpoint, in the dead-letter table, is every topic's.
  assert.equal(latestSummary('shop.raw_t_payments', 'floe.offsets.t_payments'), '{"0":400}');
  assert.equal(latestSummary('shop.raw_t_payments', 'floe.offsets.t_orders'), undefined);
  assert.equal(latestSummary('shop.raw_dlq', 'floe.offsets.job:t_payments'), '{"0":400}');
  const orderEnds = JSON.parse(latestSummary('shop.raw_dlq', 'floe.offsets.job:t_orders'));
  assert.equal(Object.values(orderEnds).reduce((a, b) => a + b, 0), orders.length);

  // A second run finds nothing new: no row twice.
  drain('--topics', 't_.*', '--table', 'shop.raw_*');
  assertTableHolds('shop.raw_t_orders', orders, ['id', 'amount', 'note']);
  assertTableHolds('shop.raw_t_clicks', clicks, ['id', 'page', 'ms']);
});

test('a table that missed a batch the others committed gets exactly what it missed', { timeout: 120000 }, () => {
  // The state a kill -9 leaves between two tables' commits of a batch: orders and payments hold
  // everything, clicks and the job's checkpoint only what the first batch carried.
  const clicksFirst = snapshots('shop.raw_t_clicks')[0];
  const checkpointFirst = snapshots('shop.raw_dlq').find(s => Object.keys(s.summary).some(k => k.startsWith('floe.offsets.job:')));
  const clicksKept = count('shop.raw_t_clicks FOR VERSION AS OF ' + clicksFirst['snapshot-id']);
  assert.ok(clicksKept > 0 && clicksKept < clicks.length, `clicks in its first snapshot: ${clicksKept}`);
  const where = ['--catalog', `sqlite:${catalogDb}`];
  run('table', 'rollback', 'shop.raw_t_clicks', ...where, '--snapshot', String(clicksFirst['snapshot-id']));
  run('table', 'rollback', 'shop.raw_dlq', ...where, '--snapshot', String(checkpointFirst['snapshot-id']));
  assert.equal(count('shop.raw_t_clicks'), clicksKept);
  drain('--topics', 't_.*', '--table', 'shop.raw_*', '--max-batch-records', '250');
  assertTableHolds('shop.raw_t_orders', orders, ['id', 'amount', 'note']);
  assertTableHolds('shop.raw_t_clicks', clicks, ['id', 'page', 'ms']);
  assertTableHolds('shop.raw_t_payments', payments, ['id', 'cents', 'ok']);
});

test('a route file maps topics to tables; a record goes to every table its topic matches', { timeout: 120000 }, () => {
  const routes = join(dir, 'routes.txt');
  writeFileSync(routes, [
    '# topic regex -> table',
    't_orders -> money.orders',
    't_(orders|payments) -> money.ledger',
    '',
  ].join('\n'));
  drain('--topics', 't_.*', '--table', 'money', '--route', routes, '--group', 'route-file', '--with-kafka-columns');
  assert.deepEqual(tables('money'), ['dlq', 'ledger', 'orders']);
  assertTableHolds('money.orders', orders, ['id', 'amount', 'note']);
  // The ledger was made from the first record routed to it and --evolve is off: the columns of
  // that record's topic; both topics' events are there, once each.
  const ledger = rows('SELECT id FROM money.ledger ORDER BY id').map(r => Number(r.id));
  assert.deepEqual(ledger, [...orders, ...payments].map(e => e.id).sort((a, b) => a - b));
  // --with-kafka-columns: each row of the fanned-in table names its own topic.
  const topics = rows('SELECT _kafka_topic, count(*) AS n, min(id) AS lo, max(id) AS hi FROM money.ledger ' +
                      'GROUP BY _kafka_topic ORDER BY _kafka_topic');
  assert.deepEqual(topics.map(r => [r._kafka_topic, Number(r.n), Number(r.lo), Number(r.hi)]),
                   [['t_orders', orders.length, 0, orders.length - 1],
                    ['t_payments', payments.length, 20000, 20000 + payments.length - 1]]);
  const dead = rows('SELECT topic, error FROM money.dlq ORDER BY topic, "offset"');
  assert.equal(dead.length, clicks.length);
  for (const d of dead) {
    assert.equal(d.topic, 't_clicks');
    assert.equal(d.error, "route: no route matches 't_clicks'");
  }
  // A bad route file stops the job before anything starts, saying where.
  writeFileSync(routes, 't_orders -> money.orders\n  t_(orders -> money.x\n');
  let error;
  try {
    drain('--topics', 't_.*', '--table', 'money', '--route', routes);
  } catch (e) {
    error = e;
  }
  assert.ok(error, 'a bad regex must stop the job');
  assert.equal(error.status, 2);
  assert.match(error.stderr, /route file .*routes\.txt line 2, column 3: bad regular expression 't_\(orders'/);
});

test('routing by a JSON field, with dead letters for records it cannot route', { timeout: 120000 }, async () => {
  const kinds = ['signup', 'login', 'purchase'];
  const good = Array.from({ length: 600 }, (_, i) => ({ id: i, type: kinds[i % 3], user: `u${i % 17}`, n: i * 2 }));
  const bad = [
    [{ id: 9001, user: 'no type' }, "route: the value has no field 'type'"],
    [{ id: 9002, type: 'bad.name' }, "route: 'bad.name' is not a table name"],
    [{ id: 9003, type: null }, "route: field 'type' is null, not a string"],
    ['not json at all', 'route: the value is not JSON'],
    [{ id: 9004, type: 'dlq' }, "route: 'dlq' names the dead-letter table lake.dlq"],
  ];
  const all = [...good.slice(0, 300), ...bad.map(b => b[0]), ...good.slice(300)];
  await send('events', all);
  drain('--topic', 'events', '--table-from', 'field:type', '--table', 'lake', '--with-kafka-columns');
  assert.deepEqual(tables('lake'), ['dlq', 'login', 'purchase', 'signup']);
  for (const kind of kinds) {
    assertTableHolds(`lake.${kind}`, good.filter(e => e.type === kind), ['id', 'type', 'user', 'n']);
    for (const r of rows(`SELECT _kafka_topic FROM lake.${kind}`)) assert.equal(r._kafka_topic, 'events');
  }
  const dead = rows('SELECT topic, error, raw FROM lake.dlq ORDER BY error');
  assert.equal(dead.length, bad.length, JSON.stringify(dead));
  for (const [value, reason] of bad) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const found = dead.find(d => d.error.startsWith(reason));
    assert.ok(found, `a dead letter starting "${reason}" in ${JSON.stringify(dead)}`);
    assert.equal(Buffer.from(found.raw, 'hex').toString(), text);
    assert.equal(found.topic, 'events');
  }
  // Field routing reads JSON: with Avro or Protobuf it is refused at start-up.
  assert.throws(() => drain('--topic', 'events', '--table-from', 'field:type', '--table', 'lake', '--format', 'avro',
                            '--registry', 'http://127.0.0.1:1'),
                e => e.status === 2 && /reads the field from JSON values/.test(e.stderr));
  assert.throws(() => drain('--topics', 'x.*', '--table', 'lake', '--mode', 'upsert', '--key', 'id'),
                e => e.status === 2 && /cannot be combined with --mode upsert/.test(e.stderr));
});

test('routing with --transform: every routed table gets the transform\'s rows, rejected rows are dead letters',
  { timeout: 120000 }, async () => {
    await createTopics([['tx_events', 2]]);
    const events = Array.from({ length: 60 }, (_, id) => ({
      id, type: id % 3 === 0 ? 'beta' : 'alpha', amount: id * 10, tag: id === 7 ? 'x7' : String(id * 3) }));
    await send('tx_events', events);
    const schema = join(dir, 'tx_events.schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 'type', required: false, type: 'string' },
      { id: 3, name: 'amount', required: false, type: 'long' }, { id: 4, name: 'tag', required: false, type: 'string' }] }));
    const transform = 'SELECT id, upper(type) AS kind, amount * 2 AS doubled, CAST(tag AS bigint) AS tagn ' +
      'FROM events WHERE amount >= 50';
    drain('--topic', 'tx_events', '--table-from', 'field:type', '--table', 'shop.tx_*', '--schema', schema,
          '--transform', transform);
    assert.deepEqual(tables('shop').filter(t => t.startsWith('tx_')), ['tx_alpha', 'tx_beta', 'tx_dlq']);
    const kept = events.filter(e => e.amount >= 50 && e.id !== 7);
    for (const type of ['alpha', 'beta']) {
      const want = kept.filter(e => e.type === type)
        .map(e => ({ id: e.id, kind: type.toUpperCase(), doubled: e.amount * 2, tagn: Number(e.tag) }));
      assertTableHolds(`shop.tx_${type}`, want, ['id', 'kind', 'doubled', 'tagn']);
      // The table is the transform's output, made with its columns.
      assert.deepEqual(Object.keys(rows(`SELECT * FROM shop.tx_${type} LIMIT 1`)[0]), ['id', 'kind', 'doubled', 'tagn']);
    }
    const dead = rows('SELECT "offset", error, raw FROM shop.tx_dlq');
    assert.equal(dead.length, 1, JSON.stringify(dead));
    assert.match(dead[0].error, /^transform: /, dead[0].error);
    assert.equal(JSON.parse(Buffer.from(dead[0].raw, 'hex').toString()).id, 7);
    // A second run adds nothing.
    drain('--topic', 'tx_events', '--table-from', 'field:type', '--table', 'shop.tx_*', '--schema', schema,
          '--transform', transform);
    assert.equal(count('shop.tx_alpha') + count('shop.tx_beta'), kept.length);
    // What a transform cannot be combined with is refused before anything is made.
    assert.throws(() => drain('--topics', 'tx_.*', '--table', 'lake', '--transform', transform),
                  e => e.status === 2 && /--transform needs --schema/.test(e.stderr));
    assert.throws(() => drain('--topics', 'tx_.*', '--table', 'lake', '--transform', transform, '--schema', schema,
                              '--format', 'avro', '--registry', 'http://127.0.0.1:1'),
                  e => e.status === 2 && /--format avro cannot be combined with --transform/.test(e.stderr));
    assert.throws(() => drain('--topics', 'tx_.*', '--table', 'lake', '--transform', transform, '--schema', schema,
                              '--evolve'),
                  e => e.status === 2 && /--evolve cannot be combined with --transform/.test(e.stderr));
  });

test('killed with SIGKILL mid-drain and restarted, every table holds each of its events once', { timeout: 180000 },
  async () => {
    const per = 4000;
    const make = (topic, base) => Array.from({ length: per }, (_, i) => ({ id: base + i, src: topic, v: i % 97 }));
    const data = { k_a: make('k_a', 0), k_b: make('k_b', 100000), k_c: make('k_c', 200000) };
    await createTopics([['k_a', 2], ['k_b', 2], ['k_c', 1]]);
    for (const [topic, events] of Object.entries(data)) await send(topic, events);
    const args = streamArgs('--topics', 'k_.*', '--table', 'crash', '--max-batch-records', '200');
    const start = () => {
      const job = spawn(floe, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      job.log = '';
      job.stderr.on('data', chunk => { job.log += chunk; });
      job.exited = new Promise(resolve => job.on('exit', resolve));
      return job;
    };
    const checkpoints = () => {
      try {
        return snapshots('crash.dlq').length;
      } catch {
        return 0;
      }
    };
    const first = start();
    try {
      await waitFor(`a few committed batches (log: ${first.log.slice(-400)})`, () => checkpoints() >= 4,
                    { timeoutMs: 60000, intervalMs: 20 });
    } finally {
      first.kill('SIGKILL');
      await first.exited;
    }
    const total = () => Object.keys(data).reduce((n, t) => {
      try {
        return n + count(`crash.${t}`);
      } catch {
        return n;
      }
    }, 0);
    assert.ok(total() < 3 * per, 'the kill came before the drain finished');

    // Restarted; meanwhile a topic appears that the regex matches.
    const second = start();
    try {
      await createTopics([['k_late', 1]]);
      data.k_late = make('k_late', 300000).slice(0, 500);
      await send('k_late', data.k_late);
      await waitFor(`every event in (log: ${second.log.slice(-400)})`, () => {
        for (const [topic, events] of Object.entries(data)) {
          if (count(`crash.${topic}`) < events.length) return false;
        }
        return true;
      }, { timeoutMs: 90000, intervalMs: 250 });
    } finally {
      second.kill('SIGTERM');
      await second.exited;
    }
    for (const [topic, events] of Object.entries(data)) {
      assertTableHolds(`crash.${topic}`, events, ['id', 'src', 'v']);
      await assertDuckDbReads(`crash.${topic}`, events, ['id', 'src', 'v']);
    }
    assert.equal(count('crash.dlq'), 0);
  });
