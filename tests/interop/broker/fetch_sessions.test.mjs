// Incremental fetch sessions (KIP-227) against `floe broker`. Neither kafkajs nor librdkafka
// opens fetch sessions (Java clients do), so the Fetch v11 requests below are written from the
// protocol guide's schema (FetchRequest v11, FetchResponse v11) over one socket; kafkajs
// produces the records. A session is opened with every partition, then incremental fetches
// name only what changed and hear only partitions with news; a stale epoch, an unknown session
// and a closed one get Kafka's error codes (71, 70).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import kafkajs from 'kafkajs';
import { startBroker } from './broker_process.mjs';

const { Kafka, logLevel } = kafkajs;

const i8 = (v) => Buffer.from([v & 0xff]);
const i16 = (v) => { const b = Buffer.alloc(2); b.writeInt16BE(v); return b; };
const i32 = (v) => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
const i64 = (v) => { const b = Buffer.alloc(8); b.writeBigInt64BE(BigInt(v)); return b; };
const str = (s) => Buffer.concat([i16(Buffer.byteLength(s)), Buffer.from(s)]);
const array = (items) => Buffer.concat([i32(items.length), ...items]);

// FetchRequest v11: `partitions` [{partition, offset}] of `topic`, `forgotten` [partition].
function fetchRequest(correlation, { sessionId, epoch, topic, partitions = [], forgotten = [] }) {
  const body = Buffer.concat([
    i32(-1), i32(0), i32(0), i32(1 << 20), i8(0), i32(sessionId), i32(epoch),
    array(partitions.length === 0 ? [] : [Buffer.concat([str(topic), array(partitions.map(({ partition, offset }) =>
      Buffer.concat([i32(partition), i32(-1), i64(offset), i64(-1), i32(1 << 20)])))])]),
    array(forgotten.length === 0 ? [] : [Buffer.concat([str(topic), array(forgotten.map((p) => i32(p)))])]),
    str(''),
  ]);
  const header = Buffer.concat([i16(1), i16(11), i32(correlation), str('raw')]);
  return Buffer.concat([i32(header.length + body.length), header, body]);
}

// FetchResponse v11: {error, sessionId, partitions: [{topic, partition, error, highWatermark, bytes}]}.
function parseFetchResponse(frame) {
  let at = 4;  // correlation id
  const int16 = () => { const v = frame.readInt16BE(at); at += 2; return v; };
  const int32 = () => { const v = frame.readInt32BE(at); at += 4; return v; };
  const int64 = () => { const v = Number(frame.readBigInt64BE(at)); at += 8; return v; };
  const string = () => { const n = int16(); const s = frame.toString('utf8', at, at + n); at += n; return s; };
  int32();  // throttle_time_ms
  const error = int16();
  const sessionId = int32();
  const partitions = [];
  for (let t = int32(); t > 0; t--) {
    const topic = string();
    for (let p = int32(); p > 0; p--) {
      const partition = int32();
      const perror = int16();
      const highWatermark = int64();
      int64();  // last_stable_offset
      int64();  // log_start_offset
      const aborted = int32();
      at += Math.max(aborted, 0) * 16;
      int32();  // preferred_read_replica
      const bytes = int32();
      at += Math.max(bytes, 0);
      partitions.push({ topic, partition, error: perror, highWatermark, bytes: Math.max(bytes, 0) });
    }
  }
  return { error, sessionId, partitions };
}

// One connection answering requests in order, each response one frame.
async function connect(port) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.on('connect', resolve));
  let buffered = Buffer.alloc(0);
  const waiting = [];
  socket.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32BE(0)) {
      const size = buffered.readInt32BE(0);
      waiting.shift()(buffered.subarray(4, 4 + size));
      buffered = buffered.subarray(4 + size);
    }
  });
  let correlation = 0;
  return {
    fetch: (request) => new Promise((resolve) => {
      waiting.push((frame) => resolve(parseFetchResponse(frame)));
      socket.write(fetchRequest(++correlation, request));
    }),
    close: () => socket.destroy(),
  };
}

