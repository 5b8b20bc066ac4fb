// The admin APIs against `floe broker`: kafkajs's admin client alters topic configs
// (AlterConfigs, persisted across a restart, validated with Kafka's codes), deletes records
// (DeleteRecords: the low watermark moves, kcat then starts there, a restart keeps it) and
// finds offsets by timestamp at record granularity (ListOffsets); IncrementalAlterConfigs v1 and
// DescribeCluster v0, which neither kafkajs nor Debian's librdkafka (2.0.2) speaks, as the
// flexible frames librdkafka 2.3+ sends. With users, a reader may do none of the changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel, ConfigResourceTypes } = kafkajs;

function client(broker, sasl) {
  return new Kafka({ clientId: 'floe-admin-test', brokers: [broker.address], logLevel: logLevel.NOTHING, sasl,
    retry: { retries: 0 } });
}

async function topicConfigs(admin, topic) {
  const described = await admin.describeConfigs({ includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }] });
  return Object.fromEntries(described.resources[0].configEntries.map((e) => [e.configName, e.configValue]));
}

// --- Flexible request frames (header v2), for the APIs no client here speaks. ---
const i8 = (v) => Buffer.from([v & 0xff]);
const i16 = (v) => { const b = Buffer.alloc(2); b.writeInt16BE(v); return b; };
const i32 = (v) => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
const uvarint = (v) => { const out = []; while (v > 0x7f) { out.push((v & 0x7f) | 0x80); v >>>= 7; } out.push(v); return Buffer.from(out); };
const compactString = (s) => (s === null ? uvarint(0) : Buffer.concat([uvarint(Buffer.byteLength(s) + 1), Buffer.from(s)]));
const compactArray = (items) => Buffer.concat([uvarint(items.length + 1), ...items]);
const tags = () => uvarint(0);
function flexibleFrame(apiKey, version, body, correlation) {
  const header = Buffer.concat([i16(apiKey), i16(version), i32(correlation), i16(3), Buffer.from('raw'), tags()]);
  return Buffer.concat([i32(header.length + body.length), header, body]);
}
function exchange(port, frames) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const responses = [];
    socket.on('data', (d) => {
      data = Buffer.concat([data, d]);
      while (data.length >= 4 && data.length >= 4 + data.readInt32BE(0)) {
        responses.push(data.subarray(4, 4 + data.readInt32BE(0)));
        data = data.subarray(4 + data.readInt32BE(0));
      }
      if (responses.length === frames.length) { socket.destroy(); resolve(responses); }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(responses));
    socket.on('connect', () => socket.write(Buffer.concat(frames)));
  });
}
// A reader over a flexible response body.
class Reader {
  constructor(buffer) { this.b = buffer; this.at = 0; }
  i8() { return this.b.readInt8(this.at++); }
  i16() { const v = this.b.readInt16BE(this.at); this.at += 2; return v; }
  i32() { const v = this.b.readInt32BE(this.at); this.at += 4; return v; }
  uvarint() { let v = 0, shift = 0, byte; do { byte = this.b[this.at++]; v |= (byte & 0x7f) << shift; shift += 7; } while (byte & 0x80); return v; }
  string() { const n = this.uvarint(); if (n === 0) return null; const s = this.b.toString('utf8', this.at, this.at + n - 1); this.at += n - 1; return s; }
  tags() { const n = this.uvarint(); assert.equal(n, 0); }
}
function incrementalAlter(resources, validateOnly, correlation) {
  const body = Buffer.concat([compactArray(resources.map(({ type, name, configs }) => Buffer.concat([i8(type), compactString(name),
    compactArray(configs.map(([key, op, value]) => Buffer.concat([compactString(key), i8(op), compactString(value), tags()]))),
    tags()]))), i8(validateOnly ? 1 : 0), tags()]);
  return flexibleFrame(44, 1, body, correlation);
}
function parseAlterResponse(response) {
  const r = new Reader(response);
  r.i32();  // correlation id
  r.tags();
  r.i32();  // throttle
  const n = r.uvarint() - 1;
  const out = [];
  for (let i = 0; i < n; ++i) {
    out.push({ error: r.i16(), message: r.string(), type: r.i8(), name: r.string() });
    r.tags();
  }
  r.tags();
  assert.equal(r.at, response.length);
  return out;
}

