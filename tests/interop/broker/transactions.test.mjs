// Transactions (KIP-98) against `floe broker` with clients nobody here wrote: kafkajs's
// transactional producer (commit, abort, sendOffsets, fencing by a second producer), kafkajs
// consumers in both isolation levels, kcat (librdkafka) with isolation.level=read_committed,
// a kill -9 in the middle of a transaction, and hand-made frames for the refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel } = kafkajs;

function client(broker) {
  return new Kafka({ clientId: 'floe-txn-test', brokers: [broker.address], logLevel: logLevel.NOTHING,
    retry: { retries: 3, initialRetryTime: 100 } });
}

let groups = 0;
// Reads `topic` from the beginning in a fresh group until `done(messages)`, then a little
// longer so that anything that should not arrive has the chance to.
async function consume(kafka, topic, { readUncommitted = false, done }) {
  const consumer = kafka.consumer({ groupId: `reader-${++groups}`, readUncommitted, maxWaitTimeInMs: 100,
    sessionTimeout: 10000, heartbeatInterval: 500 });
  const messages = [];
  let finish;
  const finished = new Promise((resolve) => { finish = resolve; });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      messages.push({ partition, offset: Number(message.offset), key: message.key?.toString(), value: message.value?.toString() });
      if (done(messages)) finish();
    },
  });
  await finished;
  await new Promise((r) => setTimeout(r, 700));
  await consumer.disconnect();
  return messages;
}

const keys = (messages) => messages.map((m) => m.key).sort();
const sawEnds = (n) => (messages) => messages.filter((m) => m.key === 'end').length >= n;

function kcatKeys(broker, topic, isolation) {
  const out = execFileSync('kcat', ['-b', broker.address, '-C', '-t', topic, '-e', '-q', '-X', `isolation.level=${isolation}`,
    '-f', '%k\n'], { encoding: 'utf8', timeout: 30000 });
  return out.split('\n').filter((l) => l.length > 0).sort();
}

