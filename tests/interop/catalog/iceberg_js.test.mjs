// iceberg-js (npm, nobody's code here) drives `floe catalog` over the Iceberg REST API:
// namespaces, tables, commits, concurrent committers, and the spec's error answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IcebergRestCatalog, IcebergError } from 'iceberg-js';
import { startCatalogServer } from '../support/catalog_server.mjs';

let dir;
let server;
let baseUrl;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-catalog-js-'));
  server = await startCatalogServer(dir);
  baseUrl = server.url;
});

after(() => {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const schema = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'order_id', type: 'long', required: true },
    { id: 2, name: 'ts', type: 'timestamptz', required: false },
    { id: 3, name: 'amount', type: 'decimal(10, 2)', required: false },
  ],
};

function catalog(options = {}) {
  return new IcebergRestCatalog({ baseUrl, ...options });
}

// An append commit on top of `metadata`, guarded the way Iceberg writers guard it.
function append(metadata, snapshotId) {
  const current = metadata['current-snapshot-id'];
  const parent = current === undefined || current === null || current === -1 ? null : current;
  const snapshot = {
    'snapshot-id': snapshotId,
    'sequence-number': metadata['last-sequence-number'] + 1,
    'timestamp-ms': Date.now(),
    'manifest-list': `${metadata.location}/metadata/snap-${snapshotId}.avro`,
    summary: { operation: 'append' },
    'schema-id': metadata['current-schema-id'],
  };
  if (parent !== null) snapshot['parent-snapshot-id'] = parent;
  return {
    requirements: [
      { type: 'assert-table-uuid', uuid: metadata['table-uuid'] },
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': parent },
    ],
    updates: [
      { action: 'add-snapshot', snapshot },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshotId },
    ],
  };
}

