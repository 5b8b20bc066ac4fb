// `floe up --processes --auth-file --tls-cert --tls-key`: every listener of the whole pipeline
// is TLS and requires one of the file's users, and the pipeline's own clients (stream job,
// generator, fresh reads) get in as a user floe up makes for this run (its password in 0600
// files of the data folder, never in a child's argv or environment), trusting the certificate. kafkajs reads the
// orders topic only with SCRAM credentials; node `pg` and trino-client count the rows the
// stream job committed only with a password; the REST catalog answers 401 without a token and
// serves one for client credentials; plaintext gets nothing anywhere.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import kafkajs from 'kafkajs';
import pg from 'pg';
import { Trino, BasicAuth } from 'trino-client';
import { startFloeUp, stopFloeUp } from '../support/floe_up.mjs';
import { waitFor } from '../support/waiting.mjs';

const { Kafka, logLevel } = kafkajs;
const FLOE = process.env.FLOE_BIN;

let dir, up, floe, ports, ca, cert;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'floe-up-auth-'));
  // As an operator would: `floe user add`, the password on standard input; the file keeps a
  // SCRAM verifier, never the password.
  execFileSync(FLOE, ['user', 'add', 'alice', '--role', 'writer', '--auth-file', path.join(dir, 'users.toml')],
               { input: 'wonder land\n' });
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'users.toml'), 'utf8'), /wonder land/);
  cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
                           '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  ca = fs.readFileSync(cert, 'utf8');
  up = await startFloeUp(FLOE, path.join(dir, 'data'), ['--processes', '--auth-file', path.join(dir, 'users.toml'),
    '--tls-cert', cert, '--tls-key', key, '--traffic', '300', '--trigger', '1s', '--partitions', '2']);
  floe = up.child;
  ports = up.ports;
});

after(async () => {
  await stopFloeUp(up);
  fs.rmSync(dir, { recursive: true, force: true });
});

const pgConfig = (password, ssl = { ca }) => ({ host: '127.0.0.1', port: ports.pg, user: 'alice', password, database: 'floe', ssl });

async function countRows(password, ssl) {
  const client = new pg.Client(pgConfig(password, ssl));
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*) AS n FROM shop.orders');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

test('the stream job gets in: rows committed, counted through PostgreSQL with a password', { timeout: 120000 }, async () => {
  const first = await waitFor('rows in shop.orders', async () => (await countRows('wonder land')) || null);
  await waitFor('the table to grow', async () => (await countRows('wonder land')) > first);
  await assert.rejects(countRows('wrong'), /password authentication failed/);
  await assert.rejects(countRows('wonder land', false), /requires SSL/);
  // The files the pipeline's clients read hold a password: its owner alone may read them.
  for (const file of ['kafka-client.properties', 'catalog-credential', 'auth.toml']) {
    assert.equal(fs.statSync(path.join(dir, 'data', file)).mode & 0o777, 0o600, file);
  }
});

test('no secret reaches a child process\'s argv or environment (issue #27, finding 7)', () => {
  // The pipeline's own password, made for this run, is in the 0600 credential file.
  const secret = fs.readFileSync(path.join(dir, 'data', 'catalog-credential'), 'utf8').trim().split(':')[1];
  assert.ok(secret.length >= 32);
  const children = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === floe.pid;
    } catch { return false; }
  });
  assert.ok(children.length >= 3, `children of floe up: ${children}`);  // broker, catalog, stream job, generator
  for (const pid of [String(floe.pid), ...children]) {
    for (const what of ['cmdline', 'environ']) {
      const text = fs.readFileSync(`/proc/${pid}/${what}`, 'latin1');
      assert.ok(!text.includes(secret), `the pipeline's password in ${what} of ${pid}`);
      assert.ok(!text.includes('wonder land'), `alice's password in ${what} of ${pid}`);
    }
  }
});