test('an incremental fetch session answers only partitions with news', { timeout: 60000 }, async () => {
  const broker = await startBroker();
  const kafka = new Kafka({ clientId: 'floe-fetch-sessions', brokers: [broker.address], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer();
  const conn = await connect(broker.port);
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'sess', numPartitions: 3 }] });
    await producer.connect();
    const send = (partition, n) => producer.send({ topic: 'sess',
      messages: Array.from({ length: n }, (_, i) => ({ partition, value: `p${partition}-${i}` })) });
    await send(0, 5);
    await send(1, 3);

    // Epoch 0 opens a session with every partition; the answer is full.
    const opened = await conn.fetch({ sessionId: 0, epoch: 0, topic: 'sess',
      partitions: [0, 1, 2].map((partition) => ({ partition, offset: 0 })) });
    assert.equal(opened.error, 0);
    assert.ok(opened.sessionId > 0, `session id ${opened.sessionId}`);
    assert.deepEqual(opened.partitions.map((p) => [p.partition, p.highWatermark, p.bytes > 0]),
      [[0, 5, true], [1, 3, true], [2, 0, false]]);
    const id = opened.sessionId;

    // The client consumed both: it names their new offsets; nothing new, so nothing is answered.
    const quiet = await conn.fetch({ sessionId: id, epoch: 1, topic: 'sess',
      partitions: [{ partition: 0, offset: 5 }, { partition: 1, offset: 3 }] });
    assert.equal(quiet.error, 0);
    assert.equal(quiet.sessionId, id);
    assert.deepEqual(quiet.partitions, []);

    // Records arrive on partition 2, which the request does not name: the session reads it.
    await send(2, 2);
    const news = await conn.fetch({ sessionId: id, epoch: 2, topic: 'sess' });
    assert.deepEqual(news.partitions.map((p) => [p.partition, p.highWatermark, p.bytes > 0]), [[2, 2, true]]);

    // Partition 0 grows; partition 2 is forgotten and then grows too: only 0 is answered.
    await send(0, 1);
    await send(2, 1);
    const forgot = await conn.fetch({ sessionId: id, epoch: 3, topic: 'sess', partitions: [{ partition: 2, offset: 2 }],
      forgotten: [2] });
    assert.deepEqual(forgot.partitions.map((p) => [p.partition, p.highWatermark]), [[0, 6]]);

    // A stale epoch, another session id: Kafka's errors, and the session is intact.
    assert.equal((await conn.fetch({ sessionId: id, epoch: 3, topic: 'sess' })).error, 71);
    assert.equal((await conn.fetch({ sessionId: id + 1000, epoch: 1, topic: 'sess' })).error, 70);
    const again = await conn.fetch({ sessionId: id, epoch: 4, topic: 'sess', partitions: [{ partition: 0, offset: 6 }] });
    assert.equal(again.error, 0);
    assert.deepEqual(again.partitions, []);

    // Epoch -1 closes it (that fetch is a full one of what it names); the id is gone.
    const closed = await conn.fetch({ sessionId: id, epoch: -1, topic: 'sess', partitions: [{ partition: 1, offset: 0 }] });
    assert.equal(closed.error, 0);
    assert.equal(closed.sessionId, 0);
    assert.deepEqual(closed.partitions.map((p) => [p.partition, p.highWatermark]), [[1, 3]]);
    assert.equal((await conn.fetch({ sessionId: id, epoch: 5, topic: 'sess' })).error, 70);

    // Sessionless full fetches (epoch -1, no id) work as before.
    const full = await conn.fetch({ sessionId: 0, epoch: -1, topic: 'sess', partitions: [{ partition: 0, offset: 0 }] });
    assert.equal(full.sessionId, 0);
    assert.deepEqual(full.partitions.map((p) => [p.partition, p.highWatermark]), [[0, 6]]);
  } finally {
    conn.close();
    await producer.disconnect();
    await admin.disconnect();
    await broker.stop();
  }
});
