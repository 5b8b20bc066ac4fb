// Limits before authentication (issue #27, finding 4), run as the attack: 1,000 connections
// that each announce a 100 MiB frame must not make the broker reserve 100 MiB each (RSS stays
// under 200 MB while kcat, a client nobody here wrote, is still served); with users configured
// such frames are refused outright (512 KiB until SASL completes); connections that never
// authenticate, half-sent frames and idle connections are closed; one address gets at most
// --max-connections-per-ip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker } from './broker_process.mjs';

const HUNDRED_MIB = 100 * 1024 * 1024;

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+) kB/)[1]) / 1024;
}

async function metric(broker, name) {
  const text = await (await fetch(`http://127.0.0.1:${broker.metricsPort}/metrics`)).text();
  const m = text.match(new RegExp(`^${name} (\\d+)`, 'm'));
  return m ? Number(m[1]) : NaN;
}

// Opens a connection that sends `bytes` and keeps it open; resolves once connected.
function hold(port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.closedByPeer = false;
    socket.on('error', () => {});
    socket.on('close', () => { socket.closedByPeer = true; });
    socket.on('connect', () => { if (bytes.length) socket.write(bytes); resolve(socket); });
    setTimeout(() => reject(new Error('connect timed out')), 10000);
  });
}

// Resolves with how long `socket` stayed open from now until the broker closed it (or `ms`).
function closedWithin(socket, ms) {
  const start = Date.now();
  return new Promise((resolve) => {
    if (socket.closedByPeer) return resolve(0);
    const timer = setTimeout(() => resolve(Infinity), ms);
    socket.on('close', () => { clearTimeout(timer); resolve(Date.now() - start); });
  });
}

async function until(condition, ms, what) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function lengthPrefix(size, extra = 0) {
  const bytes = Buffer.alloc(4 + extra, 0x41);
  bytes.writeInt32BE(size, 0);
  return bytes;
}

function kcat(broker, args, input, extra = []) {
  return spawnSync('kcat', ['-b', broker.address, ...extra, ...args], { input, encoding: 'utf8', timeout: 30000 });
}

function kcatRoundTrip(broker, topic, extra = []) {
  const lines = Array.from({ length: 20 }, (_, i) => `k${i}:value ${i}`).join('\n') + '\n';
  const produced = kcat(broker, ['-P', '-t', topic, '-K:'], lines, extra);
  assert.equal(produced.status, 0, produced.stderr);
  const consumed = kcat(broker, ['-C', '-t', topic, '-e', '-f', '%k:%s\n'], undefined, extra);
  assert.equal(consumed.status, 0, consumed.stderr);
  assert.equal(consumed.stdout, lines);
}

async function openMany(port, count, bytes) {
  const sockets = [];
  for (let i = 0; i < count; i += 100) {
    sockets.push(...await Promise.all(Array.from({ length: Math.min(100, count - i) }, () => hold(port, bytes))));
  }
  return sockets;
}

test('1,000 connections announcing 100 MiB frames leave RSS under 200 MB and kcat is served', { timeout: 120000 }, async () => {
  const broker = await startBroker(['--max-connections', '2000', '--max-connections-per-ip', '2000']);
  const sockets = [];
  try {
    // Each sends the length prefix and 1 KiB of the promised 100 MiB, then waits: the broker
    // used to allocate (and zero) the whole claimed frame here.
    sockets.push(...await openMany(broker.port, 1000, lengthPrefix(HUNDRED_MIB, 1024)));
    await until(async () => (await metric(broker, 'floe_broker_connections')) >= 1000, 20000, '1,000 open connections');
    const rss = rssMiB(broker.pid);
    assert.ok(rss < 200, `broker RSS ${rss.toFixed(0)} MiB with 1,000 half-sent 100 MiB frames`);
    kcatRoundTrip(broker, 'served-under-attack');
    assert.ok(sockets.every((s) => !s.closedByPeer), 'the held connections were not simply dropped');
    assert.ok(rssMiB(broker.pid) < 200);
  } finally {
    for (const s of sockets) s.destroy();
    await broker.stop();
  }
});

test('with users, frames over 512 KiB before SASL and connections that never authenticate are closed', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-preauth-'));
  const authFile = join(dir, 'users.toml');
  writeFileSync(authFile, '[[user]]\nname = "alice"\npassword = "wonder land"\n', { mode: 0o600 });
  const broker = await startBroker(['--auth-file', authFile, '--authentication-timeout-ms', '1000',
                                    '--max-connections', '2000', '--max-connections-per-ip', '2000']);
  const sasl = ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=SCRAM-SHA-256',
                '-X', 'sasl.username=alice', '-X', 'sasl.password=wonder land'];
  try {
    const sockets = await openMany(broker.port, 1000, lengthPrefix(HUNDRED_MIB));
    const waits = await Promise.all(sockets.map((s) => closedWithin(s, 10000)));
    assert.ok(waits.every((ms) => ms < 10000), 'every 100 MiB pre-auth frame was refused');
    assert.ok(rssMiB(broker.pid) < 200);
    // Just over the pre-auth cap is refused too; the cap is not the 100 MiB request limit.
    const big = await hold(broker.port, lengthPrefix(512 * 1024 + 1));
    assert.ok(await closedWithin(big, 5000) < 5000, 'a 512 KiB + 1 frame before SASL was taken');
    // A client that connects and sends nothing, and one that sends half a small frame: both are
    // cut off once the authentication timeout (1 s here) has passed.
    const silent = await hold(broker.port, Buffer.alloc(0));
    const half = await hold(broker.port, lengthPrefix(100, 10));
    for (const s of [silent, half]) {
      const ms = await closedWithin(s, 8000);
      assert.ok(ms < 8000, 'an unauthenticated connection outlived the authentication timeout');
    }
    kcatRoundTrip(broker, 'served-with-sasl', sasl);
  } finally {
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('idle connections are closed and one address gets at most --max-connections-per-ip', { timeout: 60000 }, async () => {
  const broker = await startBroker(['--connections-max-idle-ms', '1500', '--max-connections-per-ip', '5']);
  const sockets = [];
  try {
    const idle = await hold(broker.port, Buffer.alloc(0));
    assert.ok(await closedWithin(idle, 8000) < 8000, 'an idle connection was kept');
    sockets.push(...await openMany(broker.port, 5, Buffer.alloc(0)));
    const sixth = await hold(broker.port, Buffer.alloc(0));
    assert.ok(await closedWithin(sixth, 3000) < 3000, 'a sixth connection from one address was accepted');
    assert.ok(sockets.every((s) => !s.closedByPeer), 'the first five were kept');
    assert.ok((await metric(broker, 'floe_broker_connections_rejected_total')) >= 1);
    for (const s of sockets) s.destroy();
    await until(async () => (await metric(broker, 'floe_broker_connections')) === 0, 5000, 'the slots to free');
    kcatRoundTrip(broker, 'served-after-cap');
  } finally {
    for (const s of sockets) s.destroy();
    await broker.stop();
  }
});