test('kafkajs transactions: commit, abort, isolation levels, sendOffsets, fencing; kcat read_committed',
  { timeout: 120000 }, async () => {
    const broker = await startBroker();
    const kafka = client(broker);
    const admin = kafka.admin();
    const plain = kafka.producer();
    const producers = [];
    try {
      await admin.connect();
      await admin.createTopics({ topics: [{ topic: 'tx-events', numPartitions: 2 }, { topic: 'tx-source' },
        { topic: 'tx-fence' }] });
      await plain.connect();
      const producer = kafka.producer({ transactionalId: 'writer', maxInFlightRequests: 1, idempotent: true });
      producers.push(producer);
      await producer.connect();

      const committed = await producer.transaction();
      await committed.send({ topic: 'tx-events', messages: [
        { key: 'c1', value: 'committed one', partition: 0 }, { key: 'c2', value: 'committed two', partition: 1 },
        { key: 'c3', value: 'committed three', partition: 0 }] });
      await committed.commit();
      const aborted = await producer.transaction();
      await aborted.send({ topic: 'tx-events', messages: [
        { key: 'a1', value: 'aborted one', partition: 0 }, { key: 'a2', value: 'aborted two', partition: 1 }] });
      await aborted.send({ topic: 'tx-events', messages: [{ key: 'a3', value: 'aborted three', partition: 0 }] });
      await aborted.abort();
      const again = await producer.transaction();
      await again.send({ topic: 'tx-events', messages: [{ key: 'c4', value: 'committed four', partition: 1 }] });
      await again.commit();
      await plain.send({ topic: 'tx-events', acks: -1, messages: [{ key: 'end', value: 'p0', partition: 0 },
        { key: 'end', value: 'p1', partition: 1 }] });

      const committedKeys = ['c1', 'c2', 'c3', 'c4', 'end', 'end'];
      const readCommitted = await consume(kafka, 'tx-events', { done: sawEnds(2) });
      assert.deepEqual(keys(readCommitted), committedKeys);
      const readUncommitted = await consume(kafka, 'tx-events', { readUncommitted: true, done: sawEnds(2) });
      // Both transactions' records, and no control record passed off as a message.
      assert.deepEqual(keys(readUncommitted), ['a1', 'a2', 'a3', 'c1', 'c2', 'c3', 'c4', 'end', 'end']);
      // The markers take offsets: partition 0 holds c1 c3 | commit | a1 a3 | abort | end.
      const p0 = readUncommitted.filter((m) => m.partition === 0).map((m) => [m.key, m.offset]);
      assert.deepEqual(p0, [['c1', 0], ['c3', 1], ['a1', 3], ['a3', 4], ['end', 6]]);
      assert.deepEqual(kcatKeys(broker, 'tx-events', 'read_committed'), committedKeys);
      assert.deepEqual(kcatKeys(broker, 'tx-events', 'read_uncommitted'),
        ['a1', 'a2', 'a3', 'c1', 'c2', 'c3', 'c4', 'end', 'end']);

      // While a transaction is open, read_committed stops at the last stable offset.
      const open = await producer.transaction();
      await open.send({ topic: 'tx-events', messages: [{ key: 'open', value: 'not yet', partition: 0 }] });
      await plain.send({ topic: 'tx-events', acks: -1, messages: [{ key: 'behind', value: 'after the open one', partition: 0 }] });
      assert.deepEqual(kcatKeys(broker, 'tx-events', 'read_committed'), committedKeys);
      assert.ok(kcatKeys(broker, 'tx-events', 'read_uncommitted').includes('open'));
      await open.commit();
      assert.deepEqual(kcatKeys(broker, 'tx-events', 'read_committed'), [...committedKeys, 'behind', 'open'].sort());

      // sendOffsets: the group's offsets move with the transaction, and only if it commits.
      const groupOffset = async () =>
        (await admin.fetchOffsets({ groupId: 'eos', topics: ['tx-source'] }))[0].partitions[0].offset;
      const withOffsets = await producer.transaction();
      await withOffsets.send({ topic: 'tx-events', messages: [{ key: 'derived', value: 'from source', partition: 1 }] });
      await withOffsets.sendOffsets({ consumerGroupId: 'eos', topics: [{ topic: 'tx-source', partitions: [{ partition: 0, offset: '5' }] }] });
      assert.equal(await groupOffset(), '-1');
      await withOffsets.commit();
      assert.equal(await groupOffset(), '5');
      const dropped = await producer.transaction();
      await dropped.sendOffsets({ consumerGroupId: 'eos', topics: [{ topic: 'tx-source', partitions: [{ partition: 0, offset: '9' }] }] });
      await dropped.abort();
      assert.equal(await groupOffset(), '5');

      // A second producer with the same transactional id fences the first, whose open
      // transaction is aborted.
      const zombie = kafka.producer({ transactionalId: 'fenced', maxInFlightRequests: 1, idempotent: true });
      producers.push(zombie);
      await zombie.connect();
      const zombieTxn = await zombie.transaction();
      await zombieTxn.send({ topic: 'tx-fence', messages: [{ key: 'zombie-1', value: 'never committed' }] });
      const successor = kafka.producer({ transactionalId: 'fenced', maxInFlightRequests: 1, idempotent: true });
      producers.push(successor);
      await successor.connect();
      // kafkajs initializes the transactional id (InitProducerId) at the first transaction().
      const successorTxn = await successor.transaction();
      await assert.rejects(zombieTxn.send({ topic: 'tx-fence', messages: [{ key: 'zombie-2', value: 'fenced' }] }),
        (e) => /INVALID_PRODUCER_EPOCH|old epoch|fenced/i.test(`${e.type} ${e.message}`));
      await assert.rejects(zombieTxn.commit(), (e) => /INVALID_PRODUCER_EPOCH|old epoch|fenced|INVALID_TXN_STATE|transaction/i.test(`${e.type} ${e.message}`));
      await successorTxn.send({ topic: 'tx-fence', messages: [{ key: 'successor', value: 'committed' }] });
      await successorTxn.commit();
      assert.deepEqual(kcatKeys(broker, 'tx-fence', 'read_committed'), ['successor']);
      assert.deepEqual(kcatKeys(broker, 'tx-fence', 'read_uncommitted'), ['successor', 'zombie-1']);

      // Five commits and three aborts (the zombie's by its successor); nothing left open.
      const metrics = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
      assert.match(metrics, /floe_broker_transactions_total\{outcome="commit"\} 5\n/);
      assert.match(metrics, /floe_broker_transactions_total\{outcome="abort"\} 3\n/);
      const gauge = (name) => Number(metrics.match(new RegExp(`${name}\\{topic="tx-events",partition="0"\\} (\\d+)`))[1]);
      assert.equal(gauge('floe_broker_last_stable_offset'), gauge('floe_broker_high_watermark'));
    } finally {
      for (const p of producers) await p.disconnect().catch(() => {});
      await plain.disconnect().catch(() => {});
      await admin.disconnect().catch(() => {});
      await broker.stop();
    }
  });

