// kill -9 of the broker in the middle of log compaction, at each step of installing a pass
// (cleaned files written; swap committed; an old segment already removed): after a restart
// the partition opens, no compaction leftovers remain, and kcat reads the latest value of
// every key at the offset it was written to. The broker stops at the step itself
// (FLOE_BROKER_TESTING_CLEANER_STALL), so the kill lands exactly there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startBroker } from '../../interop/broker/broker_process.mjs';
import { waitFor } from '../../interop/support/waiting.mjs';

const { Kafka, logLevel } = createRequire(new URL('../../interop/package.json', import.meta.url))('kafkajs');

const keyCount = 500;
const rounds = 40;

function kcatLatest(address) {
  const out = execFileSync('kcat', ['-b', address, '-C', '-t', 'state', '-p', '0', '-o', 'beginning', '-e', '-q',
    '-f', '%o\t%k\t%s\n'], { encoding: 'utf8', timeout: 60000, maxBuffer: 64 << 20 });
  const latest = new Map();
  let count = 0;
  for (const line of out.split('\n').filter(Boolean)) {
    const [offset, key, value] = line.split('\t');
    const [, round, k] = value.split('-').map(Number);
    assert.equal(Number(offset), round * keyCount + k, `${key} at ${offset}`);
    latest.set(key, value);
    ++count;
  }
  return { latest, count };
}

for (const step of ['cleaned', 'swap', 'swapping']) {
  test(`kill -9 at compaction step "${step}" leaves the partition whole`, { timeout: 180000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-compaction-crash-'));
    try {
      // Fill a compacted topic with the cleaner off, and stop cleanly.
      const writer = await startBroker(['--log-cleaner-enable', 'false'], dir);
      const kafka = new Kafka({ clientId: 'compaction-crash', brokers: [writer.address], logLevel: logLevel.NOTHING });
      const admin = kafka.admin();
      const producer = kafka.producer();
      await admin.connect();
      await producer.connect();
      await admin.createTopics({ topics: [{ topic: 'state', numPartitions: 1, configEntries: [
        { name: 'cleanup.policy', value: 'compact' }, { name: 'segment.bytes', value: '32768' }] }] });
      const expected = new Map();
      for (let round = 0; round < rounds; ++round) {
        const messages = [];
        for (let k = 0; k < keyCount; ++k) {
          messages.push({ key: `key-${k}`, value: `value-${round}-${k}` });
          expected.set(`key-${k}`, `value-${round}-${k}`);
        }
        await producer.send({ topic: 'state', acks: -1, messages });
      }
      await producer.disconnect();
      await admin.disconnect();
      await writer.stop({ keepData: true });

      // The cleaner's first pass stops at `step`; kill -9 there.
      const cleaning = await startBroker(['--log-cleaner-backoff-ms', '50'], dir, { FLOE_BROKER_TESTING_CLEANER_STALL: step });
      await waitFor(`the cleaner to reach ${step}`, () => cleaning.stderr().includes(`stalls at step ${step}`));
      const partition = join(dir, 'topics', 'state', '0');
      const leftovers = readdirSync(partition).filter((f) => f.endsWith('.cleaned') || f.endsWith('.swap'));
      assert.ok(leftovers.length > 0, `the crash leaves compaction files behind (${readdirSync(partition)})`);
      await cleaning.kill9();

      // Restart without cleaning: recovery alone makes the partition whole.
      const recovered = await startBroker(['--log-cleaner-enable', 'false'], dir);
      try {
        assert.deepEqual(readdirSync(partition).filter((f) => f.endsWith('.cleaned') || f.endsWith('.swap')), []);
        const { latest, count } = kcatLatest(recovered.address);
        assert.deepEqual(latest, expected);
        if (step !== 'cleaned') assert.ok(count < rounds * keyCount, 'the committed swap was finished');
      } finally {
        await recovered.stop({ keepData: true });
      }

      // And a broker that cleans to the end agrees.
      const cleaner = await startBroker(['--log-cleaner-backoff-ms', '50'], dir);
      try {
        await waitFor('a cleaning pass', async () => {
          const text = await (await fetch(`http://127.0.0.1:${cleaner.metricsPort}/metrics`)).text();
          return /^floe_broker_log_cleaner_passes_total [1-9]/m.test(text);
        });
        const { latest, count } = kcatLatest(cleaner.address);
        assert.deepEqual(latest, expected);
        assert.ok(count < rounds * keyCount / 2, `${count} records after cleaning`);
      } finally {
        await cleaner.stop({ keepData: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
