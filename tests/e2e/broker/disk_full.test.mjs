// A full disk under `floe broker`: the broker's data folder is a small tmpfs. Produces fail
// with KAFKA_STORAGE_ERROR (nothing unacknowledged is kept), the broker keeps serving what it
// has, takes writes again as soon as there is room, and after a restart holds every
// acknowledged message at its offset with no gap and no torn tail. Needs root for the mount;
// elsewhere it says so and skips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { startBroker } from '../../interop/broker/broker_process.mjs';

const { Kafka, logLevel } = createRequire(new URL('../../interop/package.json', import.meta.url))('kafkajs');

function mountTmpfs(dir, size) {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
}

test('a full disk refuses produces cleanly and recovers when space returns', { timeout: 180000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-full-'));
  const mounted = mountTmpfs(dir, '3m');
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    t.skip(`cannot mount a tmpfs here (${(mounted.stderr || '').trim()}): run as root to test a full disk`);
    return;
  }
  let broker;
  try {
    const data = join(dir, 'data');
    broker = await startBroker(['--segment-bytes', '262144'], data);
    const kafka = new Kafka({ clientId: 'full', brokers: [broker.address], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'events', numPartitions: 1 }] });
    const producer = kafka.producer();
    await producer.connect();
    const acked = [];  // values in offset order
    let refusal = null;
    for (let batch = 0; batch < 2000 && !refusal; batch++) {
      const values = Array.from({ length: 20 }, (_, i) => `${batch}-${i}-${randomBytes(300).toString('base64')}`);
      try {
        const [meta] = await producer.send({ topic: 'events', acks: -1, messages: values.map(value => ({ value })) });
        assert.equal(Number(meta.baseOffset), acked.length, 'offsets continue the acknowledged ones');
        acked.push(...values);
      } catch (e) {
        refusal = e;
      }
    }
    assert.ok(refusal, 'a 3 MiB disk filled up');
    assert.match(`${refusal.type} ${refusal.message}`, /KAFKA_STORAGE_ERROR|[Dd]isk error/, String(refusal));
    assert.match(broker.stderr(), /No space left on device/);

    // Still serving: the high watermark is the acknowledged count.
    const offsets = await admin.fetchTopicOffsets('events');
    assert.equal(Number(offsets[0].high), acked.length);

    // Room again: writes continue at the next offset.
    execFileSync('mount', ['-o', 'remount,size=64m', dir]);
    for (let batch = 0; batch < 10; batch++) {
      const values = Array.from({ length: 20 }, (_, i) => `after-${batch}-${i}`);
      const [meta] = await producer.send({ topic: 'events', acks: -1, messages: values.map(value => ({ value })) });
      assert.equal(Number(meta.baseOffset), acked.length);
      acked.push(...values);
    }
    await producer.disconnect();
    await admin.disconnect();
    await broker.stop({ keepData: true });

    // After a restart: exactly the acknowledged messages, in order, and no torn tail to cut.
    broker = await startBroker(['--segment-bytes', '262144'], data);
    const out = execFileSync('kcat', ['-b', broker.address, '-C', '-t', 'events', '-e', '-f', '%o %s\n'],
                             { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 60000 });
    const lines = out.split('\n').filter(Boolean);
    assert.equal(lines.length, acked.length);
    lines.forEach((line, i) => {
      const space = line.indexOf(' ');
      assert.equal(Number(line.slice(0, space)), i);
      assert.equal(line.slice(space + 1), acked[i]);
    });
    assert.doesNotMatch(broker.stderr(), /torn tail/);
  } finally {
    if (broker) await broker.stop({ keepData: true }).catch(() => {});
    spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});