async function rejectsWith(promise, status, type) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof IcebergError, `expected IcebergError, got ${error}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.icebergType, type, error.message);
    assert.equal(error.icebergCode, status);
    return true;
  });
}

test('namespaces: create, nest, list, properties, drop', async () => {
  const c = catalog();
  await c.createNamespace({ namespace: ['analytics'] }, { properties: { owner: 'ana' } });
  await c.createNamespace({ namespace: ['analytics', 'events'] });
  await rejectsWith(c.createNamespace({ namespace: ['analytics'] }), 409, 'AlreadyExistsException');
  const top = await c.listNamespaces();
  assert.deepEqual(top.namespaces.map((n) => n.namespace ?? n), [['analytics']]);
  const nested = await c.listNamespaces({ parent: { namespace: ['analytics'] } });
  assert.deepEqual(nested.namespaces.map((n) => n.namespace ?? n), [['analytics', 'events']]);
  assert.equal(await c.namespaceExists({ namespace: ['analytics', 'events'] }), true);
  assert.equal(await c.namespaceExists({ namespace: ['nowhere'] }), false);
  const loaded = await c.loadNamespaceMetadata({ namespace: ['analytics'] });
  assert.equal(loaded.properties.owner, 'ana');
  const change = await c.updateNamespaceProperties({ namespace: ['analytics'] },
    { removals: ['owner', 'ghost'], updates: { tier: 'gold' } });
  assert.deepEqual(change, { updated: ['tier'], removed: ['owner'], missing: ['ghost'] });
  await rejectsWith(c.dropNamespace({ namespace: ['analytics'] }), 409, 'NamespaceNotEmptyException');
  await c.dropNamespace({ namespace: ['analytics', 'events'] });
  await c.dropNamespace({ namespace: ['analytics'] });
  assert.equal(await c.namespaceExists({ namespace: ['analytics'] }), false);
  await rejectsWith(c.loadNamespaceMetadata({ namespace: ['analytics'] }), 404, 'NoSuchNamespaceException');
});

test('tables: create, load, commit, rename, register, drop with purge', async () => {
  // With a warehouse name the client routes through the /v1/<prefix>/ paths.
  const c = catalog({ catalogName: 'lake' });
  const ns = { namespace: ['shop'] };
  await c.createNamespace(ns);
  const created = await c.createTableResult(ns, {
    name: 'orders', schema,
    'partition-spec': { fields: [{ 'source-id': 2, name: 'ts_day', transform: 'day' }] },
    properties: { 'write.format.default': 'parquet' },
  });
  assert.match(created['metadata-location'], /\/warehouse\/shop\/orders\/metadata\/00000-[0-9a-f-]{36}\.metadata\.json$/);
  assert.ok(existsSync(new URL(created['metadata-location']).pathname));
  const m0 = created.metadata;
  assert.equal(m0['format-version'], 2);
  assert.equal(m0['partition-specs'][0].fields[0]['field-id'], 1000);
  const id = { namespace: ['shop'], name: 'orders' };
  assert.equal(await c.tableExists(id), true);
  assert.equal(await c.tableExists({ namespace: ['shop'], name: 'nope' }), false);
  const listed = await c.listTables(ns);
  assert.deepEqual((listed.identifiers ?? listed).map((t) => t.name), ['orders']);

  const committed = await c.commitTable(id, append(m0, 1001));
  assert.equal(committed.metadata['current-snapshot-id'], 1001);
  assert.match(committed['metadata-location'], /\/00001-/);
  const props = await c.commitTable(id, {
    requirements: [{ type: 'assert-table-uuid', uuid: m0['table-uuid'] }],
    updates: [{ action: 'set-properties', updates: { 'commit.retry.num-retries': '8' } }],
  });
  assert.equal(props.metadata.properties['commit.retry.num-retries'], '8');
  const loaded = await c.loadTableResult(id);
  assert.equal(loaded['metadata-location'], props['metadata-location']);
  assert.equal(loaded.metadata['metadata-log'].length, 2);

  const moved = { namespace: ['shop'], name: 'orders_v2' };
  await c.renameTable({ source: id, destination: moved });
  assert.equal(await c.tableExists(id), false);
  // A second table on the same folder would lose its files to the first's purge: 403 while
  // orders_v2 exists; once it is dropped (without purge) the metadata can be adopted.
  const snapshot = { namespace: ['shop'], name: 'orders_snapshot' };
  await rejectsWith(c.registerTable(ns, { name: 'orders_snapshot', 'metadata-location': created['metadata-location'] }),
                    403, 'ForbiddenException');
  await c.dropTable(moved);
  await rejectsWith(c.loadTable(moved), 404, 'NoSuchTableException');
  await c.registerTable(ns, { name: 'orders_snapshot', 'metadata-location': created['metadata-location'] });
  const registered = await c.loadTable(snapshot);
  assert.equal(registered['current-snapshot-id'], -1);
  await c.dropTable(snapshot, { purge: true });
  assert.equal(existsSync(new URL(created['metadata-location']).pathname), false);
});

test('stage-create then commit with assert-create', async () => {
  const c = catalog();
  const ns = { namespace: ['staging'] };
  await c.createNamespace(ns);
  const staged = await c.createTableResult(ns, { name: 'ctas', schema, 'stage-create': true });
  assert.equal(staged['metadata-location'], undefined);
  const id = { namespace: ['staging'], name: 'ctas' };
  assert.equal(await c.tableExists(id), false);
  const m = staged.metadata;
  const result = await c.commitTable(id, {
    requirements: [{ type: 'assert-create' }],
    updates: [
      { action: 'assign-uuid', uuid: m['table-uuid'] },
      { action: 'upgrade-format-version', 'format-version': 2 },
      { action: 'add-schema', schema: m.schemas[0] },
      { action: 'set-current-schema', 'schema-id': -1 },
      { action: 'add-spec', spec: m['partition-specs'][0] },
      { action: 'set-default-spec', 'spec-id': -1 },
      { action: 'add-sort-order', 'sort-order': m['sort-orders'][0] },
      { action: 'set-default-sort-order', 'sort-order-id': -1 },
      { action: 'set-location', location: m.location },
    ],
  });
  assert.equal(result.metadata['table-uuid'], m['table-uuid']);
  assert.equal(await c.tableExists(id), true);
});

test('malformed JSON, unknown updates, failed requirements and missing tables get the spec answers', async () => {
  const c = catalog();
  await c.createNamespace({ namespace: ['errs'] });
  const created = await c.createTableResult({ namespace: ['errs'] }, { name: 't', schema });
  const id = { namespace: ['errs'], name: 't' };
  const raw = await fetch(`${baseUrl}/v1/namespaces/errs/tables/t`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"requirements": [',
  });
  assert.equal(raw.status, 400);
  const body = await raw.json();
  assert.equal(body.error.type, 'BadRequestException');
  assert.equal(body.error.code, 400);
  await rejectsWith(c.commitTable(id, { requirements: [], updates: [{ action: 'teleport-table' }] }),
    400, 'BadRequestException');
  await rejectsWith(c.commitTable(id, {
    requirements: [], updates: [{ action: 'set-properties', updates: { a: 1 } }],
  }), 400, 'BadRequestException');
  await rejectsWith(c.commitTable(id, {
    requirements: [{ type: 'assert-table-uuid', uuid: '00000000-0000-4000-8000-000000000000' }], updates: [],
  }), 409, 'CommitFailedException');
  await rejectsWith(c.commitTable({ namespace: ['errs'], name: 'ghost' }, append(created.metadata, 5)),
    404, 'NoSuchTableException');
  await rejectsWith(c.createTable({ namespace: ['ghost'] }, { name: 't', schema }), 404, 'NoSuchNamespaceException');
  // Nothing above changed the table.
  const loaded = await c.loadTableResult(id);
  assert.equal(loaded['metadata-location'], created['metadata-location']);
});

test('many concurrent committers: every commit lands exactly once', async () => {
  const c = catalog();
  await c.createNamespace({ namespace: ['hot'] });
  const id = { namespace: ['hot'], name: 'counter' };
  await c.createTable({ namespace: ['hot'] }, { name: 'counter', schema });
  const writers = 8;
  const commitsEach = 10;
  let conflicts = 0;
  await Promise.all(Array.from({ length: writers }, async (_, w) => {
    const client = catalog();
    for (let i = 0; i < commitsEach; i++) {
      const snapshotId = (w + 1) * 100000 + i;
      for (;;) {
        const metadata = await client.loadTable(id);
        try {
          await client.commitTable(id, append(metadata, snapshotId));
          break;
        } catch (error) {
          if (!(error instanceof IcebergError) || error.status !== 409) throw error;
          conflicts++;
        }
      }
    }
  }));
  const metadata = await c.loadTable(id);
  const ids = metadata.snapshots.map((s) => s['snapshot-id']);
  assert.equal(ids.length, writers * commitsEach);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(metadata['last-sequence-number'], writers * commitsEach);
  // One linear history from the current snapshot back to the first.
  const parent = new Map(metadata.snapshots.map((s) => [s['snapshot-id'], s['parent-snapshot-id']]));
  let depth = 0;
  for (let at = metadata['current-snapshot-id']; at !== undefined && at !== null; at = parent.get(at)) depth++;
  assert.equal(depth, writers * commitsEach);
  console.log(`${writers * commitsEach} commits, ${conflicts} conflicts retried`);
});

test('with users from --auth-file: OAuth2 client credentials give a bearer token iceberg-js uses; no token is 401', async () => {
  const authDir = mkdtempSync(join(tmpdir(), 'floe-catalog-auth-'));
  // spark's entry is a verifier (floe user add, password on standard input); trino's a plaintext password.
  execFileSync(process.env.FLOE_BIN, ['user', 'add', 'spark', '--role', 'admin', '--auth-file', join(authDir, 'users.toml')],
               { input: 's3cret\n' });
  writeFileSync(join(authDir, 'users.toml'), readFileSync(join(authDir, 'users.toml'), 'utf8') +
                '\n[[user]]\nname = "trino"\npassword = "other"\n');
  assert.doesNotMatch(readFileSync(join(authDir, 'users.toml'), 'utf8'), /s3cret/);
  // Secrets never on a command line: the old --users id:secret flag is gone.
  const onArgv = spawnSync(process.env.FLOE_BIN, ['catalog', '--listen', '127.0.0.1:0', '--users', 'spark:s3cret'], { encoding: 'utf8' });
  assert.notEqual(onArgv.status, 0);
  const users = ['--auth-file', join(authDir, 'users.toml')];
  const guarded = spawn(process.env.FLOE_BIN, ['catalog', '--listen', '127.0.0.1:0', '--backend',
    `sqlite:${join(authDir, 'catalog.db')}`, '--warehouse', `file://${join(authDir, 'warehouse')}`,
    ...users], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      guarded.stdout.on('data', (chunk) => {
        out += chunk;
        const match = out.match(/listening on (\S+)/);
        if (match) resolve(`http://${match[1]}`);
      });
      guarded.on('exit', (code) => reject(new Error(`floe catalog exited with ${code}: ${out}`)));
    });
    const anonymous = new IcebergRestCatalog({ baseUrl: url });
    await rejectsWith(anonymous.listNamespaces(), 401, 'NotAuthorizedException');
    const refused = await fetch(`${url}/v1/oauth/tokens`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=spark&client_secret=wrong',
    });
    assert.equal(refused.status, 401);
    const granted = await fetch(`${url}/v1/oauth/tokens`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=spark&client_secret=s3cret&scope=catalog',
    });
    assert.equal(granted.status, 200);
    const token = await granted.json();
    assert.equal(token.token_type, 'bearer');
    assert.ok(token.expires_in > 0);
    const c = new IcebergRestCatalog({ baseUrl: url, auth: { type: 'bearer', token: token.access_token } });
    await c.createNamespace({ namespace: ['secured'] });
    assert.equal(await c.namespaceExists({ namespace: ['secured'] }), true);
    // trino has the default role, writer: it reads, but only an admin changes structure (403).
    const trinoToken = await (await fetch(`${url}/v1/oauth/tokens`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=trino&client_secret=other',
    })).json();
    const w = new IcebergRestCatalog({ baseUrl: url, auth: { type: 'bearer', token: trinoToken.access_token } });
    assert.equal(await w.namespaceExists({ namespace: ['secured'] }), true);
    await rejectsWith(w.createNamespace({ namespace: ['by_writer'] }), 403, 'ForbiddenException');
    await rejectsWith(w.dropNamespace({ namespace: ['secured'] }), 403, 'ForbiddenException');
    assert.equal(await c.namespaceExists({ namespace: ['secured'] }), true);
    const forged = new IcebergRestCatalog({ baseUrl: url, auth: { type: 'bearer', token: 'f'.repeat(64) } });
    await rejectsWith(forged.listNamespaces(), 401, 'NotAuthorizedException');
  } finally {
    guarded.kill('SIGTERM');
    rmSync(authDir, { recursive: true, force: true });
  }
});

