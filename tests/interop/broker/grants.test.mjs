// [[grant]] entries and consumer-group ownership on the broker (issue #27), with clients nobody
// here wrote: kcat (librdkafka) and kafkajs. A grant widens a reader to produce to one topic,
// narrows a writer away from one topic's writes and from another topic altogether, lets a writer create
// and delete topics under one prefix; each refusal is TOPIC_AUTHORIZATION_FAILED. A reader or
// writer joins and commits only in its own groups (named after it) or granted ones: the stream
// job's group refuses it with GROUP_AUTHORIZATION_FAILED, and takes a user granted it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel } = kafkajs;
const STREAM_GROUP = 'floe-stream-shop.orders';  // What `floe up`'s stream job joins.
let dir, broker;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-broker-grants-'));
  const users = [['admin1', 'admin'], ['reader1', 'reader'], ['writer1', 'writer'], ['ana', 'reader']]
    .map(([name, role]) => `[[user]]\nname = "${name}"\npassword = "pw"\nrole = "${role}"\n`).join('\n');
  const grants = `
[[grant]]
user = "ana"
topic = "clicks"
allow = ["write"]

[[grant]]
user = "ana"
group = "${STREAM_GROUP}"
allow = ["read"]

[[grant]]
user = "writer1"
topic = "audit"
deny = ["write"]

[[grant]]
user = "writer1"
topic = "secret*"
deny = ["read", "write"]

[[grant]]
user = "writer1"
topic = "scratch-*"
allow = ["create", "delete"]
`;
  writeFileSync(join(dir, 'users.toml'), users + grants, { mode: 0o600 });
  broker = await startBroker(['--auth-file', join(dir, 'users.toml'), '--auto-create-topics', 'false']);
  await withAdmin('admin1', (a) => a.createTopics({ topics: ['orders', 'clicks', 'audit', 'secret.pay'].map((topic) => ({ topic })) }));
});

after(async () => {
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

function kafkaAs(user) {
  return new Kafka({ clientId: `grants-${user}`, brokers: [broker.address], logLevel: logLevel.NOTHING, retry: { retries: 0 },
                     sasl: { mechanism: 'scram-sha-256', username: user, password: 'pw' } });
}

async function withAdmin(user, fn) {
  const admin = kafkaAs(user).admin();
  await admin.connect();
  try { return await fn(admin); } finally { await admin.disconnect(); }
}

const sasl = (user) => ['-b', broker.address, '-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=SCRAM-SHA-256',
                        '-X', `sasl.username=${user}`, '-X', 'sasl.password=pw'];

function kcat(user, args, input) {
  return spawnSync('kcat', [...sasl(user), ...args], { input, encoding: 'utf8', timeout: 30000 });
}

// A group's committed offsets of orders. (The metadata first: kafkajs finds the coordinator
// among the brokers it has metadata for, and these clients do not retry.)
const offsetsOf = (user, groupId) => withAdmin(user, async (a) => {
  await a.fetchTopicMetadata({ topics: ['orders'] });
  return a.fetchOffsets({ groupId, topics: ['orders'] });
});

const failedWith = (type) => (e) => JSON.stringify([e.type, e.name, e.message, e.errors?.map((x) => x.type)]).includes(type);

test('topic grants widen and narrow roles (kcat: Topic authorization failed)', { timeout: 90000 }, async () => {
  // Widened: the reader ana produces to clicks, and only there.
  let run = kcat('ana', ['-P', '-t', 'clicks'], 'from ana\n');
  assert.equal(run.status, 0, run.stderr);
  run = kcat('ana', ['-P', '-t', 'orders'], 'from ana\n');
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /Topic authorization failed/);
  // Narrowed: the writer may not write audit, but writes orders.
  run = kcat('writer1', ['-P', '-t', 'audit'], 'from the writer\n');
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /Topic authorization failed/);
  run = kcat('writer1', ['-P', '-t', 'orders'], 'one\ntwo\nthree\n');
  assert.equal(run.status, 0, run.stderr);
  // ... and may neither read nor write secret.*: not listed, not fetched, not even its offsets.
  run = kcat('writer1', ['-L']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /topic "orders"/);
  assert.doesNotMatch(run.stdout, /secret\.pay/);
  assert.match(kcat('admin1', ['-L']).stdout, /topic "secret\.pay"/);
  run = kcat('writer1', ['-C', '-t', 'secret.pay', '-e', '-q']);
  assert.match(run.stderr, /Topic authorization failed/);
  await assert.rejects(withAdmin('writer1', (a) => a.fetchTopicOffsets('secret.pay')), failedWith('TOPIC_AUTHORIZATION_FAILED'));
  // What was refused left nothing behind; what was allowed is there.
  assert.equal(kcat('admin1', ['-C', '-t', 'clicks', '-e', '-q']).stdout, 'from ana\n');
  assert.equal(kcat('admin1', ['-C', '-t', 'audit', '-e', '-q']).stdout, '');
  assert.equal(kcat('reader1', ['-C', '-t', 'orders', '-e', '-q']).stdout, 'one\ntwo\nthree\n');
});

