// Log compaction (cleanup.policy=compact) against `floe broker` with clients nobody here wrote:
// kafkajs writes 100k updates over 1k keys and tombstones; kcat (librdkafka) and a kafkajs
// consumer read from the beginning and see the latest value of every key at its original
// offset; the closed segments shrink to one record per key; tombstones go once
// delete.retention.ms has passed; /metrics counts what the cleaner removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';
import { waitFor } from '../support/waiting.mjs';

const { Kafka, logLevel } = kafkajs;

function client(broker) {
  return new Kafka({ clientId: 'floe-compaction-test', brokers: [broker.address], logLevel: logLevel.NOTHING,
    retry: { retries: 3, initialRetryTime: 100 } });
}

async function metrics(broker) {
  const text = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
  const value = (name) => {
    const m = text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
    return m ? Number(m[1]) : NaN;
  };
  const ratio = (topic) => {
    const m = text.match(new RegExp(`^floe_broker_log_cleaner_dirty_ratio\\{topic="${topic}",partition="0"\\} (\\S+)$`, 'm'));
    return m ? Number(m[1]) : NaN;
  };
  return { value, ratio };
}

// Every record of partition 0 from the beginning, as kcat prints it: offset, key, value
// length (-1 for a tombstone) and value.
function kcatRecords(broker, topic) {
  const out = execFileSync('kcat', ['-b', broker.address, '-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e', '-q',
    '-f', '%o\t%k\t%S\t%s\n'], { encoding: 'utf8', timeout: 60000, maxBuffer: 64 << 20 });
  return out.split('\n').filter(Boolean).map((line) => {
    const [offset, key, length, value] = line.split('\t');
    return { offset: Number(offset), key, value: Number(length) < 0 ? null : value };
  });
}

function latest(records) {
  const map = new Map();
  for (const r of records) map.set(r.key, r.value);
  return map;
}

// The base offset of the partition's active segment: the last `<20 digits>.log` file.
function activeBase(broker, topic) {
  const logs = readdirSync(join(broker.dir, 'topics', topic, '0')).filter((f) => /^\d{20}\.log$/.test(f)).sort();
  return Number(logs[logs.length - 1].slice(0, 20));
}

