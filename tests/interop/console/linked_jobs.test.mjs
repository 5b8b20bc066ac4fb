// The payments' and shipments' jobs in the console (issue #31): each has a box on the pipeline
// map and a page of its own, the playground's rewire panel and small-files scenario choose
// which job they turn, a payments partition spec over the payments' own columns is Iceberg
// partition evolution of shop.payments, and the reconciliation (orders, order state, payments,
// shipments) stays equal. `floe up` on free loopback ports, driven through Debian's chromium by
// playwright-core. Screenshots go to $FLOE_BUILD_DIR/test-artifacts/console-linked-jobs/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, waitFor } from '../support/waiting.mjs';
import { ConsoleSession } from './console_session.mjs';

const session = new ConsoleSession('console-linked-jobs');
let page;
let base;
const pipeline = () => session.pipeline();
const post = (pathname, body) => session.post(pathname, body);
const shot = (name) => session.shot(name);

function linked(snapshot, topic) {
  return snapshot.linked.find((l) => l.topic === topic);
}

async function assertReconciled(name) {
  await page.goto(`${base}/#/playground`);
  assert.equal((await post('/api/playground/traffic', { events_per_second: 0 })).status, 200);
  await waitFor('the lag to drain', async () => {
    const s = await pipeline();
    return s.generator.acknowledged === s.generator.sent && s.stream.consumer_lag === 0 &&
      s.linked.every((l) => l.consumer_lag === 0);
  }, { timeoutMs: 120000 });
  await waitFor('the reconciliation to be equal',
    async () => (await page.locator('[data-panel="reconciliation"] [data-equal]').getAttribute('data-equal')) === 'true',
    { timeoutMs: 90000 });
  const r = await (await fetch(`${base}/api/reconciliation`)).json();
  assert.equal(r.equal, true, JSON.stringify(r));
  for (const t of r.topics) {
    assert.equal(t.committed, t.acknowledged_valid, JSON.stringify(t));
    assert.equal(t.queryable, t.committed, JSON.stringify(t));
  }
  await shot(name);
  await post('/api/playground/traffic', { events_per_second: 200 });
}

before(async () => {
  await session.start(['--traffic', '200', '--trigger', '2s', '--partitions', '2',
    '--broker-listen', `127.0.0.1:${await freePort()}`, '--broker-metrics-listen', '',
    '--catalog-listen', `127.0.0.1:${await freePort()}`, '--pg-listen', `127.0.0.1:${await freePort()}`,
    '--registry-listen', `127.0.0.1:${await freePort()}`, '--catalog-replica-listen', '']);
  base = session.base;
  await waitFor('rows in the payments and shipments tables', async () => {
    const s = await pipeline();
    return linked(s, 'payments')?.rows > 0 && linked(s, 'shipments')?.rows > 0;
  }, { timeoutMs: 90000 });
  page = await session.openBrowser({ width: 1440, height: 1100 });
});

after(() => session.stop());

test('the map has a box for the payments and for the shipments, each with a page', async () => {
  await page.goto(`${base}/#/map`);
  for (const topic of ['payments', 'shipments']) {
    const box = page.locator(`[data-box="${topic}"]`);
    await waitFor(`the ${topic} box's rows`, async () => Number((await box.locator('[data-metric="rows"]').textContent()).replace(/[^0-9]/g, '')) > 0);
    assert.equal(await box.getAttribute('data-state'), 'running');
  }
  await shot('map');
  await page.goto(`${base}/#/box/payments`);
  await page.locator('[data-page="payments"] [data-fact="rows"]').waitFor();
  await waitFor('the payments job\'s log lines', async () =>
    (await page.locator('[data-log="payments"] span').count()) > 0);
  const spark = page.locator('[data-section="at-scale"] [data-settings="spark-job"] code');
  await spark.waitFor();
  assert.match(await spark.textContent(), /\.option\("subscribe", "payments"\)/);
  // Its role's button takes the payments' job down, and back up.
  await page.locator('[data-action="take-down"]').click();
  await waitFor('the payments job down', async () => (await pipeline()).roles.find((r) => r.name === 'payments job').state === 'down');
  await page.locator('[data-action="bring-up"]').click();
  await waitFor('the payments job up', async () => (await pipeline()).roles.find((r) => r.name === 'payments job').state === 'running');
  await shot('payments-page');
});

test('the rewire panel turns the payments\' job: its own partition spec evolves shop.payments', async () => {
  await page.goto(`${base}/#/playground`);
  const panel = page.locator('[data-panel="rewire"]');
  await panel.locator('[data-control="rewire-job"]').selectOption('payments job');
  await waitFor('the payments\' settings in the panel', async () =>
    (await panel.locator('[data-fact="stream-settings"]').textContent()).includes('partitioned by day(ts)'));
  await panel.locator('[data-control="trigger_ms"]').fill('1');
  await panel.locator('[data-control="partition"]').fill('day(ts), method');
  await panel.locator('[data-action="rewire"]').click();
  await waitFor('the payments job rewired', async () => {
    const l = linked(await pipeline(), 'payments');
    return l.settings.trigger_ms === 1000 && l.partition_fields?.length === 2;
  });
  const s = await pipeline();
  assert.deepEqual(linked(s, 'shipments').settings.partition, ['day(ts)']);
  assert.deepEqual(s.stream.settings.partition, ['hour(ts)']);
  await waitFor('payments files of both specs', async () => {
    const t = await (await fetch(`${base}/api/tables/shop/payments`)).json();
    return new Set((t.files || []).map((f) => f.spec_id)).size >= 2;
  }, { timeoutMs: 90000 });
  // The orders' table has no method column: refused, with the reason.
  const { status, body } = await post('/api/playground/stream', { partition: ['day(ts)', 'method'] });
  assert.equal(status, 400, JSON.stringify(body));
  const unknown = await post('/api/playground/stream', { job: 'refunds job', trigger_ms: 1000 });
  assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
  await shot('payments-rewired');
  await assertReconciled('payments-rewired-reconciled');
});

test('small files on the shipments\' job: files pile up, compaction folds them', async () => {
  await page.goto(`${base}/#/playground`);
  const panel = page.locator('[data-panel="small-files"]');
  await panel.locator('[data-control="small-files-job"]').selectOption('shipments job');
  const files = async () => Number((await panel.locator('[data-metric="files"]').textContent()).replace(/[^0-9]/g, ''));
  await panel.locator('[data-action="small-files-start"]').click();
  await waitFor('the shipments\' job on a 1 s trigger without compaction', async () => {
    const l = linked(await pipeline(), 'shipments');
    return l.settings.trigger_ms === 1000 && l.settings.compaction === false;
  });
  assert.equal((await pipeline()).stream.settings.trigger_ms, 2000, 'the orders\' job is untouched');
  const start = await waitFor('the file count', files);
  let most = start;
  await waitFor('files to pile up', async () => {
    most = Math.max(most, await files());
    return most >= start + 10;
  }, { timeoutMs: 120000 });
  await shot('shipments-small-files');
  assert.equal((await post('/api/playground/traffic', { events_per_second: 0 })).status, 200);
  await panel.locator('[data-action="small-files-compact"]').click();
  await waitFor('compaction on', async () => linked(await pipeline(), 'shipments').settings.compaction === true);
  await waitFor('the file count to fall', async () => (await files()) < most / 2, { timeoutMs: 240000 });
  await shot('shipments-compacted');
  await assertReconciled('shipments-reconciled');
});

test('no errors in the browser console', () => {
  assert.deepEqual(session.consoleErrors, []);
});