test('AlterConfigs, IncrementalAlterConfigs and DescribeCluster', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-admin-'));
  let broker = await startBroker([], dir);
  try {
    let admin = client(broker).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'configured', numPartitions: 1,
      configEntries: [{ name: 'retention.ms', value: '1000000' }] }] });
    // kafkajs's alterConfigs: the whole set of overrides (retention.ms goes back to the default).
    await admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'configured',
      configEntries: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'segment.bytes', value: '65536' }] }] });
    let configs = await topicConfigs(admin, 'configured');
    assert.equal(configs['cleanup.policy'], 'compact');
    assert.equal(configs['segment.bytes'], '65536');
    assert.equal(configs['retention.ms'], '604800000');
    // Refusals with Kafka's codes, and nothing changed.
    await assert.rejects(admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'configured',
      configEntries: [{ name: 'segment.bytes', value: 'lots' }] }] }), (e) => e.type === 'INVALID_CONFIG');
    await assert.rejects(admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'configured',
      configEntries: [{ name: 'no.such.config', value: '1' }] }] }), (e) => e.type === 'INVALID_CONFIG');
    await assert.rejects(admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'missing',
      configEntries: [{ name: 'retention.ms', value: '1' }] }] }), (e) => e.type === 'UNKNOWN_TOPIC_OR_PARTITION');
    await admin.alterConfigs({ validateOnly: true, resources: [{ type: ConfigResourceTypes.TOPIC, name: 'configured',
      configEntries: [{ name: 'retention.ms', value: '5' }] }] });
    assert.equal((await topicConfigs(admin, 'configured'))['retention.ms'], '604800000');

    // IncrementalAlterConfigs v1: SET, APPEND to the list, DELETE; then bad operations.
    const [set, append, bad, twice, broker4] = (await exchange(broker.port, [
      incrementalAlter([{ type: 2, name: 'configured', configs: [['retention.ms', 0, '86400000'], ['segment.bytes', 1, null]] }], false, 1),
      incrementalAlter([{ type: 2, name: 'configured', configs: [['cleanup.policy', 2, 'delete']] }], false, 2),
      incrementalAlter([{ type: 2, name: 'configured', configs: [['retention.ms', 2, '5']] }], false, 3),
      incrementalAlter([{ type: 2, name: 'configured', configs: [['retention.ms', 0, '5'], ['retention.ms', 0, '6']] }], false, 4),
      incrementalAlter([{ type: 4, name: '0', configs: [['log.retention.ms', 0, '5']] }], false, 5),
    ])).map(parseAlterResponse);
    assert.deepEqual(set, [{ error: 0, message: null, type: 2, name: 'configured' }]);
    assert.equal(append[0].error, 0);
    assert.equal(bad[0].error, 40);     // INVALID_CONFIG: retention.ms is not a list
    assert.equal(twice[0].error, 42);   // INVALID_REQUEST: the same config twice
    assert.equal(broker4[0].error, 42); // broker settings are static
    configs = await topicConfigs(admin, 'configured');
    assert.equal(configs['retention.ms'], '86400000');
    assert.equal(configs['segment.bytes'], '1073741824');
    assert.equal(configs['cleanup.policy'], 'compact,delete');

    // DescribeCluster v0 (asking for the cluster operations).
    const [cluster] = await exchange(broker.port, [flexibleFrame(60, 0, Buffer.concat([i8(1), tags()]), 9)]);
    const r = new Reader(cluster);
    assert.equal(r.i32(), 9);
    r.tags();
    r.i32();
    assert.equal(r.i16(), 0);
    assert.equal(r.string(), null);
    assert.equal(r.string(), 'floe');
    assert.equal(r.i32(), 0);  // controller
    assert.equal(r.uvarint() - 1, 1);
    assert.equal(r.i32(), 0);
    assert.equal(r.string(), '127.0.0.1');
    assert.equal(r.i32(), broker.port);
    assert.equal(r.string(), null);
    r.tags();
    const operations = r.i32();
    assert.ok(operations & (1 << 8), 'DESCRIBE');
    assert.ok(operations & (1 << 11), 'ALTER_CONFIGS (no users: everything is allowed)');
    r.tags();
    assert.equal(r.at, cluster.length);

    // Persisted: a restart keeps the configs.
    await admin.disconnect();
    await broker.stop({ keepData: true });
    broker = await startBroker([], dir);
    admin = client(broker).admin();
    await admin.connect();
    configs = await topicConfigs(admin, 'configured');
    assert.equal(configs['retention.ms'], '86400000');
    assert.equal(configs['cleanup.policy'], 'compact,delete');
    await admin.disconnect();
  } finally {
    await broker.stop({ keepData: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test('DeleteRecords moves the log start durably; ListOffsets by timestamp finds the record', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-admin-'));
  let broker = await startBroker(['--segment-bytes', '4096'], dir);
  try {
    let kafka = client(broker);
    let admin = kafka.admin();
    const producer = kafka.producer();
    await admin.connect();
    await producer.connect();
    await admin.createTopics({ topics: [{ topic: 'trimmed', numPartitions: 1 }] });
    // One batch of 100 records with timestamps 1000, 1010, ..., 1990 (record granularity).
    await producer.send({ topic: 'trimmed', acks: -1, messages: Array.from({ length: 100 }, (_, i) => ({
      key: `k${i}`, value: `v${i}`, timestamp: String(1000 + 10 * i) })) });
    for (let b = 0; b < 10; ++b) {
      await producer.send({ topic: 'trimmed', acks: -1, messages: Array.from({ length: 50 }, (_, i) => ({ value: `x${b}-${i}` })) });
    }
    const byTime = await admin.fetchTopicOffsetsByTimestamp('trimmed', 1455);
    assert.deepEqual(byTime, [{ partition: 0, offset: '46' }]);

    await admin.deleteTopicRecords({ topic: 'trimmed', partitions: [{ partition: 0, offset: '230' }] });
    let [offsets] = await admin.fetchTopicOffsets('trimmed');
    assert.equal(offsets.low, '230');
    assert.equal(offsets.high, '600');
    const first = () => execFileSync('kcat', ['-b', broker.address, '-C', '-t', 'trimmed', '-o', 'beginning', '-c', '1', '-q',
      '-f', '%o\n'], { encoding: 'utf8', timeout: 30000 }).trim();
    assert.equal(first(), '230');
    // Past the high watermark: OFFSET_OUT_OF_RANGE (kafkajs reports the partition's error).
    await assert.rejects(admin.deleteTopicRecords({ topic: 'trimmed', partitions: [{ partition: 0, offset: '601' }] }));
    await producer.disconnect();
    await admin.disconnect();

    await broker.kill9();
    broker = await startBroker(['--segment-bytes', '4096'], dir);
    kafka = client(broker);
    admin = kafka.admin();
    await admin.connect();
    [offsets] = await admin.fetchTopicOffsets('trimmed');
    assert.equal(offsets.low, '230', 'the log start survives kill -9');
    assert.equal(first(), '230');
    // Before the log start, a timestamp finds the log start.
    assert.deepEqual(await admin.fetchTopicOffsetsByTimestamp('trimmed', 1000), [{ partition: 0, offset: '230' }]);
    await admin.disconnect();
  } finally {
    await broker.stop({ keepData: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a reader may not alter configs or delete records', { timeout: 60000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-admin-auth-'));
  const authFile = join(dir, 'users.toml');
  for (const [name, role] of [['root', 'admin'], ['rita', 'reader']]) {
    execFileSync(process.env.FLOE_BIN, ['user', 'add', name, '--role', role, '--auth-file', authFile], { input: `${name}-secret\n` });
  }
  const broker = await startBroker(['--auth-file', authFile], join(dir, 'data'));
  try {
    const root = client(broker, { mechanism: 'scram-sha-256', username: 'root', password: 'root-secret' }).admin();
    await root.connect();
    await root.createTopics({ topics: [{ topic: 'guarded', numPartitions: 1 }] });
    const rita = client(broker, { mechanism: 'scram-sha-256', username: 'rita', password: 'rita-secret' }).admin();
    await rita.connect();
    await assert.rejects(rita.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'guarded',
      configEntries: [{ name: 'retention.ms', value: '1' }] }] }), (e) => e.type === 'TOPIC_AUTHORIZATION_FAILED');
    await assert.rejects(rita.deleteTopicRecords({ topic: 'guarded', partitions: [{ partition: 0, offset: '-1' }] }));
    assert.notEqual((await topicConfigs(root, 'guarded'))['retention.ms'], '1');
    await rita.disconnect();
    await root.disconnect();
  } finally {
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
