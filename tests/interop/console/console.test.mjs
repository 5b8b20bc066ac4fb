// The console end to end: `floe up` on free loopback ports with a fresh data folder, driven
// through Debian's chromium by playwright-core. The map's numbers rise, a box page opens, a SQL
// query draws a chart, the Orders dashboard refreshes by itself, and in the playground taking
// the stream job down raises the lag while bringing it back drains it with the reconciliation
// equal. Screenshots go to $FLOE_BUILD_DIR/test-artifacts/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { freePort, waitFor } from '../support/waiting.mjs';
import { ConsoleSession } from './console_session.mjs';

const session = new ConsoleSession('console');
let pgPort;
let page;
let base;
const shot = (name) => session.shot(name);

const number = (text) => Number(String(text).replace(/[^0-9.\-]/g, '')) || 0;

async function metric(box, id) {
  return number(await page.locator(`[data-box="${box}"] [data-metric="${id}"]`).textContent());
}

before(async () => {
  pgPort = await freePort();
  await session.start(['--traffic', '200', '--trigger', '1s', '--partitions', '2',
    '--broker-listen', `127.0.0.1:${await freePort()}`, '--broker-metrics-listen', '',
    '--catalog-port', String(await freePort()), '--pg-listen', `127.0.0.1:${pgPort}`,
    '--registry-listen', `127.0.0.1:${await freePort()}`]);
  base = session.base;
  page = await session.openBrowser({ width: 1440, height: 900 });
});

after(() => session.stop());

test('the map shows every box and its numbers rise', async () => {
  await page.goto(`${base}/#/map`);
  for (const box of ['generator', 'broker', 'stream', 'storage', 'table', 'query']) {
    await page.locator(`[data-box="${box}"]`).waitFor();
  }
  const first = await waitFor('events in the broker', async () => (await metric('broker', 'end_offset')) || null);
  await waitFor('the end offset to rise', async () => (await metric('broker', 'end_offset')) > first);
  await waitFor('rows in the table', async () => (await metric('table', 'rows')) > 0);
  await waitFor('events/s in', async () => (await metric('broker', 'events_per_second')) > 0);
  const rows = await metric('table', 'rows');
  await waitFor('the table to grow', async () => (await metric('table', 'rows')) > rows);
  assert.ok((await metric('table', 'files')) > 0);
  await shot('map');
});

test('psql on the PostgreSQL port sees the rows arrive', async () => {
  // Debian's psql, a client nobody here wrote.
  const count = () => Number(execFileSync('psql', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'floe', '-d', 'floe',
    '-At', '-c', 'SELECT count(*) FROM floe.shop.orders'], { env: { ...process.env, PGCONNECT_TIMEOUT: '10' } }).toString().trim());
  const first = await waitFor('rows through psql', async () => count() || null);
  await waitFor('more rows through psql', async () => count() > first);
});

