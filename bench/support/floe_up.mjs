// `floe up` for the end-to-end benchmarks: every role on ports picked here, data in a temporary
// folder, a PostgreSQL-wire client once shop.orders answers, and a stop that removes it all.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The npm packages live in tests/interop/node_modules (ESM imports ignore NODE_PATH).
export const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const pg = require('pg');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

// Starts `floe up` with the generator at `rate` events/s and the stream job's `trigger`; resolves
// once a PostgreSQL client can count shop.orders.
export async function startFloeUp(floe, { rate, trigger }) {
  const dir = mkdtempSync(join(tmpdir(), 'floe-bench-'));
  const logFile = process.env.FLOE_BENCH_LOG ? openSync(process.env.FLOE_BENCH_LOG, 'w') : undefined;
  const [broker, catalog, query, pgPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const up = spawn(floe, ['up', '--data', dir, '--traffic', String(rate), '--trigger', trigger, '--partitions', '4',
    '--malformed-rate', '0', '--broker-listen', `127.0.0.1:${broker}`, '--broker-metrics-listen', '',
    '--catalog-port', String(catalog), '--query-listen', `127.0.0.1:${query}`, '--pg-listen', `127.0.0.1:${pgPort}`,
    '--registry-listen', `127.0.0.1:${await freePort()}`],
    // FLOE_BENCH_LOG=FILE keeps the pipeline's log (commit times, maintenance) for a look afterwards.
    { stdio: process.env.FLOE_BENCH_LOG ? ['ignore', logFile, logFile] : ['ignore', 'ignore', 'ignore'] });
  let client;
  const stop = async () => {
    await client?.end().catch(() => {});
    up.kill('SIGTERM');
    await new Promise((r) => up.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; ++i) {
    try {
      client = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'bench', database: 'floe' });
      await client.connect();
      await client.query('SELECT count(*) FROM shop.orders');
      break;
    } catch (e) {
      await client.end().catch(() => {});
      client = undefined;
      if (i > 300) {
        await stop();
        throw e;
      }
      await sleep(200);
    }
  }
  return { brokers: [`127.0.0.1:${broker}`], client, stop };
}
