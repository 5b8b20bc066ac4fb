// The playground's rewiring and strain scenarios end to end (issue #31): `floe up` on free
// loopback ports, driven through Debian's chromium by playwright-core. The stream job is
// rewired from the panel (and refused bad values through the API), its table's partition spec
// evolved; the small-files scenario
// piles up files with a 1 s trigger and compaction off, then compaction makes the count fall;
// the freshness scenario times a marker event under snapshot and live reads; the catalog and
// the broker go down and come back with commits resumed and the producer's buffer delivered; the Orders
// dashboard switches to snapshot-only reads, which miss exactly the events a stopped job left
// in the broker; each box page shows its configuration and the settings that point Kafka,
// Spark, S3 or Trino at it, and foreign clients (kafkajs, iceberg-js, trino-client) connect
// with the addresses those settings name. Every step ends with the reconciliation equal. Screenshots go to
// $FLOE_BUILD_DIR/test-artifacts/console-playground/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IcebergRestCatalog } from 'iceberg-js';
import kafkajs from 'kafkajs';
import { Trino } from 'trino-client';
import { freePort, waitFor } from '../support/waiting.mjs';
import { ConsoleSession } from './console_session.mjs';

const session = new ConsoleSession('console-playground');
let page;
let base;
const pipeline = () => session.pipeline();
const post = (pathname, body) => session.post(pathname, body);
const shot = (name) => session.shot(name);

const number = (text) => Number(String(text).replace(/[^0-9.\-]/g, '')) || 0;

// `properties`: the query's session properties (the HTTP API's `session`).
async function count(sql, properties) {
  const { status, body } = await post('/api/query', properties ? { sql, session: properties } : { sql });
  assert.equal(status, 200, JSON.stringify(body));
  return Number(body.rows[0][0]);
}

async function metric(panel, id) {
  return page.locator(`[data-panel="${panel}"] [data-metric="${id}"]`).textContent();
}

// Pauses the generator, waits for the job to commit everything and the reconciliation panel to
// say equal, and checks its numbers add up.
async function assertReconciled(name) {
  await page.goto(`${base}/#/playground`);
  const { status } = await post('/api/playground/traffic', { events_per_second: 0 });
  assert.equal(status, 200);
  await waitFor('the lag to drain', async () => {
    const s = await pipeline();
    return s.generator.acknowledged === s.generator.sent && s.stream.consumer_lag === 0;
  }, { timeoutMs: 120000 });
  await waitFor('the reconciliation to be equal',
    async () => (await page.locator('[data-panel="reconciliation"] [data-equal]').getAttribute('data-equal')) === 'true',
    { timeoutMs: 60000 });
  const r = await (await fetch(`${base}/api/reconciliation`)).json();
  assert.equal(r.equal, true, JSON.stringify(r));
  assert.equal(r.committed, r.acknowledged_valid, JSON.stringify(r));
  assert.equal(r.queryable, r.committed, JSON.stringify(r));
  // shop.order_state, the upsert job's table: each order's latest event, once.
  assert.equal(r.state.stale, 0, JSON.stringify(r));
  assert.equal(r.state.rows, r.state.orders, JSON.stringify(r));
  assert.ok(r.state.rows > 0, JSON.stringify(r));
  const stateRow = await page.locator('[data-count="order state"] .recon-value').textContent();
  assert.equal(Number(stateRow.replace(/[^0-9]/g, '')), r.state.rows);
  await shot(name);
  await post('/api/playground/traffic', { events_per_second: 200 });
  return r;  // Taken while the traffic was paused: once it resumes, an event may be in flight.
}

