// `floe query --auth-file --tls-cert --tls-key`: clients nobody here wrote must authenticate and
// encrypt. trino-client (npm) with basic auth over HTTPS gets rows, without credentials or with
// a wrong password 401; node `pg` and Debian's psql connect with TLS and a password, and are
// refused without TLS or with a wrong password.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Trino, BasicAuth } from 'trino-client';
import { startQueryServer } from './query_process.mjs';

let dir, server, ca;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-secure-'));
  const cert = join(dir, 'cert.pem'), key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
                           '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  ca = readFileSync(cert, 'utf8');
  writeFileSync(join(dir, 'users.toml'), '[[user]]\nname = "alice"\npassword = "open sesame"\n', { mode: 0o600 });
  server = await startQueryServer(['--auth-file', join(dir, 'users.toml'), '--tls-cert', cert, '--tls-key', key]);
});

after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function trinoRows(auth) {
  const trino = Trino.create({ server: `https://127.0.0.1:${server.httpPort}`, ssl: { ca }, auth, catalog: 'floe', schema: 'default' });
  const rows = [];
  for await (const result of await trino.query('SELECT 6 * 7 AS answer')) {
    if (result.error) throw new Error(result.error.message);
    rows.push(...(result.data ?? []));
  }
  return rows;
}

test('trino-client over HTTPS with basic auth', async () => {
  assert.deepEqual(await trinoRows(new BasicAuth('alice', 'open sesame')), [[42]]);
  await assert.rejects(trinoRows(new BasicAuth('alice', 'wrong')), /401|Unauthorized|authentication/i);
  await assert.rejects(trinoRows(undefined), /401|Unauthorized|authentication/i);
  // trino-client sends its basic-auth user as X-Trino-User; another user is refused (curl).
  const impersonate = spawnSync('curl', ['-sS', '--cacert', join(dir, 'cert.pem'), '-u', 'alice:open sesame', '-H', 'X-Trino-User: bob',
    '-o', '/dev/null', '-w', '%{http_code}', '--data', 'SELECT 1', `https://127.0.0.1:${server.httpPort}/v1/statement`], { encoding: 'utf8' });
  assert.equal(impersonate.stdout, '403');
  // Liveness stays open; plain HTTP gets nothing.
  const info = execFileSync('curl', ['-sS', '--cacert', join(dir, 'cert.pem'), `https://127.0.0.1:${server.httpPort}/v1/info/state`],
                            { encoding: 'utf8' });
  assert.equal(info, '"ACTIVE"');
  const plain = spawnSync('curl', ['-sS', '--max-time', '5', `http://127.0.0.1:${server.httpPort}/v1/info/state`], { encoding: 'utf8' });
  assert.notEqual(plain.stdout, '"ACTIVE"');
});

test('node pg and psql with TLS and a password', async () => {
  const secured = { ...server.pgConfig, user: 'alice', password: 'open sesame', ssl: { ca } };
  const client = new pg.Client(secured);
  await client.connect();
  const { rows } = await client.query('SELECT 6 * 7 AS answer');
  assert.equal(Number(rows[0].answer), 42);
  await client.end();
  for (const config of [{ ...secured, password: 'wrong' }, { ...secured, ssl: false }]) {
    const refused = new pg.Client(config);
    await assert.rejects(refused.connect(), /password authentication failed|requires SSL/);
    await refused.end().catch(() => {});
  }
  const conninfo = `host=127.0.0.1 port=${server.pgPort} user=alice dbname=floe sslmode=verify-full sslrootcert=${join(dir, 'cert.pem')}`;
  const psql = spawnSync('psql', [conninfo, '-AtX', '-c', 'SELECT 40 + 2'], { encoding: 'utf8', env: { ...process.env, PGPASSWORD: 'open sesame' } });
  assert.equal(psql.status, 0, psql.stderr);
  assert.equal(psql.stdout.trim(), '42');
  const noTls = spawnSync('psql', [`host=127.0.0.1 port=${server.pgPort} user=alice dbname=floe sslmode=disable`, '-AtX', '-c', 'SELECT 1'],
                          { encoding: 'utf8', env: { ...process.env, PGPASSWORD: 'open sesame' } });
  assert.notEqual(noTls.status, 0);
  assert.match(noTls.stderr, /requires SSL/);
});
