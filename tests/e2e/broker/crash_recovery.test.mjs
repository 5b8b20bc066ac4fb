// kill -9 during an acks=all produce: after a restart every acknowledged message is there, at
// the offset it was acknowledged with, in order, with no gaps. Real processes: the broker is
// `floe broker`, the producer and consumer are kafkajs (npm) and kcat (Debian).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startBroker } from '../../interop/broker/broker_process.mjs';

// ESM ignores NODE_PATH: resolve kafkajs from tests/interop/node_modules.
const { Kafka, logLevel } = createRequire(new URL('../../interop/package.json', import.meta.url))('kafkajs');

test('acknowledged acks=all messages survive kill -9', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-crash-'));
  try {
    const first = await startBroker(['--fsync', 'batch'], dir);
    const kafka = new Kafka({ clientId: 'crash', brokers: [first.address], logLevel: logLevel.NOTHING,
      retry: { retries: 0 } });
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    await producer.connect();
    const acked = new Map();  // offset -> value
    let sequence = 0;
    let killed = false;
    // Several producers' worth of requests in flight, so the kill lands mid-append.
    const loops = [0, 1, 2, 3].map(async () => {
      while (!killed) {
        const messages = Array.from({ length: 20 }, () => ({ value: `m${sequence++}` }));
        try {
          const [result] = await producer.send({ topic: 'durable', acks: -1, messages });
          const base = Number(result.baseOffset);
          messages.forEach((m, i) => acked.set(base + i, m.value));
        } catch {
          return;  // The broker is gone: this batch was never acknowledged.
        }
      }
    });
    while (acked.size < 2000) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    await first.kill9();
    await Promise.all(loops);
    await producer.disconnect().catch(() => {});

    const second = await startBroker(['--fsync', 'batch'], dir);
    try {
      const out = execFileSync('kcat', ['-b', second.address, '-C', '-t', 'durable', '-e', '-q', '-f', '%o %s\n'],
        { encoding: 'utf8', timeout: 60000 });
      const stored = out.split('\n').filter(Boolean).map((l) => l.split(' '));
      // No gaps: offsets run 0, 1, 2, ... and every acknowledged offset holds its message.
      stored.forEach(([offset], i) => assert.equal(Number(offset), i));
      const byOffset = new Map(stored.map(([o, v]) => [Number(o), v]));
      for (const [offset, value] of acked) assert.equal(byOffset.get(offset), value, `offset ${offset}`);
      assert.ok(stored.length >= acked.size);
    } finally {
      await second.stop({ keepData: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
