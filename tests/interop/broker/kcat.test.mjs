// kcat and librdkafka (Debian packages, nobody here wrote them) against `floe broker`:
// byte-exact keyed messages with headers, every codec librdkafka offers, the idempotent
// producer, and a two-member consumer group rebalancing over four partitions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { startBroker } from './broker_process.mjs';

const COUNT = Number(process.env.FLOE_BROKER_TEST_MESSAGES ?? 5000);

function kcat(args, input) {
  return execFileSync('kcat', args, { input, maxBuffer: 1 << 30, timeout: 60000 });
}

function floe(args) {
  return execFileSync(process.env.FLOE_BIN, args, { encoding: 'utf8', timeout: 60000 });
}

// Keys and values with bytes outside printable ASCII (but no delimiters).
function message(i) {
  const key = `key-${i}`;
  const value = `v${i}|` + Buffer.from([0xc3, 0xa9, 0x01, 0x7f]).toString('latin1') + 'x'.repeat(i % 300);
  return [key, value];
}

test('kcat round-trips keyed messages with headers byte-exact', { timeout: 120000 }, async () => {
  const broker = await startBroker();
  try {
    floe(['topic', 'create', '--brokers', broker.address, 'exact', '--partitions', '1']);
    const lines = [];
    for (let i = 0; i < COUNT; i++) lines.push(message(i).join('\t'));
    const input = Buffer.from(lines.join('\n') + '\n', 'latin1');
    kcat(['-b', broker.address, '-P', '-t', 'exact', '-K', '\t', '-H', 'source=kcat', '-H', 'kind=test'], input);
    const out = kcat(['-b', broker.address, '-C', '-t', 'exact', '-e', '-q', '-f', '%o\t%k\t%s\t%h\n']);
    const got = out.toString('latin1').split('\n').filter((l) => l.length > 0);
    assert.equal(got.length, COUNT);
    for (let i = 0; i < COUNT; i++) {
      const [key, value] = message(i);
      assert.equal(got[i], `${i}\t${key}\t${value}\tsource=kcat,kind=test`);
    }
    const described = floe(['topic', 'describe', '--brokers', broker.address, 'exact']);
    assert.match(described, new RegExp(`partition 0 high_watermark ${COUNT}`));
  } finally {
    await broker.stop();
  }
});

test('every codec librdkafka offers is stored verbatim and read back', { timeout: 120000 }, async () => {
  const broker = await startBroker();
  try {
    for (const codec of ['none', 'gzip', 'snappy', 'lz4', 'zstd']) {
      const topic = `codec-${codec}`;
      const input = Array.from({ length: 1000 }, (_, i) => `${codec}-${i}:${'payload '.repeat(i % 20)}${i}`).join('\n');
      kcat(['-b', broker.address, '-P', '-t', topic, '-K', ':', '-z', codec], input + '\n');
      const out = kcat(['-b', broker.address, '-C', '-t', topic, '-e', '-q', '-f', '%k:%s\n']).toString();
      assert.equal(out, input + '\n', codec);
    }
  } finally {
    await broker.stop();
  }
});

test('librdkafka idempotent producer', { timeout: 60000 }, async () => {
  const broker = await startBroker();
  try {
    const input = Array.from({ length: 3000 }, (_, i) => `m${i}`).join('\n') + '\n';
    kcat(['-b', broker.address, '-P', '-t', 'idem', '-X', 'enable.idempotence=true', '-X', 'acks=all'], input);
    const out = kcat(['-b', broker.address, '-C', '-t', 'idem', '-e', '-q']).toString();
    assert.equal(out, input);
  } finally {
    await broker.stop();
  }
});

test('a librdkafka consumer group of two kcat members rebalances over four partitions', { timeout: 120000 }, async () => {
  const broker = await startBroker();
  const members = [];
  const logs = ['', ''];
  try {
    floe(['topic', 'create', '--brokers', broker.address, 'shared', '--partitions', '4']);
    const outputs = [[], []];
    const start = (i) => {
      const child = spawn('kcat', ['-b', broker.address, '-G', 'pair', 'shared', '-u', '-f', '%p %k\n',
        '-X', 'auto.offset.reset=earliest', '-X', 'heartbeat.interval.ms=200', '-X', 'session.timeout.ms=6000']);
      child.stdout.on('data', (d) => outputs[i].push(d.toString()));
      child.stderr.on('data', (d) => { logs[i] += d.toString(); });
      members.push(child);
    };
    start(0);
    // Wait for the first member to own all four partitions, then add the second.
    await waitFor(() => logs[0].includes('assigned'), 20000);
    start(1);
    await waitFor(() => /rebalanced.*assigned: shared/.test(logs[1]), 30000);
    const input = Array.from({ length: 4000 }, (_, i) => `k${i}:v${i}`).join('\n') + '\n';
    kcat(['-b', broker.address, '-P', '-t', 'shared', '-K', ':'], input);
    const seen = () => outputs.flatMap((o) => o.join('').split('\n').filter(Boolean));
    await waitFor(() => seen().length >= 4000, 30000);
    const keys = seen().map((l) => l.split(' ')[1]);
    assert.equal(new Set(keys).size, 4000, 'every message exactly once');
    assert.equal(keys.length, 4000);
    // Each member owns a disjoint, non-empty set of partitions.
    const partitions = outputs.map((o) => new Set(o.join('').split('\n').filter(Boolean).map((l) => l.split(' ')[0])));
    assert.ok(partitions[0].size > 0 && partitions[1].size > 0, `both members consumed: ${[...partitions[0]]} / ${[...partitions[1]]}`);
    for (const p of partitions[0]) assert.ok(!partitions[1].has(p));
  } catch (e) {
    throw new Error(`${e.message}\nmember 0:\n${logs[0]}\nmember 1:\n${logs[1]}\nbroker:\n${broker.stderr()}`);
  } finally {
    // The members leave their group while the broker is still up: a kcat closing against a
    // broker already gone can wait on it long enough to hold this test process open.
    await Promise.all(members.map(stopChild));
    await broker.stop();
  }
});

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
  await exited;
  clearTimeout(timer);
}

async function waitFor(predicate, ms) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
