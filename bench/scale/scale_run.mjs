// Cost curves (bench/scale.bench.sh, issue #28): the pipeline and the dashboard at growing sizes.
// For each size N: a fresh `floe broker`, N order events produced by `floe produce`, drained by
// `floe stream --available-now` into shop.orders (partitioned by hour(ts)), then dashboard queries
// through `floe sql` — full scans and aggregations, and selective ones over the last 1% of the
// data's time span (partition and file pruning should keep those nearly flat as N grows). Each
// step runs under /usr/bin/time for CPU seconds and peak RSS. Prints a table and writes the
// results as JSON lines (OUT_JSONL), which scale_plot.mjs draws.
//   node scale_run.mjs FLOE WORK_DIR OUT_JSONL N [N ...]
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, waitFor } from '../../tests/interop/support/waiting.mjs';

const [floe, work, outJsonl, ...sizeArgs] = process.argv.slice(2);
const sizes = sizeArgs.map(Number);
const REPEAT = Number(process.env.SCALE_REPEAT ?? 3);
const THREADS = String(process.env.SCALE_THREADS ?? 2);
// Broker log (JSON events are ~250 bytes) plus Parquet (~20 bytes) plus slack, per event.
const DISK_BYTES_PER_EVENT = 400;

// Runs a command to completion under /usr/bin/time: wall, CPU seconds and peak RSS (MB).
function timed(args, options = {}) {
  const rusage = join(work, 'rusage');
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', '%M %U %S', '-o', rusage, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (run.status !== 0) throw new Error(`${args.slice(0, 2).join(' ')} failed (${run.status}): ${run.stderr.slice(-2000)}`);
  const [rssKb, user, sys] = readFileSync(rusage, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, rssMb: Math.round(rssKb / 1024), stdout: run.stdout };
}

function sql(catalog, query) {
  return timed([floe, 'sql', '--catalog', catalog, '--threads', THREADS, '--format', 'csv', '-e', query]);
}

function csvRows(text) {
  return text.trim().split('\n').slice(1);
}

// Whether something accepts connections on the loopback port.
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

async function measure(events) {
  const dir = join(work, `n${events}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const broker = spawn(floe, ['broker', '--listen', `127.0.0.1:${port}`, '--data', join(dir, 'broker'), '--metrics-listen', ''], { stdio: 'ignore' });
  try {
    await waitFor(`the broker on port ${port}`, () => listening(port), { timeoutMs: 10000, intervalMs: 100 });
    const brokers = `127.0.0.1:${port}`;
    spawnSync(floe, ['topic', 'create', 'orders', '--partitions', '4', '--brokers', brokers], { stdio: 'ignore' });
    writeFileSync(join(dir, 'orders.json'), spawnSync(floe, ['produce', '--print-schema'], { encoding: 'utf8' }).stdout);
    const produce = timed([floe, 'produce', '--brokers', brokers, '--count', String(events), '--rate', '0', '--malformed-rate', '0', '--seed', '5']);
    const catalog = `sqlite:${join(dir, 'catalog.db')}`;
    const ingest = timed([floe, 'stream', '--brokers', brokers, '--topic', 'orders', '--table', 'shop.orders', '--catalog', catalog,
      '--warehouse', `file://${join(dir, 'wh')}`, '--schema', join(dir, 'orders.json'), '--partition', 'hour(ts)', '--trigger', '10s',
      '--available-now', '--maintenance-interval', '0']);
    const [rows] = csvRows(sql(catalog, 'SELECT count(*) FROM shop.orders').stdout).map(Number);
    const [files, bytes] = csvRows(sql(catalog, 'SELECT count(*), sum(file_size_in_bytes) FROM shop."orders$files"').stdout)[0].split(',').map(Number);
    const [lo, hi] = csvRows(sql(catalog, 'SELECT to_unixtime(min(ts)), to_unixtime(max(ts)) FROM shop.orders').stdout)[0].split(',').map(Number);
    const since = new Date((hi - (hi - lo) / 100) * 1000).toISOString().replace('T', ' ').replace('Z', ' UTC');
    const queries = {
      count: 'SELECT count(*) FROM shop.orders',
      revenue_by_region: "SELECT region, sum(amount), count(*) FROM shop.orders WHERE type = 'paid' GROUP BY region ORDER BY 1",
      top_customers: "SELECT customer_id, sum(amount) AS spent FROM shop.orders WHERE type = 'paid' GROUP BY customer_id ORDER BY spent DESC, customer_id LIMIT 10",
      distinct_customers: 'SELECT count(DISTINCT customer_id) FROM shop.orders',
      last_1pct: `SELECT count(*), sum(amount) FROM shop.orders WHERE ts >= TIMESTAMP '${since}'`,
      last_1pct_by_region: `SELECT region, count(*), avg(amount) FROM shop.orders WHERE ts >= TIMESTAMP '${since}' GROUP BY region ORDER BY 1`,
    };
    const dashboard = {};
    for (const [name, query] of Object.entries(queries)) {
      const runs = Array.from({ length: REPEAT }, () => sql(catalog, query));
      const best = runs.reduce((a, b) => (b.wall < a.wall ? b : a));
      dashboard[name] = { cold: runs[0].wall, seconds: best.wall, cpu: best.cpu, rssMb: Math.max(...runs.map((r) => r.rssMb)) };
    }
    return {
      events, rows, files, bytes,
      produce: { seconds: produce.wall, cpu: produce.cpu },
      ingest: { seconds: ingest.wall, cpu: ingest.cpu, rssMb: ingest.rssMb, eventsPerSecond: rows / ingest.wall },
      dashboard,
    };
  } finally {
    broker.kill('SIGTERM');
    await new Promise((r) => broker.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

mkdirSync(work, { recursive: true });
writeFileSync(outJsonl, '');
const pad = (s, n) => String(s).padStart(n);
for (const events of sizes) {
  const { bavail, bsize } = statfsSync(work);
  const need = events * DISK_BYTES_PER_EVENT;
  if (bavail * bsize < need) {
    console.log(`${events} events: SKIPPED (needs about ${(need / 2 ** 30).toFixed(1)} GiB free, ${(bavail * bsize / 2 ** 30).toFixed(1)} GiB are)`);
    continue;
  }
  const r = await measure(events);
  if (r.rows !== events) throw new Error(`${events} events produced, ${r.rows} rows in the table`);
  appendFileSync(outJsonl, `${JSON.stringify(r)}\n`);
  console.log(`${pad(events.toLocaleString('en'), 12)} events: ingest ${r.ingest.seconds.toFixed(1)} s (${Math.round(r.ingest.eventsPerSecond).toLocaleString('en')} ev/s, cpu ` +
    `${r.ingest.cpu.toFixed(1)} s, peak RSS ${r.ingest.rssMb} MB), ${r.files} files, ${(r.bytes / 2 ** 20).toFixed(0)} MB of Parquet`);
  for (const [name, q] of Object.entries(r.dashboard)) {
    console.log(`    ${name.padEnd(20)} ${q.seconds.toFixed(3)} s (cold ${q.cold.toFixed(3)}, cpu ${q.cpu.toFixed(2)} s, peak RSS ${q.rssMb} MB)`);
  }
}
