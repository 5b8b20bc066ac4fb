// A full disk under the warehouse: `floe stream` writes its tables to a small tmpfs that fills
// up mid-ingestion. Batches fail with the operating system's reason in the log and are retried
// (the consumer goes back to the table's offsets), the table stays readable at its last commit,
// and once space returns the job catches up to exactly the events produced, each once. Needs
// root for the mount; elsewhere it says so and skips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker } from '../../interop/broker/broker_process.mjs';

const FLOE = process.env.FLOE_BIN;

async function waitFor(what, check, timeoutMs = 90000) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = check();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('a full warehouse disk stops commits cleanly and the job catches up when space returns', { timeout: 240000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-wh-full-'));
  const warehouse = join(dir, 'warehouse');
  mkdirSync(warehouse);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', warehouse], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    t.skip(`cannot mount a tmpfs here (${(mounted.stderr || '').trim()}): run as root to test a full disk`);
    return;
  }
  let broker, job, jobLog = '';
  try {
    broker = await startBroker([], join(dir, 'broker'));
    const catalog = `sqlite:${join(dir, 'catalog.db')}`;
    const run = (args) => execFileSync(FLOE, args, { encoding: 'utf8', timeout: 60000 });
    run(['topic', 'create', 'orders', '--partitions', '2', '--brokers', broker.address]);
    writeFileSync(join(dir, 'orders.json'), run(['produce', '--print-schema']));
    const produce = (count, seed) => run(['produce', '--brokers', broker.address, '--count', String(count), '--rate', '0',
                                          '--malformed-rate', '0', '--seed', String(seed)]);
    const count = (what) => Number(run(['sql', '--catalog', catalog, '--warehouse', `file://${warehouse}`, '--freshness', 'snapshot', '--format', 'csv',
                                        '-e', `SELECT ${what} FROM shop.orders`]).trim().split('\n').pop());

    produce(3000, 1);
    job = spawn(FLOE, ['stream', '--brokers', broker.address, '--topic', 'orders', '--table', 'shop.orders', '--catalog', catalog,
                       '--warehouse', `file://${warehouse}`, '--schema', join(dir, 'orders.json'), '--trigger', '300ms',
                       '--maintenance-interval', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    job.stdout.on('data', (d) => { jobLog += d; });
    job.stderr.on('data', (d) => { jobLog += d; });
    await waitFor('the first events committed', () => jobLog.includes('committed snapshot') && count('count(*)') === 3000);

    // Fill what is left of the disk, then send more events than can be written.
    spawnSync('dd', ['if=/dev/zero', `of=${join(warehouse, 'filler')}`, 'bs=64k'], { encoding: 'utf8' });
    produce(20000, 2);
    const refusal = await waitFor('a batch refused for lack of space', () => jobLog.match(/.*not committed: .*No space left on device.*/));
    t.diagnostic(refusal[0]);
    assert.equal(job.exitCode, null, 'the job keeps running');
    // Readers see the last commit, whole.
    assert.equal(count('count(DISTINCT event_id)'), 3000);

    // Space returns: the job goes back to the table's offsets and catches up, each event once.
    rmSync(join(warehouse, 'filler'));
    execFileSync('mount', ['-o', 'remount,size=256m', warehouse]);
    await waitFor('every event committed', () => count('count(*)') === 23000, 120000);
    assert.equal(count('count(DISTINCT event_id)'), 23000);
    assert.equal(job.exitCode, null);
    // A write cut short by the full disk left no half-written file behind.
    const leftovers = readdirSync(warehouse, { recursive: true }).filter((name) => String(name).includes('.floe-tmp-'));
    assert.deepEqual(leftovers, []);
  } finally {
    if (job && job.exitCode === null) {
      const exited = new Promise((r) => job.once('exit', r));
      job.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15000))]);
      if (job.exitCode === null) job.kill('SIGKILL');
    }
    if (broker) await broker.stop().catch(() => {});
    spawnSync('umount', [warehouse]);
    rmSync(dir, { recursive: true, force: true });
  }
});
