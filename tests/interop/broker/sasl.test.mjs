// `floe broker --auth-file`: Kafka clients nobody here wrote authenticate with SASL/PLAIN and
// SCRAM-SHA-256 (kcat's librdkafka, kafkajs), against a SCRAM verifier written by `floe user
// add` (bob) and a deprecated plaintext entry (alice); a wrong password, an unknown user and a
// client without SASL are refused, after the failed-login delay, and get nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel } = kafkajs;
let dir, broker;

function kcatSasl(mechanism, user, password, args, input) {
  return spawnSync('kcat', ['-b', broker.address, '-X', 'security.protocol=SASL_PLAINTEXT', '-X', `sasl.mechanisms=${mechanism}`,
    '-X', `sasl.username=${user}`, '-X', `sasl.password=${password}`, ...args], { input, encoding: 'utf8', timeout: 30000 });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-sasl-'));
  writeFileSync(join(dir, 'users.toml'), '[[user]]\nname = "alice"\npassword = "wonder land"\n', { mode: 0o600 });
  execFileSync(process.env.FLOE_BIN, ['user', 'add', 'bob', '--role', 'writer', '--auth-file', join(dir, 'users.toml')],
               { input: 'b0b\n' });
  assert.doesNotMatch(readFileSync(join(dir, 'users.toml'), 'utf8'), /b0b/);
  broker = await startBroker(['--auth-file', join(dir, 'users.toml')]);
});

after(async () => {
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('kcat produces and consumes with SASL/PLAIN and SCRAM-SHA-256', () => {
  for (const mechanism of ['PLAIN', 'SCRAM-SHA-256']) {
    const topic = `t-${mechanism.toLowerCase()}`;
    const lines = Array.from({ length: 50 }, (_, i) => `k${i}:${mechanism} value ${i}`).join('\n') + '\n';
    const produced = kcatSasl(mechanism, 'alice', 'wonder land', ['-P', '-t', topic, '-K:'], lines);
    assert.equal(produced.status, 0, produced.stderr);
    const consumed = kcatSasl(mechanism, 'bob', 'b0b', ['-C', '-t', topic, '-e', '-f', '%k:%s\n']);
    assert.equal(consumed.status, 0, consumed.stderr);
    assert.equal(consumed.stdout, lines);
  }
});

test('kcat with a wrong password, an unknown user or no SASL gets nothing', () => {
  for (const [mechanism, user, password] of [['SCRAM-SHA-256', 'alice', 'wonderland'], ['PLAIN', 'alice', 'x'],
                                            ['SCRAM-SHA-256', 'mallory', 'wonder land'], ['PLAIN', 'mallory', 'b0b']]) {
    const r = kcatSasl(mechanism, user, password, ['-L', '-m', '2']);
    assert.notEqual(r.status, 0, `${mechanism} ${user} was let in`);
    assert.match(r.stderr, /[Aa]uthentication/, r.stderr);
  }
  const plain = spawnSync('kcat', ['-b', broker.address, '-L', '-m', '2'], { encoding: 'utf8', timeout: 30000 });
  assert.notEqual(plain.status, 0, 'a client without SASL read metadata');
});

test('kafkajs authenticates with both mechanisms and is refused a wrong password', { timeout: 60000 }, async () => {
  for (const mechanism of ['plain', 'scram-sha-256']) {
    const kafka = new Kafka({ clientId: 'floe-sasl', brokers: [broker.address], logLevel: logLevel.NOTHING,
                              sasl: { mechanism, username: 'bob', password: 'b0b' } });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: `kjs-${mechanism}`, messages: [{ key: 'a', value: mechanism }] });
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(`kjs-${mechanism}`);
    await admin.disconnect();
    assert.equal(offsets.reduce((sum, p) => sum + Number(p.high), 0), 1);

    const wrong = new Kafka({ clientId: 'floe-sasl', brokers: [broker.address], logLevel: logLevel.NOTHING, retry: { retries: 0 },
                              sasl: { mechanism, username: 'bob', password: 'nope' } });
    const refused = wrong.admin();
    const started = Date.now();
    await assert.rejects(refused.connect(), /SASL|[Aa]uthentication/);
    assert.ok(Date.now() - started >= 450, `${mechanism}: refused after ${Date.now() - started} ms, without the delay`);
    await refused.disconnect();
  }
});

test('TLS: kcat (SASL_SSL) and kafkajs (ssl + sasl) produce and consume through an encrypted listener', { timeout: 120000 }, async () => {
  const tlsDir = mkdtempSync(join(tmpdir(), 'floe-broker-tls-'));
  const cert = join(tlsDir, 'cert.pem'), key = join(tlsDir, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
                                     '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']);
  assert.equal(made.status, 0, String(made.stderr));
  const secure = await startBroker(['--tls-cert', cert, '--tls-key', key, '--auth-file', join(dir, 'users.toml')]);
  try {
    const kcat = (args, input) => spawnSync('kcat', ['-b', secure.address, '-X', 'security.protocol=SASL_SSL', '-X', `ssl.ca.location=${cert}`,
      '-X', 'sasl.mechanisms=SCRAM-SHA-256', '-X', 'sasl.username=alice', '-X', 'sasl.password=wonder land', ...args],
      { input, encoding: 'utf8', timeout: 60000, maxBuffer: 1 << 26 });
    // Enough bytes that fetches answer from segment files (read and encrypted, not sendfile).
    const lines = Array.from({ length: 20000 }, (_, i) => `k${i}:${'v'.repeat(i % 300)}${i}`).join('\n') + '\n';
    const produced = kcat(['-P', '-t', 'secret', '-K:'], lines);
    assert.equal(produced.status, 0, produced.stderr);
    const consumed = kcat(['-C', '-t', 'secret', '-e', '-f', '%k:%s\n']);
    assert.equal(consumed.status, 0, consumed.stderr);
    assert.equal(consumed.stdout, lines);
    // Plaintext to the TLS port gets nothing.
    const plain = spawnSync('kcat', ['-b', secure.address, '-L', '-m', '2'], { encoding: 'utf8', timeout: 30000 });
    assert.notEqual(plain.status, 0);

    const kafka = new Kafka({ clientId: 'floe-tls', brokers: [secure.address], logLevel: logLevel.NOTHING,
                              ssl: { ca: [readFileSync(cert, 'utf8')] }, sasl: { mechanism: 'plain', username: 'bob', password: 'b0b' } });
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets('secret');
    await admin.disconnect();
    assert.equal(offsets.reduce((sum, p) => sum + Number(p.high), 0), 20000);
    // The metrics port is HTTPS as well.
    const scrape = spawnSync('curl', ['-sS', '--cacert', cert, `https://127.0.0.1:${secure.metricsPort}/metrics`], { encoding: 'utf8' });
    assert.equal(scrape.status, 0, scrape.stderr);
    assert.match(scrape.stdout, /floe_broker_/);
    const plainScrape = spawnSync('curl', ['-sS', '--max-time', '5', `http://127.0.0.1:${secure.metricsPort}/metrics`], { encoding: 'utf8' });
    assert.doesNotMatch(plainScrape.stdout, /floe_broker_/);
  } finally {
    await secure.stop();
    rmSync(tlsDir, { recursive: true, force: true });
  }
});
