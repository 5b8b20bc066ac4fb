// Starts `floe broker` on free loopback ports for a test and stops it afterwards.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `env` adds environment variables (e.g. FLOE_BROKER_TESTING_CLEANER_STALL) to the broker's.
export async function startBroker(extraArgs = [], dataDir = null, env = {}) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'floe-broker-'));
  const child = spawn(process.env.FLOE_BIN, ['broker', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0',
    '--data', dir, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const ports = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on [^:]+:(\d+) metrics (\d+)/);
      if (m) resolve({ port: Number(m[1]), metricsPort: Number(m[2]) });
    });
    child.on('exit', (code) => reject(new Error(`floe broker exited with ${code}: ${stderr}`)));
  });
  return {
    ...ports,
    dir,
    pid: child.pid,
    address: `127.0.0.1:${ports.port}`,
    stderr: () => stderr,
    async kill9() {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {  // Not already gone (kill9).
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepData) rmSync(dir, { recursive: true, force: true });
    },
  };
}