test('a grant of create and delete on a prefix lets a writer manage those topics alone', { timeout: 60000 }, async () => {
  assert.equal(await withAdmin('writer1', (a) => a.createTopics({ topics: [{ topic: 'scratch-1' }] })), true);
  await assert.rejects(withAdmin('writer1', (a) => a.createTopics({ topics: [{ topic: 'elsewhere' }] })),
                       failedWith('TOPIC_AUTHORIZATION_FAILED'));
  await assert.rejects(withAdmin('writer1', (a) => a.deleteTopics({ topics: ['orders'] })), failedWith('TOPIC_AUTHORIZATION_FAILED'));
  await withAdmin('writer1', (a) => a.deleteTopics({ topics: ['scratch-1'] }));
  const topics = await withAdmin('admin1', (a) => a.listTopics());
  assert.ok(!topics.includes('scratch-1') && !topics.includes('elsewhere') && topics.includes('orders'), topics.join());
});

// Starts a consumer of `topic` in `groupId` as `user`; resolves with the messages it read once
// it has `count`, or rejects with the error that crashed it.
async function consume(user, groupId, topic, count) {
  const consumer = kafkaAs(user).consumer({ groupId, retry: { retries: 0 }, sessionTimeout: 10000, heartbeatInterval: 500 });
  const values = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    return await new Promise((resolve, reject) => {
      consumer.on(consumer.events.CRASH, (e) => reject(e.payload.error));
      consumer.run({ eachMessage: async ({ message }) => {
        values.push(message.value.toString());
        if (values.length >= count) resolve(values);
      } }).catch(reject);
    });
  } finally {
    await consumer.disconnect().catch(() => {});
  }
}

test("the stream job's group refuses a reader and a writer (GROUP_AUTHORIZATION_FAILED); a grant lets one in", { timeout: 90000 }, async () => {
  for (const user of ['reader1', 'writer1']) {
    await assert.rejects(consume(user, STREAM_GROUP, 'orders', 1), (e) => e.type === 'GROUP_AUTHORIZATION_FAILED', user);
    await assert.rejects(offsetsOf(user, STREAM_GROUP),
                         failedWith('GROUP_AUTHORIZATION_FAILED'), user);
  }
  // A reader's own group: its name, then '-', '.' or '_'.
  assert.deepEqual(await consume('reader1', 'reader1-dash', 'orders', 3), ['one', 'two', 'three']);
  // ... which is nobody else's.
  await assert.rejects(consume('writer1', 'reader1-dash', 'orders', 1), (e) => e.type === 'GROUP_AUTHORIZATION_FAILED');
  await assert.rejects(offsetsOf('writer1', 'reader1-dash'),
                       failedWith('GROUP_AUTHORIZATION_FAILED'));
  // ana has a grant for the stream job's group.
  assert.deepEqual(await consume('ana', STREAM_GROUP, 'orders', 3), ['one', 'two', 'three']);
  const committed = await offsetsOf('ana', STREAM_GROUP);
  assert.equal(committed[0].partitions.reduce((sum, p) => sum + Number(p.offset), 0), 3);
  // Listing shows each user the groups it may use; an admin sees them all.
  const listed = async (user) => (await withAdmin(user, (a) => a.listGroups())).groups.map((g) => g.groupId).sort();
  assert.deepEqual(await listed('reader1'), ['reader1-dash']);
  assert.deepEqual(await listed('ana'), [STREAM_GROUP]);
  assert.deepEqual(await listed('admin1'), [STREAM_GROUP, 'reader1-dash']);
});

test('kcat (librdkafka) is refused the stream job\'s group: Group authorization failed', { timeout: 60000 }, async () => {
  const child = spawn('kcat', [...sasl('reader1'), '-G', STREAM_GROUP, 'orders'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no refusal within 30 s: ${output}`)), 30000);
      const poll = setInterval(() => {
        if (/Group authorization failed/i.test(output)) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      }, 100);
    });
    assert.doesNotMatch(output, /\bone\b/, 'kcat read a message');
  } finally {
    // Gone before the broker is: a kcat closing against a stopped broker can hold this process.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
    }
  }
});
