// Roles on the broker (issue #27, finding 6), with kafkajs (npm): a reader fetches but cannot
// produce, create or delete topics (TOPIC_AUTHORIZATION_FAILED); a writer produces but cannot
// create or delete topics; an admin can.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel } = kafkajs;
let dir, broker;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-broker-roles-'));
  writeFileSync(join(dir, 'users.toml'),
    ['reader', 'writer', 'admin'].map((r) => `[[user]]\nname = "${r}1"\npassword = "pw"\nrole = "${r}"\n`).join('\n'),
    { mode: 0o600 });
  broker = await startBroker(['--auth-file', join(dir, 'users.toml'), '--auto-create-topics', 'false']);
});

after(async () => {
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

function kafkaAs(user) {
  return new Kafka({ clientId: `roles-${user}`, brokers: [broker.address], logLevel: logLevel.NOTHING, retry: { retries: 0 },
                     sasl: { mechanism: 'scram-sha-256', username: user, password: 'pw' } });
}

async function withAdmin(user, fn) {
  const admin = kafkaAs(user).admin();
  await admin.connect();
  try { return await fn(admin); } finally { await admin.disconnect(); }
}

const authorizationFailed = (e) => JSON.stringify([e.type, e.name, e.message, e.errors?.map((x) => x.type)]).includes('TOPIC_AUTHORIZATION_FAILED');

test('only an admin creates and deletes topics; a reader cannot produce but can fetch', { timeout: 60000 }, async () => {
  for (const user of ['reader1', 'writer1']) {
    await assert.rejects(withAdmin(user, (a) => a.createTopics({ topics: [{ topic: `by-${user}` }] })), authorizationFailed, user);
  }
  assert.equal(await withAdmin('admin1', (a) => a.createTopics({ topics: [{ topic: 'orders' }] })), true);

  const producer = kafkaAs('writer1').producer();
  await producer.connect();
  await producer.send({ topic: 'orders', messages: [{ key: 'k', value: 'from the writer' }] });
  await producer.disconnect();

  const sneaky = kafkaAs('reader1').producer();
  await sneaky.connect();
  await assert.rejects(sneaky.send({ topic: 'orders', messages: [{ value: 'from the reader' }] }), authorizationFailed);
  await sneaky.disconnect();

  const offsets = await withAdmin('reader1', (a) => a.fetchTopicOffsets('orders'));
  assert.equal(offsets.reduce((sum, p) => sum + Number(p.high), 0), 1, 'only the writer\'s record is there');

  for (const user of ['reader1', 'writer1']) {
    await assert.rejects(withAdmin(user, (a) => a.deleteTopics({ topics: ['orders'] })), authorizationFailed, user);
  }
  assert.ok((await withAdmin('reader1', (a) => a.listTopics())).includes('orders'), 'the topic survived');
  await withAdmin('admin1', (a) => a.deleteTopics({ topics: ['orders'] }));
  assert.ok(!(await withAdmin('admin1', (a) => a.listTopics())).includes('orders'));
});
