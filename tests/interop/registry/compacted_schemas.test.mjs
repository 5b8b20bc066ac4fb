// The registry's `_schemas` topic is compacted (cleanup.policy=compact): after floe's log
// cleaner has removed superseded records (configs set again and again, soft-deleted subjects),
// a restarted registry replays the topic to the same subjects, versions, ids and configs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startBroker } from '../broker/broker_process.mjs';
import { startRegistry } from './registry_process.mjs';
import { waitFor } from '../support/waiting.mjs';

const { Kafka, logLevel } = createRequire(new URL('../package.json', import.meta.url))('kafkajs');

async function call(registry, method, path, body) {
  const response = await fetch(`${registry.url}${path}`, { method, body: body && JSON.stringify(body),
    headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' } });
  return { status: response.status, body: await response.json() };
}

async function snapshot(registry, subjects) {
  const state = { subjects: (await call(registry, 'GET', '/subjects')).body.sort(),
    deleted: (await call(registry, 'GET', '/subjects?deleted=true')).body.sort(), bySubject: {} };
  for (const subject of subjects) {
    const versions = (await call(registry, 'GET', `/subjects/${subject}/versions?deleted=true`)).body;
    const latest = (await call(registry, 'GET', `/subjects/${subject}/versions/latest?deleted=true`)).body;
    const config = await call(registry, 'GET', `/config/${subject}`);
    state.bySubject[subject] = { versions, latest, config };
  }
  return state;
}

function metric(text, name) {
  const m = text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
  return m ? Number(m[1]) : NaN;
}

test('_schemas replays the same registry after compaction', { timeout: 180000 }, async () => {
  const broker = await startBroker(['--log-cleaner-backoff-ms', '100']);
  let registry;
  try {
    // The topic as the registry would make it, with small segments so that the cleaner has
    // closed segments to work on.
    const admin = new Kafka({ clientId: 'schemas-setup', brokers: [broker.address], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: '_schemas', numPartitions: 1, configEntries: [
      { name: 'cleanup.policy', value: 'compact' }, { name: 'segment.bytes', value: '4096' },
      { name: 'min.cleanable.dirty.ratio', value: '0.01' }] }] });
    await admin.disconnect();

    registry = await startRegistry(broker.address);
    const subjects = Array.from({ length: 12 }, (_, i) => `subject-${i}-value`);
    for (const subject of subjects) {
      for (let v = 0; v < 3; ++v) {
        const fields = [{ name: 'id', type: 'long' }];
        for (let f = 0; f < v; ++f) fields.push({ name: `extra${f}`, type: 'string', default: '' });
        const schema = JSON.stringify({ type: 'record', name: 'Event', fields });
        const registered = await call(registry, 'POST', `/subjects/${subject}/versions`, { schema });
        assert.equal(registered.status, 200, JSON.stringify(registered.body));
      }
      // The same key written again and again: only the last survives compaction.
      for (const level of ['NONE', 'FULL', 'FORWARD', 'BACKWARD_TRANSITIVE']) {
        assert.equal((await call(registry, 'PUT', `/config/${subject}`, { compatibility: level })).status, 200);
      }
    }
    for (const subject of subjects.slice(0, 3)) {
      assert.equal((await call(registry, 'DELETE', `/subjects/${subject}`)).status, 200);
    }
    const before = await snapshot(registry, subjects);

    // Records keep arriving (configs) until the cleaner has removed superseded ones.
    let round = 0;
    await waitFor('the cleaner to compact _schemas', async () => {
      await call(registry, 'PUT', `/config/${subjects[11]}`, { compatibility: round++ % 2 ? 'NONE' : 'FULL' });
      const text = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
      return metric(text, 'floe_broker_log_cleaner_records_removed_total') >= 40;
    }, { timeoutMs: 120000 });
    const settled = await call(registry, 'PUT', `/config/${subjects[11]}`, { compatibility: 'FULL' });
    assert.equal(settled.status, 200);
    before.bySubject[subjects[11]].config = await call(registry, 'GET', `/config/${subjects[11]}`);
    await registry.stop();

    registry = await startRegistry(broker.address);
    const after = await snapshot(registry, subjects);
    assert.deepEqual(after, before);
    assert.doesNotMatch(registry.stderr(), /skipped a _schemas record/);
  } finally {
    if (registry) await registry.stop();
    await broker.stop();
  }
});
