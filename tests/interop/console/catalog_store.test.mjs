// The playground moves the catalog's backing store while `floe up` runs (issue #31): from
// SQLite to a real PostgreSQL (a throwaway server from Debian's package) and back, clicked in
// Debian's chromium through playwright-core. node-postgres (`pg`, a client nobody here wrote)
// reads the pointer rows in PostgreSQL; a store that does not answer, or a URI that is not
// one, is refused with its code and the catalog stays up on SQLite; the catalog box and its
// "At scale" settings name the store; the reconciliation is equal after each move.
// Screenshots go to $FLOE_BUILD_DIR/test-artifacts/console-catalog-store/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ConsoleSession } from './console_session.mjs';
import { startPostgres } from '../support/postgres_server.mjs';
import { freePort, waitFor } from '../support/waiting.mjs';

const session = new ConsoleSession('console-catalog-store');
let postgres;
let page;
let base;
const pipeline = () => session.pipeline();
const post = (pathname, body) => session.post(pathname, body);
const shot = (name) => session.shot(name);

// The catalog's rows in PostgreSQL, as node-postgres reads them.
async function postgresRows(sql, params = []) {
  const client = new pg.Client({ connectionString: postgres.uri });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

// Pauses the generator, waits for every job to commit everything, and expects the
// reconciliation (orders, order state, payments, shipments) equal; then sends again.
async function assertReconciled(name) {
  await page.goto(`${base}/#/playground`);
  assert.equal((await post('/api/playground/traffic', { events_per_second: 0 })).status, 200);
  await waitFor('the lag to drain', async () => {
    const s = await pipeline();
    return s.generator.acknowledged === s.generator.sent && s.stream.consumer_lag === 0;
  }, { timeoutMs: 120000 });
  await waitFor('the reconciliation to be equal',
    async () => (await page.locator('[data-panel="reconciliation"] [data-equal]').getAttribute('data-equal')) === 'true',
    { timeoutMs: 90000 });
  const r = await (await fetch(`${base}/api/reconciliation`)).json();
  assert.equal(r.equal, true, JSON.stringify(r));
  assert.equal(r.committed, r.acknowledged_valid, JSON.stringify(r));
  assert.ok(r.topics.every((t) => t.equal && t.committed > 0), JSON.stringify(r.topics));
  await shot(name);
  await post('/api/playground/traffic', { events_per_second: 200 });
  return r;
}

// Types `backend` into the panel and clicks Switch (or Back to SQLite); resolves to the
// panel's answer once it has one.
async function switchFromPanel(backend) {
  await page.goto(`${base}/#/playground`);
  const panel = page.locator('[data-panel="catalog-store"]');
  const note = panel.locator('[data-fact="catalog-switch"]');
  if (backend === 'sqlite') {
    await panel.locator('[data-action="catalog-sqlite"]').click();
  } else {
    await panel.locator('[data-control="catalog-backend"]').fill(backend);
    await panel.locator('[data-action="catalog-switch"]').click();
  }
  await waitFor('the switch to answer', async () => ['true', 'false'].includes(await note.getAttribute('data-ok')),
    { timeoutMs: 60000 });
  return { ok: (await note.getAttribute('data-ok')) === 'true', text: await note.textContent() };
}

before(async () => {
  postgres = await startPostgres();
  assert.ok(postgres, 'PostgreSQL is installed (scripts/install-deps installs Debian\'s postgresql)');
  await session.start(['--traffic', '200', '--trigger', '2s', '--partitions', '2',
    '--broker-listen', `127.0.0.1:${await freePort()}`, '--broker-metrics-listen', '',
    '--catalog-listen', `127.0.0.1:${await freePort()}`, '--pg-listen', `127.0.0.1:${await freePort()}`,
    '--registry-listen', `127.0.0.1:${await freePort()}`, '--catalog-replica-listen', `127.0.0.1:${await freePort()}`]);
  base = session.base;
  await waitFor('rows in the table', async () => (await pipeline()).table?.rows > 0);
  page = await session.openBrowser({ width: 1440, height: 1000 });
});

after(async () => {
  await session.stop();
  postgres?.stop();
});

test('a store that does not answer, or a URI that is none, is refused and the catalog stays up on SQLite', async () => {
  const before = await pipeline();
  assert.equal(before.catalog_store.kind, 'sqlite');
  const answer = await switchFromPanel(`postgresql://postgres:hunter2@127.0.0.1:${await freePort()}/postgres`);
  assert.equal(answer.ok, false, answer.text);
  assert.match(answer.text, /\[catalog store unreachable\]/);
  assert.doesNotMatch(answer.text, /hunter2/);
  await shot('refused-unreachable');
  for (const [body, code] of [
    [{ backend: 'mysql://root@127.0.0.1/catalog' }, 'invalid catalog backend'],
    [{ backend: 'postgresql://postgres@127.0.0.1/db?no_such_option=1' }, 'invalid catalog backend'],
  ]) {
    const { status, body: refused } = await post('/api/playground/catalog-backend', body);
    assert.equal(status, 400, JSON.stringify(refused));
    assert.equal(refused.error.code, code, JSON.stringify(refused));
  }
  assert.equal((await post('/api/playground/catalog-backend', {})).status, 400);
  const s = await pipeline();
  assert.equal(s.catalog_store.kind, 'sqlite');
  assert.equal(s.roles.find((r) => r.name === 'catalog').state, 'running');
  await waitFor('commits to go on', async () => (await pipeline()).table.snapshot_id !== before.table.snapshot_id);
});

test('the catalog moves to PostgreSQL from the panel, and commits land there', async () => {
  assert.equal((await post('/api/playground/bring-up', { role: 'catalog replica' })).status, 200);
  const answer = await switchFromPanel(postgres.uri);
  assert.equal(answer.ok, true, answer.text);
  assert.match(answer.text, /Moved .* to postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);
  // GET /api/pipeline answers from the console's last sample (taken every second), so the
  // switch shows there a moment after its answer.
  let s = await waitFor('the pipeline to name PostgreSQL', async () => {
    const p = await pipeline();
    return p.catalog_store.kind === 'postgresql' ? p : null;
  });
  assert.equal(s.endpoints.catalog_backend, postgres.uri);
  assert.equal(s.roles.find((r) => r.name === 'catalog replica').state, 'running');
  const tables = (await postgresRows(
    "SELECT table_namespace || '.' || table_name AS name FROM iceberg_tables WHERE catalog_name = 'default'"))
    .map((r) => r.name);
  for (const table of ['shop.orders', 'shop.order_state', 'shop.payments', 'shop.shipments']) {
    assert.ok(tables.includes(table), `${table} in ${tables}`);
  }
  // The pointer PostgreSQL holds is the one the REST catalog serves, and it moves on.
  const first = (await postgresRows("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = 'default' " +
    "AND table_namespace = 'shop' AND table_name = 'orders'"))[0].metadata_location;
  await waitFor('a commit through the catalog on PostgreSQL', async () => {
    const [row] = await postgresRows("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = 'default' " +
      "AND table_namespace = 'shop' AND table_name = 'orders'");
    s = await pipeline();
    return row.metadata_location !== first && row.metadata_location === s.table.metadata_location;
  }, { timeoutMs: 60000 });

  // The map's catalog box and its page name the store.
  await page.goto(`${base}/#/map`);
  await waitFor('the catalog box to say PostgreSQL',
    async () => (await page.locator('[data-box="table"] [data-metric="catalog_store"]').textContent()) === 'PostgreSQL');
  await page.goto(`${base}/#/box/table`);
  const settings = page.locator('[data-settings="catalog-backend"]');
  await settings.waitFor();
  assert.match(await settings.textContent(), new RegExp(`floe up --catalog-backend ${postgres.uri.replace(/[.]/g, '\\.')}`));
  await shot('on-postgresql');
  await assertReconciled('on-postgresql-reconciled');
});

test('and back to SQLite: PostgreSQL gives its rows up, nothing is lost', async () => {
  const answer = await switchFromPanel('sqlite');
  assert.equal(answer.ok, true, answer.text);
  const s = await waitFor('the pipeline to name SQLite', async () => {
    const p = await pipeline();
    return p.catalog_store.kind === 'sqlite' ? p : null;
  });
  assert.equal(s.catalog_store.backend, s.catalog_store.default_backend);
  assert.equal((await postgresRows("SELECT count(*)::int AS n FROM iceberg_tables WHERE catalog_name = 'default'"))[0].n, 0);
  await waitFor('commits to go on', async () => (await pipeline()).table.snapshot_id !== s.table.snapshot_id);
  await assertReconciled('back-on-sqlite-reconciled');
});

test('no errors in the browser console but the refusal the first test asked for', () => {
  // Chromium logs every non-2xx answer to a fetch; the unreachable store's 503 is the answer
  // the first test clicked for, once.
  const refusals = session.consoleErrors.filter((e) => /status of 503 \(Service Unavailable\)/.test(e));
  assert.equal(refusals.length, 1, JSON.stringify(session.consoleErrors));
  assert.deepEqual(session.consoleErrors.filter((e) => !refusals.includes(e)), []);
});
