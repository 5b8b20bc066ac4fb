// End to end under `floe up`: the generator at RATE events/s into the broker, the stream job
// into shop.orders. Every 5 s: the events the broker holds (high watermarks, kafkajs) and the
// rows committed to the table (PostgreSQL wire, freshness snapshot). Prints the rates and the
// lag (held - committed) at the start and the end of the window: a lag that does not grow means
// the job keeps up.   node end_to_end.mjs FLOE_BIN RATE SECONDS
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { Kafka, logLevel } = require('kafkajs');
const pg = require('pg');

const [floe, rateArg, secondsArg] = process.argv.slice(2);
const rate = Number(rateArg ?? 200000);
const seconds = Number(secondsArg ?? 40);
const freePort = () => new Promise((resolve) => {
  const s = net.createServer();
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'floe-e2e-bench-'));
const [broker, catalog, query, pgPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
const up = spawn(floe, ['up', '--data', dir, '--traffic', String(rate), '--trigger', '5s', '--partitions', '4',
  '--malformed-rate', '0', '--broker-listen', `127.0.0.1:${broker}`, '--broker-metrics-listen', '',
  '--catalog-port', String(catalog), '--query-listen', `127.0.0.1:${query}`, '--pg-listen', `127.0.0.1:${pgPort}`],
  { stdio: ['ignore', 'ignore', 'ignore'] });
let client;
const kafka = new Kafka({ brokers: [`127.0.0.1:${broker}`], logLevel: logLevel.NOTHING });
const admin = kafka.admin();
try {
  for (let i = 0; ; ++i) {
    try {
      client = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'bench', database: 'floe' });
      await client.connect();
      await client.query("SET freshness = 'snapshot'");
      await client.query('SELECT count(*) FROM shop.orders');
      break;
    } catch (e) {
      await client.end().catch(() => {});
      if (i > 300) throw e;
      await sleep(200);
    }
  }
  await admin.connect();
  const sample = async () => {
    const offsets = await admin.fetchTopicOffsets('orders');
    const held = offsets.reduce((s, o) => s + Number(o.high), 0);
    const r = await client.query('SELECT count(*) AS n FROM shop.orders');
    return { t: performance.now() / 1000, held, committed: Number(r.rows[0].n) };
  };
  await sleep(10000);  // Warm up: the generator at speed, a first commit behind it.
  const samples = [await sample()];
  while (samples.at(-1).t - samples[0].t < seconds) {
    await sleep(5000);
    samples.push(await sample());
  }
  const [a, b] = [samples[0], samples.at(-1)];
  const span = b.t - a.t;
  const lags = samples.map((s) => s.held - s.committed);
  console.log(`end to end, generator asked ${rate} ev/s for ${span.toFixed(0)} s: broker took ${((b.held - a.held) / span).toFixed(0)} ev/s, ` +
              `table gained ${((b.committed - a.committed) / span).toFixed(0)} rows/s`);
  console.log(`  lag (held - committed) per 5 s: ${lags.join(' ')}; ` +
              `${lags.at(-1) <= Math.max(...lags.slice(0, 3)) ? 'not growing' : 'GROWING'}`);
} finally {
  await admin.disconnect().catch(() => {});
  await client?.end().catch(() => {});
  up.kill('SIGTERM');
  await new Promise((r) => up.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
