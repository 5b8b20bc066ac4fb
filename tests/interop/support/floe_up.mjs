// `floe up` for tests of the whole pipeline: started on loopback ports picked here (broker,
// catalog, query, pg, registry), with the caller's other flags, and stopped with SIGTERM (then
// SIGKILL after 20 s). `log()` is everything it printed so far.
import { spawn } from 'node:child_process';
import { freePort, waitFor } from './waiting.mjs';

export async function startFloeUp(floeBinary, dataDir, flags) {
  const ports = { broker: await freePort(), catalog: await freePort(), query: await freePort(), pg: await freePort(),
                  registry: await freePort() };
  const child = spawn(floeBinary, ['up', '--data', dataDir, ...flags, '--broker-listen', `127.0.0.1:${ports.broker}`,
    '--broker-metrics-listen', '', '--catalog-port', String(ports.catalog), '--query-listen', `127.0.0.1:${ports.query}`,
    '--pg-listen', `127.0.0.1:${ports.pg}`, '--registry-listen', `127.0.0.1:${ports.registry}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  await waitFor('floe up to start', () => {
    if (child.exitCode !== null) throw new Error(`floe up exited ${child.exitCode}: ${log.slice(-2000)}`);
    return log.includes('floe up: running');
  });
  return { child, ports, log: () => log };
}

export async function stopFloeUp(up) {
  const child = up?.child;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