before(async () => {
  await session.start(['--traffic', '200', '--trigger', '3s', '--partitions', '2',
    '--broker-listen', `127.0.0.1:${await freePort()}`, '--broker-metrics-listen', '',
    '--catalog-port', String(await freePort()), '--pg-listen', `127.0.0.1:${await freePort()}`,
    '--registry-listen', `127.0.0.1:${await freePort()}`, '--catalog-replica-listen', `127.0.0.1:${await freePort()}`]);
  base = session.base;
  await waitFor('rows in the table', async () => (await pipeline()).table?.rows > 0);
  page = await session.openBrowser({ width: 1440, height: 1000 });
});

after(() => session.stop());

test('the rewire panel shows the job\'s settings and applies new ones', async () => {
  await page.goto(`${base}/#/playground`);
  const now = page.locator('[data-fact="stream-settings"]');
  await waitFor('the current settings', async () => (await now.textContent()).includes('trigger 3 s'));
  assert.equal(await page.locator('[data-control="trigger_ms"]').inputValue(), '3');
  await page.locator('[data-control="trigger_ms"]').fill('2');
  await page.locator('[data-control="target_file_size_mb"]').fill('64');
  await page.locator('[data-action="rewire"]').click();
  await waitFor('the new settings', async () => (await now.textContent()).includes('files up to 64 MB'));
  assert.match(await now.textContent(), /trigger 2 s · partitioned by hour\(ts\)/);
  const s = await pipeline();
  assert.equal(s.stream.settings.trigger_ms, 2000);
  assert.equal(s.stream.settings.target_file_size_mb, 64);
  assert.ok(s.roles.find((r) => r.name === 'stream job').describe.includes('trigger 2000 ms'));
  // The restarted job commits on.
  const rows = s.table.rows;
  await waitFor('the table to grow after the rewire', async () => (await pipeline()).table.rows > rows);
  await shot('rewired');
});

test('the API refuses settings it cannot apply, and changes nothing', async () => {
  for (const [body, message] of [
    [{ trigger_ms: 5 }, /trigger_ms must be between 100 and 600000, not 5/],
    [{ compaction: 'yes' }, /compaction must be true or false/],
    [{ target_file_size_mb: 4096 }, /target_file_size_mb must be between 1 and 1024/],
    [{ triggers: 1000 }, /unknown stream setting 'triggers'/],
    [{ workers: 9 }, /workers must be between 1 and 4, not 9/],
    [{ partition: ['hour(nope)'] }, /partition 'hour\(nope\)'/],
    [{}, /at least one stream setting/],
  ]) {
    const { status, body: answer } = await post('/api/playground/stream', body);
    assert.equal(status, 400, JSON.stringify(answer));
    assert.match(answer.error.message, message);
  }
  assert.equal((await pipeline()).stream.settings.trigger_ms, 2000);
});

test('small files: a 1 s trigger without compaction piles up files; compaction makes them fall', async () => {
  await page.goto(`${base}/#/playground`);
  const files = async () => number(await metric('small-files', 'files'));
  await page.locator('[data-action="small-files-start"]').click();
  await waitFor('compaction off and a 1 s trigger', async () => {
    const s = (await pipeline()).stream.settings;
    return s.trigger_ms === 1000 && s.compaction === false;
  });
  const start = await waitFor('the file count', files);
  let most = start;
  await waitFor('files to pile up', async () => {
    most = Math.max(most, await files());
    return most >= start + 15;
  }, { timeoutMs: 120000 });
  // Planning is timed and reads the manifests the appends wrote.
  assert.match(await metric('small-files', 'planning_ms'), /ms$/);
  assert.ok(number(await metric('small-files', 'manifests')) > 0);
  await page.locator('[data-panel="small-files"] figure[data-chart="line"]').first().waitFor();
  await shot('small-files-piling-up');

  // Paused, so no new small file races compaction: how fast a round is depends on the machine.
  assert.equal((await post('/api/playground/traffic', { events_per_second: 0 })).status, 200);
  await page.locator('[data-action="small-files-compact"]').click();
  await waitFor('compaction on', async () => (await pipeline()).stream.settings.compaction === true);
  await waitFor('the file count to fall', async () => (await files()) < most / 2, { timeoutMs: 240000 });
  await shot('small-files-compacted');
  await assertReconciled('small-files-reconciled');
});

