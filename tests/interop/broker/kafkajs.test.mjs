// kafkajs (npm, pure JavaScript, nobody here wrote it) against `floe broker`: admin, producer
// with each codec kafkajs ships, a two-member consumer group, committed offsets, metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, CompressionTypes, logLevel } = kafkajs;

async function waitForState(admin, groupId, state) {
  for (let i = 0; i < 100; i++) {
    const { groups } = await admin.describeGroups([groupId]);
    if (groups[0].state === state) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`group ${groupId} never reached ${state}`);
}

test('kafkajs admin, producer and a two-member consumer group', { timeout: 120000 }, async () => {
  const broker = await startBroker();
  const kafka = new Kafka({ clientId: 'floe-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  try {
    await admin.connect();
    assert.equal(await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 4 }] }), true);
    const meta = await admin.fetchTopicMetadata({ topics: ['orders'] });
    assert.equal(meta.topics[0].partitions.length, 4);
    assert.ok((await admin.listTopics()).includes('orders'));

    const producer = kafka.producer();
    await producer.connect();
    const sent = new Map();
    for (const [codec, compression] of [['none', CompressionTypes.None], ['gzip', CompressionTypes.GZIP]]) {
      const messages = [];
      for (let i = 0; i < 200; i++) {
        const key = `${codec}-${i}`;
        const value = `value ${i} compressed with ${codec} ` + 'x'.repeat(i % 50);
        messages.push({ key, value, headers: { codec, n: String(i) } });
        sent.set(key, value);
      }
      await producer.send({ topic: 'orders', compression, acks: -1, messages });
    }
    await producer.disconnect();
    const offsets = await admin.fetchTopicOffsets('orders');
    assert.equal(offsets.reduce((sum, p) => sum + Number(p.high), 0), 400);

    // Two members share the four partitions; every message arrives exactly once.
    const received = new Map();
    const perMember = [new Set(), new Set()];
    const consumers = [0, 1].map(() => kafka.consumer({ groupId: 'g1', sessionTimeout: 10000, heartbeatInterval: 500 }));
    let resolveAll;
    const all = new Promise((resolve) => { resolveAll = resolve; });
    for (const [i, consumer] of consumers.entries()) {
      await consumer.connect();
      await consumer.subscribe({ topic: 'orders', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          const key = message.key.toString();
          assert.ok(!received.has(key), `duplicate ${key}`);
          assert.equal(message.headers.codec.toString(), key.split('-')[0]);
          received.set(key, message.value.toString());
          perMember[i].add(partition);
          if (received.size === sent.size) resolveAll();
        },
      });
    }
    await all;
    assert.deepEqual([...received.entries()].sort(), [...sent.entries()].sort());
    const groups = await admin.describeGroups(['g1']);
    assert.equal(groups.groups[0].state, 'Stable');
    assert.equal(groups.groups[0].members.length, 2);
    for (const consumer of consumers) await consumer.disconnect();

    // Offsets were committed: the group's lag is zero on every partition.
    const committed = await admin.fetchOffsets({ groupId: 'g1', topics: ['orders'] });
    const total = committed[0].partitions.reduce((sum, p) => sum + Number(p.offset), 0);
    assert.equal(total, 400);

    const metrics = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
    assert.match(metrics, /floe_broker_high_watermark\{topic="orders",partition="0"\} \d+/);
    assert.match(metrics, /floe_broker_request_duration_seconds_count\{api="Produce"\} [1-9]/);

    // DeleteGroups: g1 has no members left; a live group and an unknown one are refused.
    const live = kafka.consumer({ groupId: 'g2', sessionTimeout: 10000, heartbeatInterval: 500 });
    await live.connect();
    await live.subscribe({ topic: 'orders', fromBeginning: true });
    await live.run({ eachMessage: async () => {} });
    await waitForState(admin, 'g2', 'Stable');
    const results = await admin.deleteGroups(['g1']);
    assert.deepEqual(results.map((r) => [r.groupId, r.errorCode]), [['g1', 0]]);
    assert.ok(!(await admin.listGroups()).groups.some((g) => g.groupId === 'g1'));
    const afterDelete = await admin.fetchOffsets({ groupId: 'g1', topics: ['orders'] });
    assert.ok(afterDelete[0].partitions.every((p) => p.offset === '-1'), JSON.stringify(afterDelete));
    await assert.rejects(admin.deleteGroups(['g2']), (e) => e.groups?.[0]?.error?.type === 'NON_EMPTY_GROUP');
    await assert.rejects(admin.deleteGroups(['nobody']), (e) => e.groups?.[0]?.error?.type === 'GROUP_ID_NOT_FOUND');
    await live.disconnect();

    // CreatePartitions: four to six; the new partitions take messages; shrinking is refused.
    await admin.createPartitions({ topicPartitions: [{ topic: 'orders', count: 6 }] });
    assert.equal((await admin.fetchTopicMetadata({ topics: ['orders'] })).topics[0].partitions.length, 6);
    const more = kafka.producer();
    await more.connect();
    await more.send({ topic: 'orders', acks: -1, messages: [{ partition: 5, value: 'on a new partition' }] });
    await more.disconnect();
    assert.equal((await admin.fetchTopicOffsets('orders')).find((p) => p.partition === 5).high, '1');
    await assert.rejects(admin.createPartitions({ topicPartitions: [{ topic: 'orders', count: 3 }] }), /Number of partitions is invalid|INVALID_PARTITIONS/i);
    await assert.rejects(admin.createPartitions({ topicPartitions: [{ topic: 'nothing', count: 3 }] }), /does not host this topic-partition/);

    await admin.deleteTopics({ topics: ['orders'] });
    assert.ok(!(await admin.listTopics()).includes('orders'));
  } finally {
    await admin.disconnect().catch(() => {});
    await broker.stop();
  }
});
