// [[grant]] entries on `floe catalog`'s Iceberg REST API (issue #27), over plain HTTP as any
// client sends it: a reader granted create in the sandbox* namespaces creates there and nowhere
// else; a writer denied the finance namespace can neither list nor load it. Every refusal is
// 403 with the spec's ForbiddenException body, and changes nothing. The grants survive
// `floe user add` rewriting the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dir, server, baseUrl;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-catalog-grants-'));
  writeFileSync(join(dir, 'users.toml'), `
[[user]]
name = "admin1"
password = "pw"
role = "admin"

[[user]]
name = "ana"
password = "pw"
role = "reader"

[[user]]
name = "bo"
password = "pw"
role = "writer"

[[grant]]
user = "ana"
namespace = "sandbox*"
allow = ["create", "delete"]

[[grant]]
user = "bo"
namespace = "finance"
deny = ["read", "write"]
`, { mode: 0o600 });
  // `floe user add` rewrites the file (ana's new verifier, a new user) and keeps the grants,
  // which the tests below then rely on.
  for (const [name, role] of [['ana', 'reader'], ['carol', 'writer']]) {
    execFileSync(process.env.FLOE_BIN, ['user', 'add', name, '--role', role, '--auth-file', join(dir, 'users.toml')], { input: 'pw\n' });
  }
  const rewritten = readFileSync(join(dir, 'users.toml'), 'utf8');
  assert.match(rewritten, /namespace = 'sandbox\*'|namespace = "sandbox\*"/);
  assert.doesNotMatch(rewritten, /password = "pw"\s*\n\s*role = "reader"/, 'ana now has a verifier');
  server = spawn(process.env.FLOE_BIN, ['catalog', '--listen', '127.0.0.1:0', '--backend', `sqlite:${join(dir, 'catalog.db')}`,
    '--warehouse', `file://${join(dir, 'warehouse')}`, '--auth-file', join(dir, 'users.toml')],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (\S+)/);
      if (match) resolve(`http://${match[1]}`);
    });
    server.on('exit', (code) => reject(new Error(`floe catalog exited with ${code}: ${out}`)));
  });
});

after(() => {
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function tokenOf(user) {
  const response = await fetch(`${baseUrl}/v1/oauth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${user}&client_secret=pw`,
  });
  assert.equal(response.status, 200);
  return (await response.json()).access_token;
}

async function call(user, method, path, body) {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${await tokenOf(user)}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

function assertForbidden(answer, what) {
  assert.equal(answer.status, 403, `${what}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.error.type, 'ForbiddenException', what);
  assert.equal(answer.body.error.code, 403, what);
}

const table = (name) => ({
  name,
  schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: true }] },
});

test('a reader granted create in sandbox* creates there and nowhere else (403 ForbiddenException)', async () => {
  for (const ns of ['shop', 'finance']) assert.equal((await call('admin1', 'POST', '/namespaces', { namespace: [ns] })).status, 200);
  assert.equal((await call('admin1', 'POST', '/namespaces/finance/tables', table('ledger'))).status, 200);

  assertForbidden(await call('ana', 'POST', '/namespaces', { namespace: ['shop2'] }), 'ana creates shop2');
  assert.equal((await call('ana', 'POST', '/namespaces', { namespace: ['sandbox_ana'] })).status, 200);
  assert.equal((await call('ana', 'POST', '/namespaces/sandbox_ana/tables', table('scratch'))).status, 200);
  assertForbidden(await call('ana', 'POST', '/namespaces/shop/tables', table('scratch')), 'ana creates shop.scratch');
  // Reading stays the reader's everywhere; deleting only where granted.
  assert.equal((await call('ana', 'GET', '/namespaces/finance/tables/ledger')).status, 200);
  assertForbidden(await call('ana', 'DELETE', '/namespaces/finance/tables/ledger'), 'ana drops finance.ledger');
  assert.equal((await call('ana', 'DELETE', '/namespaces/sandbox_ana/tables/scratch?purgeRequested=true')).status, 204);
  assertForbidden(await call('ana', 'DELETE', '/namespaces/shop'), 'ana drops shop');

  const namespaces = (await call('admin1', 'GET', '/namespaces')).body.namespaces.map((n) => n.join('.')).sort();
  assert.deepEqual(namespaces, ['finance', 'sandbox_ana', 'shop']);
  assert.equal((await call('admin1', 'GET', '/namespaces/shop/tables')).body.identifiers.length, 0);
});

test('a writer denied the finance namespace neither lists nor loads it, and keeps the rest', async () => {
  assertForbidden(await call('bo', 'GET', '/namespaces/finance/tables'), 'bo lists finance');
  assertForbidden(await call('bo', 'GET', '/namespaces/finance/tables/ledger'), 'bo loads finance.ledger');
  assertForbidden(await call('bo', 'GET', '/namespaces/finance'), 'bo loads finance');
  assert.equal((await call('bo', 'GET', '/namespaces/shop/tables')).status, 200);
  // A namespace that does not exist yet is judged by the same grant: no way to probe names.
  assertForbidden(await call('bo', 'GET', '/namespaces/finance/tables/missing'), 'bo probes finance');
  assert.equal((await call('bo', 'GET', '/namespaces/shop/tables/missing')).status, 404);
});