test('100k updates over 1k keys compact to the latest value of each key', { timeout: 180000 }, async (t) => {
  const broker = await startBroker(['--log-cleaner-backoff-ms', '100']);
  const kafka = client(broker);
  const admin = kafka.admin();
  const producer = kafka.producer();
  try {
    await admin.connect();
    await producer.connect();
    await admin.createTopics({ topics: [{ topic: 'changelog', numPartitions: 1, configEntries: [
      { name: 'cleanup.policy', value: 'compact' }, { name: 'segment.bytes', value: '131072' },
      { name: 'min.cleanable.dirty.ratio', value: '0.01' }] }] });
    // A record without a key has no place in a compacted topic: refused, and not retried.
    await assert.rejects(producer.send({ topic: 'changelog', acks: -1, messages: [{ value: 'keyless' }] }),
      (e) => e.type === 'INVALID_RECORD');
    const expected = new Map();
    const keyCount = 1000;
    const rounds = 100;
    for (let round = 0; round < rounds; ++round) {
      const messages = [];
      for (let k = 0; k < keyCount; ++k) {
        const key = `key-${String(k).padStart(4, '0')}`;
        const value = `value-${round}-${k}`;
        messages.push({ key, value });
        expected.set(key, value);
      }
      await producer.send({ topic: 'changelog', acks: -1, messages });
    }
    const end = rounds * keyCount;
    // The cleaner has caught up once nothing cleanable is dirty.
    await waitFor('the cleaner to catch up', async () => {
      const m = await metrics(broker);
      return m.value('floe_broker_log_cleaner_passes_total') > 0 && m.ratio('changelog') === 0;
    }, { timeoutMs: 120000 });

    const records = kcatRecords(broker, 'changelog');
    const active = activeBase(broker, 'changelog');
    const closed = records.filter((r) => r.offset < active);
    // One record per key in the closed segments, plus whatever the active segment holds.
    assert.ok(active > 0, 'segments rolled');
    assert.ok(closed.length <= keyCount, `${closed.length} records in closed segments`);
    assert.equal(new Set(closed.map((r) => r.key)).size, closed.length);
    assert.equal(records.length, closed.length + (end - active));
    assert.ok(records.length < 0.07 * end, `${records.length} of ${end} records remain`);
    t.diagnostic(`${records.length} of ${end} records remain: ${closed.length} in closed segments, ${end - active} in the active one`);
    // Offsets kept: each record is where the producer wrote it (round * 1000 + key index).
    for (const r of records) {
      const [, round, k] = r.value.split('-').map(Number);
      assert.equal(r.offset, round * keyCount + k, `${r.key} at ${r.offset}`);
    }
    assert.deepEqual(latest(records), expected);

    // A kafkajs consumer from the beginning steps over the gaps and agrees.
    const consumer = kafka.consumer({ groupId: 'compaction-reader', maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'changelog', fromBeginning: true });
    const seen = new Map();
    let lastOffset = -1;
    let finish;
    const finished = new Promise((resolve) => { finish = resolve; });
    await consumer.run({ eachMessage: async ({ message }) => {
      seen.set(message.key.toString(), message.value.toString());
      lastOffset = Number(message.offset);
      if (lastOffset === end - 1) finish();
    } });
    await finished;
    await consumer.disconnect();
    assert.deepEqual(seen, expected);

    const m = await metrics(broker);
    assert.ok(m.value('floe_broker_log_cleaner_records_removed_total') >= end - records.length);
    assert.ok(m.value('floe_broker_log_cleaner_bytes_removed_total') > 1000000);
    assert.ok(m.value('floe_broker_log_cleaner_last_clean_timestamp_seconds') > Date.now() / 1000 - 600);
    assert.equal(m.value('floe_broker_log_cleaner_failures_total'), 0);
  } finally {
    await producer.disconnect().catch(() => {});
    await admin.disconnect().catch(() => {});
    await broker.stop();
  }
});

test('tombstones stay for delete.retention.ms, then go', { timeout: 180000 }, async () => {
  const broker = await startBroker(['--log-cleaner-backoff-ms', '100']);
  const kafka = client(broker);
  const admin = kafka.admin();
  const producer = kafka.producer();
  try {
    await admin.connect();
    await producer.connect();
    await admin.createTopics({ topics: [{ topic: 'deletions', numPartitions: 1, configEntries: [
      { name: 'cleanup.policy', value: 'compact,delete' }, { name: 'segment.bytes', value: '16384' },
      { name: 'retention.ms', value: '-1' }, { name: 'min.cleanable.dirty.ratio', value: '0.01' },
      { name: 'delete.retention.ms', value: '3000' }] }] });
    const described = await admin.describeConfigs({ includeSynonyms: false,
      resources: [{ type: 2, name: 'deletions', configNames: ['cleanup.policy', 'delete.retention.ms'] }] });
    const entries = Object.fromEntries(described.resources[0].configEntries.map((e) => [e.configName, e.configValue]));
    assert.deepEqual(entries, { 'cleanup.policy': 'compact,delete', 'delete.retention.ms': '3000' });

    const keys = Array.from({ length: 200 }, (_, i) => `user-${i}`);
    await producer.send({ topic: 'deletions', acks: -1, messages: keys.map((key) => ({ key, value: `v1-${key}` })) });
    await producer.send({ topic: 'deletions', acks: -1, messages: keys.slice(0, 50).map((key) => ({ key, value: null })) });
    let filler = 0;
    const fill = () => producer.send({ topic: 'deletions', acks: -1,
      messages: Array.from({ length: 300 }, () => ({ key: `filler-${filler % 100}`, value: `f${filler++}` })) });
    for (let i = 0; i < 5; ++i) await fill();

    // Cleaned within delete.retention.ms: the older values are gone, the tombstones stay.
    await waitFor('a first cleaning', async () => {
      const m = await metrics(broker);
      return m.value('floe_broker_log_cleaner_passes_total') > 0 && m.ratio('deletions') === 0;
    });
    const kept = kcatRecords(broker, 'deletions').filter((r) => r.key.startsWith('user-'));
    // Read soon after the pass: if the tombstones are already gone, this run was slower than
    // delete.retention.ms and says nothing; a record of the deleted keys' old values never shows.
    for (const r of kept) if (Number(r.key.slice(5)) < 50) assert.equal(r.value, null, `${r.key} is a tombstone`);
    assert.equal(kept.filter((r) => r.value !== null).length, 150);

    // Past delete.retention.ms, the next passes (new dirty data) drop the tombstones.
    await waitFor('the tombstones to go', async () => {
      await fill();
      const users = latest(kcatRecords(broker, 'deletions').filter((r) => r.key.startsWith('user-')));
      return users.size === 150 ? users : null;
    }, { timeoutMs: 120000, intervalMs: 500 });
    const users = latest(kcatRecords(broker, 'deletions').filter((r) => r.key.startsWith('user-')));
    for (const key of keys.slice(50)) assert.equal(users.get(key), `v1-${key}`);
    for (const key of keys.slice(0, 50)) assert.equal(users.has(key), false);
  } finally {
    await producer.disconnect().catch(() => {});
    await admin.disconnect().catch(() => {});
    await broker.stop();
  }
});