test('a box opens its page', async () => {
  await page.locator('[data-box="stream"]').click();
  await page.waitForURL(/#\/box\/stream$/);
  await page.locator('[data-page="stream"] [data-list="commits"] tbody tr').first().waitFor();
  await shot('box-stream');
  // Each box's own log lines: the stream jobs' commits here, the broker's start-up there.
  await page.locator('[data-log="stream"] span', { hasText: 'committed snapshot' }).first().waitFor();
  assert.equal(await page.locator('[data-log="stream"] span', { hasText: '[broker]' }).count(), 0);
  await page.goto(`${base}/#/box/broker`);
  await page.locator('[data-topic="orders"] tbody tr').first().waitFor();
  assert.equal(await page.locator('[data-topic="orders"] tbody tr').count(), 2);
  await page.locator('[data-log="broker"] span', { hasText: 'listening on' }).first().waitFor();
  const logs = await (await fetch(`${base}/api/logs/broker?lines=3`)).json();
  assert.equal(logs.source, 'memory');
  assert.ok(logs.lines.length >= 1 && logs.lines.length <= 3, JSON.stringify(logs));
  assert.ok(logs.lines.every((line) => line.includes('[broker]')), JSON.stringify(logs));
  assert.equal((await fetch(`${base}/api/logs/coffee`)).status, 404);
  assert.equal((await fetch(`${base}/api/logs/broker?lines=0`)).status, 400);
  assert.equal((await fetch(`${base}/api/logs/broker?lines=5000`)).status, 400);
  await page.goto(`${base}/#/box/table`);
  await page.locator('[data-list="schema"] tbody tr').first().waitFor();
  const columns = await page.locator('[data-list="schema"] tbody tr td:nth-child(2)').allTextContents();
  for (const name of ['event_id', 'ts', 'type', 'order_id', 'amount']) assert.ok(columns.includes(name), columns.join(','));
  await shot('box-table');
  // The generator's page counts the payments and shipments it sent, each topic apart.
  await page.goto(`${base}/#/box/generator`);
  for (const topic of ['payments', 'shipments']) {
    await waitFor(`acknowledged ${topic}`,
      async () => number(await page.locator(`[data-fact="acknowledged_${topic}"]`).textContent()) > 0);
  }
});

test('a SQL query renders as a chart and a table', async () => {
  await page.goto(`${base}/#/sql`);
  await page.locator('textarea.sql').fill('SELECT region, count(*) AS events\nFROM floe.shop.orders\nGROUP BY region\nORDER BY region');
  await page.locator('[data-action="run"]').click();
  await page.locator('figure[data-chart="bar"] rect.bar').first().waitFor();
  const regions = await page.locator('[data-role="result-table"] tbody tr').count();
  assert.ok(regions >= 2, `${regions} regions`);
  assert.equal(await page.locator('figure[data-chart="bar"] rect.bar').count(), regions);
  await shot('sql');
});

test('the Orders dashboard refreshes by itself', async () => {
  await page.goto(`${base}/#/orders`);
  const updated = page.locator('[data-role="updated"]');
  await waitFor('two refreshes', async () => Number(await updated.getAttribute('data-refreshes')) >= 2, { timeoutMs: 30000 });
  for (const panel of ['per-minute', 'revenue', 'funnel', 'status', 'customers', 'products', 'payments', 'destinations']) {
    const errors = await page.locator(`[data-panel="${panel}"] .error`).allTextContents();
    assert.deepEqual(errors, [], `panel ${panel}`);
  }
  await page.locator('[data-panel="revenue"] rect.bar').first().waitFor();
  // One line per event type (a single minute is a single dot, so wait for the lines to exist).
  await page.locator('[data-panel="per-minute"] figure[data-chart="line"] polyline.line').first().waitFor({ state: 'attached' });
  assert.ok(await page.locator('[data-panel="per-minute"] polyline.line').count() >= 3);
  assert.ok(number(await page.locator('[data-step="created"] .funnel-value').textContent()) > 0);
  // The upsert job's table: one bar per current status, once its first batch committed.
  await page.locator('[data-panel="status"] rect.bar').first().waitFor({ timeout: 30000 });
  // Nested data: the orders' line items (UNNEST) and the state table's shipping addresses.
  await page.locator('[data-panel="products"] rect.bar').first().waitFor({ timeout: 30000 });
  assert.match(await page.locator('[data-panel="products"]').textContent(), /SKU-\d{5}/);
  await page.locator('[data-panel="destinations"] rect.bar').first().waitFor({ timeout: 30000 });
  // A join of orders with shop.payments: bars per region, one series per payment method.
  await page.locator('[data-panel="payments"] rect.bar').first().waitFor({ timeout: 30000 });
  const legend = await page.locator('[data-panel="payments"] .legend').textContent();
  for (const method of ['card', 'paypal']) assert.ok(legend.includes(method), legend);
  assert.match(await page.locator('[data-panel="payments"]').textContent(), /us-east/);
  assert.deepEqual(await page.locator('[data-panel="payments"] .error').allTextContents(), []);
  await shot('orders');
});

test('taking the stream job down raises the lag; bringing it back drains it and reconciles', async () => {
  await page.goto(`${base}/#/playground`);
  // Pause the generator so the counts can settle, then pile up a burst behind the stopped job.
  await page.locator('[data-control="traffic"]').evaluate((slider) => {
    slider.value = '0';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await waitFor('the generator to pause', async () => (await (await fetch(`${base}/api/pipeline`)).json()).generator?.paused);
  const role = page.locator('[data-role="stream job"]');
  await role.locator('[data-action="take-down"]').click();
  await waitFor('the stream job to be down', async () => (await role.getAttribute('data-state')) === 'down');
  await page.locator('input[aria-label="burst size"]').fill('2000');
  await page.locator('[data-action="burst"]').click();
  await waitFor('the lag to rise', async () => number(await page.locator('[data-metric="consumer_lag"]').textContent()) >= 2000);
  await shot('playground-stream-down');

  await role.locator('[data-action="bring-up"]').click();
  await waitFor('the stream job to run', async () => (await role.getAttribute('data-state')) === 'running');
  await waitFor('the lag to drain', async () => number(await page.locator('[data-metric="consumer_lag"]').textContent()) === 0);
  await waitFor('the reconciliation to be equal',
    async () => (await page.locator('[data-panel="reconciliation"] [data-equal]').getAttribute('data-equal')) === 'true');
  const count = async (name) => number(await page.locator(`[data-count="${name}"] .recon-value`).textContent());
  const acknowledged = await count('acknowledged');
  const committed = await count('committed');
  const deadLettered = await count('dead-lettered');
  const queryable = await count('queryable');
  assert.equal(await count('produced'), acknowledged);
  assert.equal(committed + deadLettered, acknowledged);
  assert.equal(queryable, committed);
  // The payments and shipments reconcile too, each topic against its own table.
  for (const topic of ['payments', 'shipments']) {
    const row = page.locator(`[data-list="topics"] [data-topic="${topic}"]`);
    assert.equal(await row.getAttribute('data-topic-equal'), 'true', topic);
    const [rows, acked] = (await row.locator('.recon-value').textContent()).split('/').map(number);
    assert.ok(acked > 0, `${topic}: ${acked} acknowledged`);
    assert.equal(rows, acked, topic);
  }
  const reconciliation = await (await fetch(`${base}/api/reconciliation`)).json();
  assert.deepEqual(reconciliation.topics.map((t) => [t.topic, t.table]),
    [['payments', 'shop.payments'], ['shipments', 'shop.shipments']]);
  for (const t of reconciliation.topics) {
    assert.equal(t.committed, t.acknowledged_valid, t.topic);
    assert.equal(t.queryable, t.committed, t.topic);
    assert.equal(t.dead_lettered, 0, t.topic);
  }
  await shot('playground-reconciled');
});

test('no errors in the browser console', () => {
  assert.deepEqual(session.consoleErrors, []);
});