test('kill -9 mid-transaction: the open transaction is aborted on timeout, committed data stays',
  { timeout: 120000 }, async () => {
    const first = await startBroker();
    let second = null;
    try {
      let kafka = client(first);
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic: 'crash' }] });
      await admin.disconnect();
      const producer = kafka.producer({ transactionalId: 'crasher', maxInFlightRequests: 1, idempotent: true,
        transactionTimeout: 3000 });
      await producer.connect();
      const kept = await producer.transaction();
      await kept.send({ topic: 'crash', messages: [{ key: 'kept-1', value: 'x' }, { key: 'kept-2', value: 'y' }] });
      await kept.commit();
      const openedAt = Date.now();
      const lost = await producer.transaction();
      await lost.send({ topic: 'crash', messages: [{ key: 'lost-1', value: 'in flight at the crash' }] });
      await first.kill9();
      await producer.disconnect().catch(() => {});

      second = await startBroker([], first.dir);
      kafka = client(second);
      const plain = kafka.producer();
      await plain.connect();
      await plain.send({ topic: 'crash', acks: -1, messages: [{ key: 'end', value: 'after the restart' }] });
      await plain.disconnect();
      // read_committed waits behind the open transaction until its timeout aborts it.
      const committed = await consume(kafka, 'crash', { done: sawEnds(1) });
      assert.deepEqual(keys(committed), ['end', 'kept-1', 'kept-2']);
      assert.ok(Date.now() - openedAt >= 3000, 'the transaction ended before its timeout');
      assert.match(second.stderr(), /transaction 'crasher' timed out/);
      const everything = await consume(kafka, 'crash', { readUncommitted: true, done: sawEnds(1) });
      assert.deepEqual(keys(everything), ['end', 'kept-1', 'kept-2', 'lost-1']);
      // The transactional id carries on with a newer epoch.
      const successor = kafka.producer({ transactionalId: 'crasher', maxInFlightRequests: 1, idempotent: true });
      await successor.connect();
      const next = await successor.transaction();
      await next.send({ topic: 'crash', messages: [{ key: 'next', value: 'z' }] });
      await next.commit();
      await successor.disconnect();
      assert.deepEqual(kcatKeys(second, 'crash', 'read_committed'), ['end', 'kept-1', 'kept-2', 'next']);
    } finally {
      if (second) await second.stop({ keepData: true });
      await first.stop();
    }
  });

// Hand-made frames: what a confused or hostile client gets.
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
      if (responses.length === frames.length) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(responses));
    socket.on('connect', () => { for (const f of frames) socket.write(f); });
    setTimeout(() => socket.destroy(), 5000);
  });
}