test('freshness: a marker is seen by the live read and by the snapshot read, side by side', async () => {
  await page.goto(`${base}/#/playground`);
  // A 5 s trigger, so the snapshot read has something to wait for.
  await page.locator('[data-control="trigger_ms"]').fill('5');
  await page.locator('[data-action="rewire"]').click();
  await waitFor('a 5 s trigger', async () => (await pipeline()).stream.settings.trigger_ms === 5000);
  await page.locator('[data-action="freshness-probe"]').click();
  await waitFor('both reads to see the marker', async () =>
    (await metric('freshness', 'live_ms')).endsWith(' ms') && (await metric('freshness', 'snapshot_ms')).endsWith(' ms'),
  { timeoutMs: 90000 });
  await page.locator('[data-panel="freshness"] figure[data-chart="bar"] rect.bar').first().waitFor();
  // Keep probing: more markers follow by themselves, one at a time.
  await page.locator('[data-control="freshness-repeat"]').check();
  await waitFor('two more probes', async () => {
    const probes = (await pipeline()).freshness.probes.filter((p) => p.live_ms !== null && p.snapshot_ms !== null);
    return probes.length >= 3;
  }, { timeoutMs: 120000 });
  await page.locator('[data-control="freshness-repeat"]').uncheck();
  await shot('freshness');
  // A second probe while one looks is refused, not queued.
  const { body: started } = await post('/api/playground/freshness-probe', {});
  if (started.ok) {
    const { status } = await post('/api/playground/freshness-probe', {});
    assert.ok(status === 409 || status === 200, String(status));
  }
  await waitFor('the last probe to end', async () => !(await pipeline()).freshness.running, { timeoutMs: 90000 });
  await assertReconciled('freshness-reconciled');
});