test('kafkajs reads the orders topic only with SCRAM credentials', { timeout: 120000 }, async () => {
  const base = { clientId: 'floe-up-auth', brokers: [`127.0.0.1:${ports.broker}`], logLevel: logLevel.NOTHING, ssl: { ca: [ca] } };
  const anonymous = new Kafka({ ...base, retry: { retries: 0 }, connectionTimeout: 3000 }).admin();
  await assert.rejects(anonymous.connect().then(() => anonymous.fetchTopicOffsets('orders')));
  await anonymous.disconnect().catch(() => {});

  const kafka = new Kafka({ ...base, sasl: { mechanism: 'scram-sha-256', username: 'alice', password: 'wonder land' } });
  // A writer without grants may not join the stream job's own group (issue #27): it would take
  // partitions from the job and commit offsets in its name.
  const intruder = kafka.consumer({ groupId: 'floe-stream-shop.orders', retry: { retries: 0 } });
  const crashed = new Promise((resolve) => intruder.on(intruder.events.CRASH, (e) => resolve(e.payload.error)));
  await intruder.connect();
  await intruder.subscribe({ topic: 'orders' });
  await intruder.run({ eachMessage: async () => {} });
  assert.equal((await crashed).type, 'GROUP_AUTHORIZATION_FAILED');
  await intruder.disconnect().catch(() => {});
  // Her own groups (named after her) are hers.
  const consumer = kafka.consumer({ groupId: 'alice-up-auth-reader' });
  await consumer.connect();
  await consumer.subscribe({ topic: 'orders', fromBeginning: true });
  const events = [];
  await consumer.run({ eachMessage: async ({ message }) => { events.push(message.value.toString()); } });
  await waitFor('events from the generator', () => events.length >= 10);
  await consumer.disconnect();
  assert.ok(events.some((e) => e.includes('"event_id"')), events[0]);
});

test('trino-client needs basic auth; the catalog needs a token', { timeout: 60000 }, async () => {
  const rows = async (auth) => {
    const trino = Trino.create({ server: `https://127.0.0.1:${ports.query}`, ssl: { ca }, auth, catalog: 'floe', schema: 'shop' });
    const out = [];
    for await (const result of await trino.query('SELECT count(*) FROM orders')) {
      if (result.error) throw new Error(result.error.message);
      out.push(...(result.data ?? []));
    }
    return out;
  };
  const [[count]] = await rows(new BasicAuth('alice', 'wonder land'));
  assert.ok(count > 0, `count ${count}`);
  await assert.rejects(rows(undefined), /401|Unauthorized|authentication/i);

  const catalog = `https://127.0.0.1:${ports.catalog}`;
  const curl = (...args) => spawnSync('curl', ['-sS', '--max-time', '10', '--cacert', cert, ...args], { encoding: 'utf8' });
  assert.equal(curl('-o', '/dev/null', '-w', '%{http_code}', `${catalog}/v1/namespaces`).stdout, '401');
  const token = JSON.parse(curl('--data', 'grant_type=client_credentials&client_id=alice&client_secret=wonder%20land',
                                `${catalog}/v1/oauth/tokens`).stdout);
  const namespaces = JSON.parse(curl('-H', `Authorization: Bearer ${token.access_token}`, `${catalog}/v1/namespaces`).stdout);
  assert.deepEqual(namespaces.namespaces.map((n) => n.join('.')).sort(), ['shop']);
  const plain = spawnSync('curl', ['-sS', '--max-time', '5', `http://127.0.0.1:${ports.catalog}/v1/config`], { encoding: 'utf8' });
  assert.doesNotMatch(plain.stdout, /defaults|overrides/);
});

test('the schema registry role: HTTPS and the same users by basic auth', async () => {
  const registry = `https://127.0.0.1:${ports.registry}`;
  const curl = (...args) => spawnSync('curl', ['-sS', '--max-time', '10', '--cacert', cert, ...args], { encoding: 'utf8' });
  assert.equal(curl('-o', '/dev/null', '-w', '%{http_code}', `${registry}/subjects`).stdout, '401');
  assert.equal(curl('-o', '/dev/null', '-w', '%{http_code}', '-u', 'alice:wrong', `${registry}/subjects`).stdout, '401');
  const registered = JSON.parse(curl('-u', 'alice:wonder land', '-H', 'Content-Type: application/vnd.schemaregistry.v1+json',
    '--data', JSON.stringify({ schema: '"string"' }), `${registry}/subjects/orders-value/versions`).stdout);
  assert.equal(typeof registered.id, 'number');
  assert.deepEqual(JSON.parse(curl('-u', 'alice:wonder land', `${registry}/subjects`).stdout), ['orders-value']);
  const plain = spawnSync('curl', ['-sS', '--max-time', '5', `http://127.0.0.1:${ports.registry}/subjects`], { encoding: 'utf8' });
  assert.doesNotMatch(plain.stdout, /orders-value/);
});