const str = (s) => { const b = Buffer.alloc(2 + s.length); b.writeInt16BE(s.length); b.write(s, 2); return b; };
const i16 = (v) => { const b = Buffer.alloc(2); b.writeInt16BE(v); return b; };
const i32 = (v) => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
const i64 = (v) => { const b = Buffer.alloc(8); b.writeBigInt64BE(BigInt(v)); return b; };
// CRC-32C (Castagnoli), which RecordBatch v2 carries.
function crc32c(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0x82f63b78 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function frame(apiKey, version, body, correlation) {
  const header = Buffer.concat([i16(apiKey), i16(version), i32(correlation), str('raw')]);
  return Buffer.concat([i32(header.length + body.length), header, body]);
}

test('refusals: unknown producer, wrong state, bad timeout, unadded partition; bad frames', { timeout: 60000 }, async () => {
  const broker = await startBroker();
  try {
    execFileSync(process.env.FLOE_BIN, ['topic', 'create', '--brokers', broker.address, 'raw', '--partitions', '1']);
    // InitProducerId v1 for "raw" with a 10 s timeout, and with a timeout of 0.
    const [init, badTimeout, coordinator] = await exchange(broker.port, [
      frame(22, 1, Buffer.concat([str('raw'), i32(10000)]), 1),
      frame(22, 1, Buffer.concat([str('raw2'), i32(0)]), 2),
      frame(10, 1, Buffer.concat([str('raw'), Buffer.from([1])]), 3),
    ]);
    assert.equal(init.readInt16BE(8), 0);
    const producerId = init.readBigInt64BE(10);
    assert.equal(init.readInt16BE(18), 0);
    assert.equal(badTimeout.readInt16BE(8), 50);  // INVALID_TRANSACTION_TIMEOUT
    assert.equal(coordinator.readInt16BE(8), 0);  // FindCoordinator for a transaction: this node
    assert.equal(coordinator.readInt32BE(12), 0);

    const addPartitions = (id, pid, epoch) => frame(24, 1, Buffer.concat([str(id), i64(pid), i16(epoch),
      i32(1), str('raw'), i32(1), i32(0)]), 4);
    const endTxn = (pid, epoch, commit) => frame(26, 1, Buffer.concat([str('raw'), i64(pid), i16(epoch), Buffer.from([commit])]), 5);
    const [unknownId, wrongPid, wrongEpoch, endEmpty] = await exchange(broker.port, [
      addPartitions('nobody', producerId, 0), addPartitions('raw', producerId + 1n, 0), addPartitions('raw', producerId, 3),
      endTxn(producerId, 0, 1)]);
    const partitionError = (r) => r.readInt16BE(4 + 4 + 4 + 2 + 3 + 4 + 4);
    assert.equal(partitionError(unknownId), 49);  // INVALID_PRODUCER_ID_MAPPING
    assert.equal(partitionError(wrongPid), 49);
    assert.equal(partitionError(wrongEpoch), 47);  // INVALID_PRODUCER_EPOCH for v1 (PRODUCER_FENCED from v2)
    assert.equal(endEmpty.readInt16BE(8), 48);     // INVALID_TXN_STATE: nothing begun

    // A transactional batch for a partition never added: INVALID_TXN_STATE, and nothing stored.
    // Produce requests: `attributes` of the one batch, the request's transactional id.
    const produce = (attributes, transactionalId, correlation) => {
      const records = Buffer.from([0x10, 0, 0, 0, 2, 0x6b, 2, 0x76, 0]);  // one record: key "k", value "v"
      const body = Buffer.concat([i16(attributes), i32(0), i64(1), i64(1), i64(producerId), i16(0), i32(0), i32(1), records]);
      const head = Buffer.concat([i64(0), i32(4 + 1 + 4 + body.length), i32(0), Buffer.from([2])]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32c(body));
      const batch = Buffer.concat([head, crc, body]);
      const id = transactionalId === null ? i16(-1) : str(transactionalId);
      return frame(0, 3, Buffer.concat([id, i16(-1), i32(5000), i32(1), str('raw'), i32(1), i32(0),
        i32(batch.length), batch]), correlation);
    };
    const produceError = (response) => response.readInt16BE(4 + 4 + 5 + 4 + 4);
    const refused = await exchange(broker.port, [
      produce(0x10, 'raw', 6),      // a partition never added: INVALID_TXN_STATE
      produce(0x10, 'nobody', 7),   // an unknown transactional id: INVALID_PRODUCER_ID_MAPPING
      produce(0x10, null, 8),       // a transactional batch without a transactional id: INVALID_REQUEST
      produce(0x00, 'raw', 9),      // a plain batch with one: INVALID_REQUEST
      produce(0x30, 'raw', 10),     // a client's control batch: INVALID_REQUEST
    ]);
    assert.deepEqual(refused.map(produceError), [48, 49, 42, 42, 42]);
    assert.deepEqual(kcatKeys(broker, 'raw', 'read_uncommitted'), []);  // Nothing was stored.

    // Truncated transactional requests close the connection; the broker keeps serving.
    for (const apiKey of [22, 24, 25, 26, 28]) {
      const responses = await exchange(broker.port, [frame(apiKey, 1, str('raw').subarray(0, 3), 9)]);
      assert.equal(responses.length, 0);
    }
    const [after] = await exchange(broker.port, [frame(22, 1, Buffer.concat([str('raw'), i32(10000)]), 10)]);
    assert.equal(after.readInt16BE(8), 0);
    assert.equal(after.readInt16BE(18), 1);  // The epoch moved on: the state survived all of it.
  } finally {
    await broker.stop();
  }
});