test('a dashboard reads snapshot only or live: the difference is what the stopped job left behind', async () => {
  // The session property is checked like SET SESSION would.
  const bad = await post('/api/query', { sql: 'SELECT 1', session: { freshness: 'recent' } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /'live' or 'snapshot'/);

  await post('/api/playground/traffic', { events_per_second: 0 });
  await waitFor('the lag to drain', async () => {
    const s = await pipeline();
    return s.generator.acknowledged === s.generator.sent && s.stream.consumer_lag === 0;
  }, { timeoutMs: 120000 });
  assert.equal((await post('/api/playground/take-down', { role: 'stream job' })).status, 200);
  const sent = (await pipeline()).generator.sent;
  assert.equal((await post('/api/playground/burst', { events: 500 })).status, 200);
  await waitFor('the burst acknowledged', async () => {
    const g = (await pipeline()).generator;
    return g.sent >= sent + 500 && g.acknowledged === g.sent;
  });
  const total = 'SELECT count(*) FROM floe.shop.orders';
  await waitFor('live reads to count the tail', async () =>
    (await count(total, { freshness: 'live' })) - (await count(total, { freshness: 'snapshot' })) > 0);
  const r = await (await fetch(`${base}/api/reconciliation`)).json();
  const live = await count(total, { freshness: 'live' });
  const snapshot = await count(total, { freshness: 'snapshot' });
  // The valid events of the burst: in the broker, not yet in the table.
  assert.equal(snapshot, r.committed);
  assert.equal(live - snapshot, (await pipeline()).generator.acknowledged_valid - r.committed);

  await page.goto(`${base}/#/orders`);
  await page.locator('[data-control="freshness"]').selectOption('snapshot');
  const updated = page.locator('[data-role="updated"]');
  await waitFor('a snapshot-only refresh', async () => (await updated.getAttribute('data-freshness')) === 'snapshot',
    { timeoutMs: 30000 });
  for (const panel of ['per-minute', 'revenue', 'funnel', 'status', 'customers', 'products', 'payments', 'destinations']) {
    assert.deepEqual(await page.locator(`[data-panel="${panel}"] .error`).allTextContents(), [], `panel ${panel}`);
  }
  await shot('orders-snapshot-only');
  // The choice is kept for the next visit.
  await page.goto(`${base}/#/map`);
  await page.goto(`${base}/#/orders`);
  assert.equal(await page.locator('[data-control="freshness"]').inputValue(), 'snapshot');
  await page.locator('[data-control="freshness"]').selectOption('live');

  assert.equal((await post('/api/playground/bring-up', { role: 'stream job' })).status, 200);
  await assertReconciled('dashboard-freshness-reconciled');
});

test('the catalog goes down: commits stall while the lag piles up; back up, they resume and reconcile', async () => {
  await page.goto(`${base}/#/playground`);
  const panel = '[data-panel="catalog-outage"]';
  await page.locator(`${panel} [data-action="catalog-outage-start"]`).click();
  await waitFor('the catalog to be down', async () => (await metric('catalog-outage', 'state')) === 'down');
  const triggerSeconds = (await pipeline()).stream.settings.trigger_ms / 1000;
  await waitFor('commits to stall', async () => number(await metric('catalog-outage', 'commit_age_s')) > 3 * triggerSeconds,
    { timeoutMs: 120000 });
  await waitFor('the lag to pile up', async () => number(await metric('catalog-outage', 'lag')) > 0);
  await page.locator(`${panel} figure[data-chart="line"]`).first().waitFor();
  await shot('catalog-outage');
  const stalledAt = (await pipeline()).stream.last_commit_ms;
  await page.locator(`${panel} [data-action="catalog-outage-end"]`).click();
  await waitFor('the catalog to run', async () => (await metric('catalog-outage', 'state')) === 'running');
  await waitFor('commits to resume', async () => (await pipeline()).stream.last_commit_ms > stalledAt, { timeoutMs: 120000 });
  await assertReconciled('catalog-outage-reconciled');
});

test('with a second catalog server on the same database, commits go on while the first is down', async () => {
  await page.goto(`${base}/#/playground`);
  const panel = '[data-panel="catalog-outage"]';
  await waitFor('the replica to be down until asked', async () => (await metric('catalog-outage', 'replica')) === 'down');
  await page.locator(`${panel} [data-action="catalog-replica-up"]`).click();
  await waitFor('the replica to run', async () => (await metric('catalog-outage', 'replica')) === 'running');
  await page.locator(`${panel} [data-action="catalog-outage-start"]`).click();
  await waitFor('the catalog to be down', async () => (await metric('catalog-outage', 'state')) === 'down');
  const downAt = Date.now();
  const triggerMs = (await pipeline()).stream.settings.trigger_ms;
  // Commits keep coming, through the replica: the time since the last one stays short.
  await waitFor('a commit through the second server', async () => (await pipeline()).stream.last_commit_ms > downAt + triggerMs,
    { timeoutMs: 60000 });
  const s = await pipeline();
  assert.equal(s.table.up, true, JSON.stringify(s.table));
  await shot('catalog-replica');
  await page.locator(`${panel} [data-action="catalog-outage-end"]`).click();
  await waitFor('the catalog to run', async () => (await metric('catalog-outage', 'state')) === 'running');
  await page.locator(`${panel} [data-action="catalog-replica-down"]`).click();
  await waitFor('the replica to be down', async () => (await metric('catalog-outage', 'replica')) === 'down');
  const switchedAt = Date.now();
  await waitFor('commits back on the first server', async () => (await pipeline()).stream.last_commit_ms > switchedAt + triggerMs,
    { timeoutMs: 60000 });
  await assertReconciled('catalog-replica-reconciled');
});

test('the broker goes down: the producer buffers; back up, every buffered event is acknowledged once', async () => {
  await page.goto(`${base}/#/playground`);
  const panel = '[data-panel="broker-outage"]';
  await page.locator(`${panel} [data-action="broker-outage-start"]`).click();
  await waitFor('the broker to be down', async () => (await metric('broker-outage', 'state')) === 'down');
  await waitFor('events to wait for acknowledgement', async () => number(await metric('broker-outage', 'unacknowledged')) > 100,
    { timeoutMs: 60000 });
  await shot('broker-outage');
  await page.locator(`${panel} [data-action="broker-outage-end"]`).click();
  await waitFor('the broker to run', async () => (await metric('broker-outage', 'state')) === 'running');
  await waitFor('the buffer to be delivered', async () => number(await metric('broker-outage', 'unacknowledged')) === 0,
    { timeoutMs: 120000 });
  const r = await assertReconciled('broker-outage-reconciled');
  assert.equal(r.failed, 0, JSON.stringify(r));
  assert.equal(r.acknowledged, r.produced, JSON.stringify(r));
});

test('partition evolution: new files take the new spec, the files already written keep theirs', async () => {
  await page.goto(`${base}/#/playground`);
  await page.locator('[data-control="partition"]').fill('day(ts), region');
  await page.locator('[data-action="rewire"]').click();
  await waitFor('the table\'s new spec', async () => {
    const fields = (await pipeline()).table.partition_fields;
    return fields.length === 2 && fields[0].transform === 'day' && fields[1].transform === 'identity';
  });
  await waitFor('files of both specs', async () => {
    const t = await (await fetch(`${base}/api/tables/shop/orders`)).json();
    return new Set((t.files || []).map((f) => f.spec_id)).size >= 2;
  }, { timeoutMs: 90000 });
  assert.match(await page.locator('[data-fact="stream-settings"]').textContent(), /partitioned by day\(ts\), region/);
  await shot('partition-evolved');
  await assertReconciled('partition-evolved-reconciled');
});

test('two workers split the topic in a rebalance, and back to one; nothing lost or doubled', async () => {
  await page.goto(`${base}/#/playground`);
  const members = () => page.locator('[data-panel="rewire"] [data-list="group-members"] tbody tr');
  await waitFor('one worker holding both partitions', async () => (await members().count()) === 1 &&
    (await members().first().locator('td').nth(1).textContent()) === '0, 1');
  const before = (await pipeline()).stream.group.rebalances;
  await page.locator('[data-control="workers"]').fill('2');
  await page.locator('[data-action="rewire"]').click();
  await waitFor('two workers with a partition each', async () => {
    const group = (await pipeline()).stream.group;
    return group.state === 'Stable' && group.members.length === 2 && group.members.every((m) => m.partitions.length === 1);
  });
  await waitFor('the panel to show them', async () => (await members().count()) === 2);
  const clients = await page.locator('[data-panel="rewire"] [data-list="group-members"] tbody tr td:first-child').allTextContents();
  assert.deepEqual(clients.sort(), ['floe-stream-worker-1', 'floe-stream-worker-2']);
  assert.ok((await pipeline()).stream.group.rebalances > before);
  assert.match(await page.locator('[data-fact="stream-settings"]').textContent(), /2 workers/);
  const rows = (await pipeline()).table.rows;
  await waitFor('commits from both', async () => (await pipeline()).table.rows > rows + 100);
  await shot('two-workers');
  await assertReconciled('two-workers-reconciled');
  await page.locator('[data-control="workers"]').fill('1');
  await page.locator('[data-action="rewire"]').click();
  await waitFor('one worker again', async () => {
    const group = (await pipeline()).stream.group;
    return group.state === 'Stable' && group.members.length === 1 && group.members[0].partitions.length === 2;
  });
  await assertReconciled('one-worker-reconciled');
});

// The text of one settings block on a box page.
async function settings(box, id) {
  await page.goto(`${base}/#/box/${box}`);
  const code = page.locator(`[data-section="at-scale"] [data-settings="${id}"] code`);
  await code.waitFor();
  return code.textContent();
}

// The value of `key=value` in a settings block.
function property(text, key) {
  const line = text.split('\n').find((l) => l.startsWith(`${key}=`));
  assert.ok(line, `${key} in:\n${text}`);
  return line.slice(key.length + 1);
}

test('each box page shows its configuration and what would replace it, and the settings it names work', async () => {
  const s = await pipeline();
  // Configuration: what this pipeline runs the box with.
  await page.goto(`${base}/#/box/stream`);
  const configuration = page.locator('[data-section="at-scale"] dl.facts');
  await waitFor('the stream job\'s configuration', async () =>
    (await configuration.textContent()).includes(`${s.stream.settings.trigger_ms / 1000} s`));
  assert.match(await configuration.textContent(), /floe\.offsets\.orders/);

  // A Kafka client at the bootstrap servers the order services' page names reads the topic.
  const producer = await settings('generator', 'kafka-producer');
  assert.equal(property(producer, 'acks'), 'all');
  const bootstrap = property(producer, 'bootstrap.servers');
  assert.equal(bootstrap, s.endpoints.brokers);
  const admin = new kafkajs.Kafka({ brokers: [bootstrap], logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets('orders');
  await admin.disconnect();
  assert.equal(offsets.length, s.endpoints.partitions);
  assert.ok(offsets.every((o) => Number(o.high) > 0), JSON.stringify(offsets));
  assert.match(await settings('broker', 'kafka-topic'), new RegExp(`--partitions ${s.endpoints.partitions} `));

  // Spark's Kafka source and catalog settings name the same broker and catalog.
  const job = await settings('stream', 'spark-job');
  assert.match(job, new RegExp(`\\.option\\("kafka\\.bootstrap\\.servers", "${bootstrap}"\\)`));
  assert.match(job, /\.option\("subscribe", "orders"\)/);
  const spark = await settings('stream', 'spark-catalog');
  assert.equal(property(spark, 'spark.sql.catalog.floe.type'), 'rest');
  assert.equal(property(spark, 'spark.sql.catalog.floe.uri'), s.endpoints.catalog);

  // An Iceberg REST client at the URI Trino's catalog file names loads the table.
  const trinoCatalog = await settings('table', 'trino-catalog');
  assert.equal(property(trinoCatalog, 'connector.name'), 'iceberg');
  assert.equal(property(trinoCatalog, 'iceberg.catalog.type'), 'rest');
  const uri = property(trinoCatalog, 'iceberg.rest-catalog.uri');
  const metadata = await new IcebergRestCatalog({ baseUrl: uri }).loadTable({ namespace: ['shop'], name: 'orders' });
  assert.ok(metadata.snapshots.length > 0);

  // S3 replaces the storage with the projects' own property names.
  const trinoS3 = await settings('storage', 'trino-s3');
  assert.equal(property(trinoS3, 'fs.native-s3.enabled'), 'true');
  assert.equal(property(await settings('storage', 'spark-s3'), 'spark.sql.catalog.floe.io-impl'),
    'org.apache.iceberg.aws.s3.S3FileIO');

  // A Trino client at the server the query engine's page names counts the orders.
  const cli = await settings('query', 'trino-cli');
  const server = /trino --server (\S+)/.exec(cli)[1];
  assert.equal(server, s.endpoints.query_http);
  let counted = null;
  for await (const result of await Trino.create({ server, catalog: 'floe', schema: 'shop', source: 'at-scale' })
    .query('SELECT count(*) FROM orders')) {
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    if (result.data?.length) counted = Number(result.data[0][0]);
  }
  assert.ok(counted > 0, String(counted));
  await page.goto(`${base}/#/box/query`);
  await page.locator('[data-section="at-scale"] [data-settings="trino-cli"]').waitFor();
  await shot('box-query-at-scale');
});

test('no errors in the browser console', () => {
  assert.deepEqual(session.consoleErrors, []);
});
