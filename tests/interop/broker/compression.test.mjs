// The compression.type topic config against `floe broker`, with clients nobody here wrote:
// kafkajs creates a topic with compression.type=gzip and produces uncompressed batches, kcat
// (librdkafka) produces snappy and lz4 ones; every batch in the segment files (record batches
// back to back, Kafka's layout) is then gzip, and kcat and a kafkajs consumer read every record
// back unchanged. `producer` keeps each batch's codec; a bad value is INVALID_CONFIG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel, ConfigResourceTypes, CompressionTypes } = kafkajs;

function client(broker) {
  return new Kafka({ clientId: 'floe-compression-test', brokers: [broker.address], logLevel: logLevel.NOTHING,
    retry: { retries: 3, initialRetryTime: 100 } });
}

async function topicConfigs(admin, topic) {
  const described = await admin.describeConfigs({ includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }] });
  return Object.fromEntries(described.resources[0].configEntries.map((e) => [e.configName, e.configValue]));
}

// The codec (attributes bits 0-2) of every batch in partition 0's segment files.
function storedCodecs(broker, topic) {
  const folder = join(broker.dir, 'topics', topic, '0');
  const codecs = [];
  for (const file of readdirSync(folder).filter((f) => /^\d{20}\.log$/.test(f)).sort()) {
    const bytes = readFileSync(join(folder, file));
    for (let at = 0; at + 61 <= bytes.length;) {
      const length = bytes.readInt32BE(at + 8);
      codecs.push(bytes.readInt16BE(at + 21) & 7);
      at += 12 + length;
    }
  }
  return codecs;
}

function kcatValues(broker, topic) {
  const out = execFileSync('kcat', ['-b', broker.address, '-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e', '-q',
    '-f', '%o\t%s\n'], { encoding: 'utf8', timeout: 60000 });
  return out.split('\n').filter(Boolean).map((line) => {
    const [offset, value] = line.split('\t');
    return { offset: Number(offset), value };
  });
}

function kcatProduce(broker, topic, codec, values) {
  execFileSync('kcat', ['-b', broker.address, '-P', '-t', topic, '-p', '0', '-z', codec], { input: values.join('\n') + '\n', timeout: 60000 });
}

const value = (i) => `order ${i} ${'x'.repeat(200)}`;

test('compression.type=gzip stores every batch as gzip, whatever the producer sent', { timeout: 120000 }, async () => {
  const broker = await startBroker();
  try {
    const kafka = client(broker);
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'zipped', numPartitions: 1,
      configEntries: [{ name: 'compression.type', value: 'gzip' }] }] });
    await admin.createTopics({ topics: [{ topic: 'as-produced', numPartitions: 1 }] });
    assert.equal((await topicConfigs(admin, 'zipped'))['compression.type'], 'gzip');
    assert.equal((await topicConfigs(admin, 'as-produced'))['compression.type'], 'producer');
    await assert.rejects(admin.createTopics({ topics: [{ topic: 'bad', numPartitions: 1,
      configEntries: [{ name: 'compression.type', value: 'brotli' }] }] }), (e) => /INVALID_CONFIG|Invalid config/i.test(`${e.type} ${e.message} ${JSON.stringify(e.errors ?? '')}`));

    const producer = kafka.producer();
    await producer.connect();
    const expected = [];
    for (let batch = 0; batch < 5; batch++) {
      const messages = [];
      for (let i = 0; i < 100; i++) messages.push({ value: value(expected.length + i) });
      expected.push(...messages.map((m) => m.value));
      for (const topic of ['zipped', 'as-produced']) {
        await producer.send({ topic, compression: CompressionTypes.None, messages });
      }
    }
    await producer.disconnect();
    const more = Array.from({ length: 100 }, (_, i) => value(expected.length + i));
    kcatProduce(broker, 'zipped', 'snappy', more);
    kcatProduce(broker, 'as-produced', 'snappy', more);
    expected.push(...more);
    const last = Array.from({ length: 100 }, (_, i) => value(expected.length + i));
    kcatProduce(broker, 'zipped', 'lz4', last);
    expected.push(...last);

    const codecs = storedCodecs(broker, 'zipped');
    assert.ok(codecs.length >= 7, `batches stored: ${codecs.length}`);
    assert.deepEqual([...new Set(codecs)], [1], `codecs stored: ${codecs}`);
    // Without the config each batch keeps its producer's codec: none, then snappy.
    assert.deepEqual([...new Set(storedCodecs(broker, 'as-produced'))], [0, 2]);

    const read = kcatValues(broker, 'zipped');
    assert.deepEqual(read.map((r) => r.offset), expected.map((_, i) => i));
    assert.deepEqual(read.map((r) => r.value), expected);
    // kafkajs reads the gzip batches too (gzip is the codec it has built in).
    const consumer = kafka.consumer({ groupId: 'compression-readers' });
    await consumer.connect();
    await consumer.subscribe({ topic: 'zipped', fromBeginning: true });
    const seen = [];
    await new Promise((resolve, reject) => {
      consumer.run({ eachMessage: async ({ message }) => {
        seen.push(message.value.toString());
        if (seen.length === expected.length) resolve();
      } }).catch(reject);
    });
    await consumer.disconnect();
    assert.deepEqual(seen, expected);

    // Back to `producer`: later batches keep their codec.
    await admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'zipped',
      configEntries: [{ name: 'compression.type', value: 'producer' }] }] });
    kcatProduce(broker, 'zipped', 'snappy', [value(-1)]);
    const after = storedCodecs(broker, 'zipped');
    assert.equal(after[after.length - 1], 2);
    await admin.disconnect();
  } finally {
    await broker.stop();
  }
});
