// `floe stream --transform` end to end, with clients and readers nobody here wrote: kafkajs
// (npm) produces hand-made events to `floe broker`; the job reshapes them with a SELECT (rename,
// upper(), a CAST that fails on one event, a WHERE) into shop.items through the SQLite catalog;
// icebird (npm) reads the table and its dead-letter table back; the job's /metrics is scraped
// while it runs continuously.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { serveFolder } from '../support/folder_server.mjs';
import { readTable, tableProperties } from '../support/sqlite_catalog_tables.mjs';
import { startBroker } from '../broker/broker_process.mjs';

const { Kafka, logLevel } = kafkajs;
const floe = process.env.FLOE_BIN;
const TRANSFORM = "SELECT id, upper(name) AS name_upper, CAST(qty AS bigint) * 2 AS double_qty " +
                  "FROM events WHERE id % 5 <> 0";
let dir, broker, folder;

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}



function streamArgs(...extra) {
  return ['stream', '--brokers', broker.address, '--topic', 'items', '--table', 'shop.items',
          '--catalog', `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'wh')}`,
          '--schema', join(dir, 'events.schema.json'), '--transform', TRANSFORM, '--trigger', '200ms', ...extra];
}

// Events id from..to; qty is a numeric string except for id 7 (and 27), whose CAST fails.
async function produce(from, to) {
  const kafka = new Kafka({ clientId: 'floe-transform-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const messages = [];
  for (let id = from; id <= to; id++) {
    messages.push({ value: JSON.stringify({ id, name: `item-${id}`, qty: id % 20 === 7 ? 'abc' : String(id * 10) }) });
  }
  await producer.send({ topic: 'items', acks: -1, messages });
  await producer.disconnect();
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-transform-'));
  folder = await serveFolder(dir);
  broker = await startBroker([], join(dir, 'broker'));
  run('topic', 'create', 'items', '--partitions', '2', '--brokers', broker.address);
  writeFileSync(join(dir, 'events.schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: false, type: 'long' },
      { id: 2, name: 'name', required: false, type: 'string' },
      { id: 3, name: 'qty', required: false, type: 'string' },
    ],
  }));
  await produce(1, 20);
});

after(async () => {
  await broker?.stop({ keepData: true });
  await folder.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the table holds the transformed rows, the failing event is a dead letter, the SQL is recorded', async () => {
  run(...streamArgs('--available-now'));
  const rows = (await readTable(join(dir, 'catalog.db'), folder, 'shop.items')).sort((a, b) => Number(a.id) - Number(b.id));
  const expected = [];
  for (let id = 1; id <= 20; id++) if (id % 5 !== 0 && id !== 7) expected.push(id);
  assert.deepEqual(rows.map(r => Number(r.id)), expected);
  for (const r of rows) {
    assert.deepEqual(Object.keys(r).sort(), ['double_qty', 'id', 'name_upper']);
    assert.equal(r.name_upper, `ITEM-${r.id}`);
    assert.equal(Number(r.double_qty), Number(r.id) * 20);
  }
  const dead = await readTable(join(dir, 'catalog.db'), folder, 'shop.items_dlq');
  assert.equal(dead.length, 1);
  assert.equal(dead[0].topic, 'items');
  assert.match(dead[0].error, /^transform: /);
  assert.equal(JSON.parse(Buffer.from(dead[0].raw).toString()).id, 7);

  const properties = tableProperties(join(dir, 'catalog.db'), 'shop.items');
  assert.equal(properties['floe.source.transform'], TRANSFORM);
  assert.equal(JSON.parse(properties['floe.source.event-schema']).fields.length, 3);
});

test('a running job serves its progress at /metrics', { timeout: 120000 }, async () => {
  await produce(21, 40);  // 16 more rows pass WHERE, 15 of them cast (27 fails).
  const job = spawn(floe, streamArgs('--metrics-listen', '127.0.0.1:0'), { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  job.stderr.on('data', chunk => { log += chunk; });
  try {
    let address;
    while (!(address = /metrics on http:\/\/(\S+)\/metrics/.exec(log)?.[1])) {
      assert.equal(job.exitCode, null, `floe stream exited: ${log}`);
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    const value = (text, series) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    let text;
    for (;;) {
      const response = await fetch(`http://${address}/metrics`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type'), /^text\/plain/);
      text = await response.text();
      if (value(text, 'floe_stream_rows_committed_total') >= 15) break;
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    assert.equal(value(text, 'floe_stream_rows_committed_total'), 15);
    assert.equal(value(text, 'floe_stream_dead_letters_total'), 1);
    assert.equal(value(text, 'floe_stream_records_in_total'), 20);
    assert.ok(value(text, 'floe_stream_files_written_total') >= 1);
    assert.ok(value(text, 'floe_stream_commit_seconds_count') >= 1);
    assert.ok(value(text, 'floe_stream_batch_seconds_count') >= 1);
    const lags = [...text.matchAll(/^floe_stream_lag\{partition="(\d+)"\} (\S+)$/gm)];
    assert.ok(lags.length >= 1, text);
    for (const [, , lag] of lags) assert.equal(Number(lag), 0);
  } finally {
    job.kill('SIGTERM');
    await new Promise(resolve => job.exitCode !== null ? resolve() : job.on('exit', resolve));
  }
  assert.equal((await readTable(join(dir, 'catalog.db'), folder, 'shop.items')).length, 30);
});

test('a transform whose output is not the existing table is refused with the difference', () => {
  const args = streamArgs('--available-now');
  args[args.indexOf('--transform') + 1] = 'SELECT id, lower(name) AS name_lower FROM events';
  let error;
  try { run(...args); } catch (e) { error = e; }
  assert.ok(error, 'the job must refuse the table');
  assert.notEqual(error.status, 0);
  assert.match(error.stderr, /does not match --transform/);
  assert.match(error.stderr, /name_upper|name_lower/);
});