test('batches kcat compresses (gzip, snappy, lz4, zstd) compact and read back', { timeout: 180000 }, async () => {
  const broker = await startBroker(['--log-cleaner-backoff-ms', '100']);
  const admin = client(broker).admin();
  try {
    await admin.connect();
    const codecs = ['gzip', 'snappy', 'lz4', 'zstd'];
    await admin.createTopics({ topics: codecs.map((codec) => ({ topic: `packed-${codec}`, numPartitions: 1, configEntries: [
      { name: 'cleanup.policy', value: 'compact' }, { name: 'segment.bytes', value: '16384' },
      { name: 'min.cleanable.dirty.ratio', value: '0.01' }] })) });
    const keyCount = 200;
    const rounds = 30;
    const expected = new Map();
    let lines = '';
    for (let round = 0; round < rounds; ++round) {
      for (let k = 0; k < keyCount; ++k) {
        // Random filler, so that compression cannot fit every round in the active segment.
        const value = `value-${round}-${k}-${randomBytes(24).toString('hex')}`;
        lines += `key-${k}:${value}\n`;
        expected.set(`key-${k}`, value);
      }
    }
    for (const codec of codecs) {
      execFileSync('kcat', ['-b', broker.address, '-P', '-t', `packed-${codec}`, '-p', '0', '-K:', '-z', codec,
        '-X', 'batch.num.messages=200', '-X', 'linger.ms=20'], { input: lines, timeout: 60000 });
    }
    await waitFor('the cleaner to catch up on every codec', async () => {
      const m = await metrics(broker);
      return codecs.every((codec) => m.ratio(`packed-${codec}`) === 0) && m.value('floe_broker_log_cleaner_passes_total') >= 4;
    }, { timeoutMs: 120000 });
    for (const codec of codecs) {
      const records = kcatRecords(broker, `packed-${codec}`);
      const active = activeBase(broker, `packed-${codec}`);
      const closed = records.filter((r) => r.offset < active);
      assert.ok(closed.length <= keyCount, `${codec}: ${closed.length} records in closed segments`);
      assert.ok(records.length < rounds * keyCount / 3, `${codec}: ${records.length} records remain`);
      assert.deepEqual(latest(records), expected, codec);
      for (const r of records) {
        const [, round, k] = r.value.split('-').map(Number);
        assert.equal(r.offset, round * keyCount + k, `${codec}: ${r.key} at ${r.offset}`);
      }
    }
  } finally {
    await admin.disconnect().catch(() => {});
    await broker.stop();
  }
});