test('with --tls-cert/--tls-key the catalog speaks HTTPS: iceberg-js trusting the certificate works, plain HTTP does not', async () => {
  const tlsDir = mkdtempSync(join(tmpdir(), 'floe-catalog-tls-'));
  const cert = join(tlsDir, 'cert.pem'), key = join(tlsDir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
                           '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  const secure = spawn(process.env.FLOE_BIN, ['catalog', '--listen', '127.0.0.1:0', '--backend', `sqlite:${join(tlsDir, 'catalog.db')}`,
    '--warehouse', `file://${join(tlsDir, 'warehouse')}`, '--tls-cert', cert, '--tls-key', key], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const address = await new Promise((resolve, reject) => {
      let out = '';
      secure.stdout.on('data', (chunk) => {
        out += chunk;
        const match = out.match(/listening on (\S+)/);
        if (match) resolve(match[1]);
      });
      secure.on('exit', (code) => reject(new Error(`floe catalog exited with ${code}: ${out}`)));
    });
    // A separate Node process, so NODE_EXTRA_CA_CERTS (read at start-up) makes it trust the certificate.
    const script = `
      import { IcebergRestCatalog } from 'iceberg-js';
      const c = new IcebergRestCatalog({ baseUrl: 'https://${address}' });
      await c.createNamespace({ namespace: ['over_tls'] });
      console.log(JSON.stringify(await c.listNamespaces()));`;
    const listed = execFileSync(process.execPath, ['--input-type=module', '-e', script],
      { cwd: new URL('..', import.meta.url).pathname, env: { ...process.env, NODE_EXTRA_CA_CERTS: cert }, encoding: 'utf8' });
    assert.match(listed, /over_tls/);
    await assert.rejects(fetch(`http://${address}/v1/config`));
  } finally {
    secure.kill('SIGTERM');
    rmSync(tlsDir, { recursive: true, force: true });
  }
});
