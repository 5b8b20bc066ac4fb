// Malformed input closes only the offending connection: garbage, truncated frames, absurd
// length prefixes and unknown API keys, while kcat (Debian) keeps being served. Also the
// ApiVersions fallback for a version the broker does not know (KIP-511).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { startBroker } from './broker_process.mjs';

// Sends `bytes` and resolves with what came back before the broker closed (or `ms` passed).
function exchange(port, bytes, ms = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    let closed = false;
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => { closed = true; resolve({ data: Buffer.concat(chunks), closed }); });
    socket.on('connect', () => socket.write(bytes));
    setTimeout(() => { socket.destroy(); resolve({ data: Buffer.concat(chunks), closed }); }, ms);
  });
}

function request(apiKey, apiVersion, body = Buffer.alloc(0), correlation = 7) {
  const header = Buffer.alloc(10);
  header.writeInt16BE(apiKey, 0);
  header.writeInt16BE(apiVersion, 2);
  header.writeInt32BE(correlation, 4);
  header.writeInt16BE(-1, 8);  // null client id
  const size = Buffer.alloc(4);
  size.writeInt32BE(header.length + body.length);
  return Buffer.concat([size, header, body]);
}

test('bad frames close one connection and the broker keeps serving', { timeout: 60000 }, async () => {
  const broker = await startBroker();
  try {
    const cases = {
      garbage: Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'),
      absurdLength: Buffer.from([0x7f, 0xff, 0xff, 0xff, 0, 1, 2, 3]),
      negativeLength: Buffer.from([0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0]),
      unknownApiKey: request(999, 0),
      unsupportedVersion: request(0, 99),
      // Metadata v1 whose topic array claims a billion entries.
      hugeArray: request(3, 1, Buffer.from([0x3b, 0x9a, 0xca, 0x00])),
      // Produce v3 cut off in the middle of its body.
      truncatedBody: request(0, 3, Buffer.from([0xff, 0xff, 0x00])),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const { closed, data } = await exchange(broker.port, bytes);
      assert.ok(closed, `${name}: connection closed`);
      assert.equal(data.length, 0, `${name}: no response`);
      const list = execFileSync('kcat', ['-b', broker.address, '-L'], { encoding: 'utf8', timeout: 20000 });
      assert.match(list, /1 brokers/, `${name}: broker still serves`);
    }
    // A frame that stops half way and then the client hangs up: the broker just drops it.
    await exchange(broker.port, request(18, 0).subarray(0, 9), 200);
    const metrics = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
    assert.match(metrics, /floe_broker_frames_rejected_total ([7-9]|\d\d)/);
  } finally {
    await broker.stop();
  }
});

test('ApiVersions answers an unknown version in v0 format with UNSUPPORTED_VERSION', { timeout: 30000 }, async () => {
  const broker = await startBroker();
  try {
    const { data } = await exchange(broker.port, request(18, 9), 500);
    assert.ok(data.length > 10);
    assert.equal(data.readInt32BE(0), data.length - 4);
    assert.equal(data.readInt32BE(4), 7);       // correlation id
    assert.equal(data.readInt16BE(8), 35);      // UNSUPPORTED_VERSION
    const count = data.readInt32BE(10);
    const keys = new Map();
    for (let i = 0; i < count; i++) {
      const at = 14 + i * 6;
      keys.set(data.readInt16BE(at), [data.readInt16BE(at + 2), data.readInt16BE(at + 4)]);
    }
    assert.deepEqual(keys.get(18), [0, 3]);
    // Produce is listed from v0, so librdkafka 2.x compresses (it requires v0 for gzip, snappy
    // and lz4); a v0-2 request still closes the connection as an unsupported version.
    assert.deepEqual(keys.get(0), [0, 7]);
    const old = await exchange(broker.port, request(0, 2), 2000);
    assert.ok(old.closed);
    assert.equal(old.data.length, 0);
  } finally {
    await broker.stop();
  }
});

test('auto-created topics get the default partition count; the connection limit holds', { timeout: 30000 }, async () => {
  const broker = await startBroker(['--partitions', '3', '--max-connections', '2']);
  try {
    const held = [net.connect(broker.port, '127.0.0.1'), net.connect(broker.port, '127.0.0.1')];
    await Promise.all(held.map((s) => new Promise((r) => s.on('connect', r))));
    await new Promise((r) => setTimeout(r, 100));
    // A third connection is accepted by the kernel and closed by the broker at once.
    const { closed, data } = await exchange(broker.port, request(18, 0), 2000);
    assert.ok(closed);
    assert.equal(data.length, 0);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const list = execFileSync('kcat', ['-b', broker.address, '-L', '-t', 'auto'], { encoding: 'utf8', timeout: 20000 });
    assert.match(list, /topic "auto" with 3 partitions/);
    const metrics = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
    assert.match(metrics, /floe_broker_connections_rejected_total [1-9]/);
  } finally {
    await broker.stop();
  }
});

// Fetch v4 for partition 0 of `topic` from offset 0, up to `maxBytes`.
function fetchRequest(topic, maxBytes) {
  const name = Buffer.from(topic);
  const body = Buffer.alloc(4 + 4 + 4 + 4 + 1 + 4 + 2 + name.length + 4 + 4 + 8 + 4);
  let at = 0;
  at = body.writeInt32BE(-1, at);  // replica_id: a consumer
  at = body.writeInt32BE(0, at);  // max_wait_ms
  at = body.writeInt32BE(1, at);  // min_bytes
  at = body.writeInt32BE(maxBytes, at);
  at = body.writeInt8(0, at);  // isolation_level
  at = body.writeInt32BE(1, at);
  at = body.writeInt16BE(name.length, at);
  at += name.copy(body, at);
  at = body.writeInt32BE(1, at);
  at = body.writeInt32BE(0, at);  // partition
  at = body.writeBigInt64BE(0n, at);  // fetch_offset
  body.writeInt32BE(maxBytes, at);
  return request(1, 4, body);
}

// The records of a fetch go out by sendfile, which cannot be told not to raise SIGPIPE: a
// consumer that resets its connection mid-response must cost that connection only, not the
// process.
test('a consumer that hangs up in the middle of a large fetch does not end the broker', { timeout: 60000 }, async () => {
  const broker = await startBroker();
  try {
    const line = 'x'.repeat(1000);
    const input = Array.from({ length: 16000 }, (_, i) => `${i} ${line}`).join('\n') + '\n';
    execFileSync('kcat', ['-b', broker.address, '-P', '-t', 'big', '-p', '0'], { input, timeout: 30000 });
    for (let round = 0; round < 5; ++round) {
      await new Promise((resolve) => {
        const socket = net.connect(broker.port, '127.0.0.1');
        socket.on('error', () => {});
        socket.on('close', resolve);
        socket.on('connect', () => socket.write(fetchRequest('big', 64 << 20)));
        // The first bytes of the response: the rest is still being sent when the reset lands.
        socket.once('data', () => socket.resetAndDestroy());
      });
    }
    await new Promise((r) => setTimeout(r, 300));
    const list = execFileSync('kcat', ['-b', broker.address, '-L'], { encoding: 'utf8', timeout: 20000 });
    assert.match(list, /1 brokers/);
    const count = execFileSync('kcat', ['-b', broker.address, '-C', '-t', 'big', '-p', '0', '-e', '-q', '-o', 'beginning'],
      { encoding: 'utf8', timeout: 30000, maxBuffer: 64 << 20 });
    assert.equal(count.trim().split('\n').length, 16000);
  } finally {
    await broker.stop();
  }
});
