// Starts `floe registry` on a free loopback port against a broker, for a test.
import { spawn } from 'node:child_process';

export async function startRegistry(brokerAddress, extraArgs = []) {
  const child = spawn(process.env.FLOE_BIN, ['registry', '--listen', '127.0.0.1:0', '--brokers', brokerAddress,
    ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/floe registry listening on [^:]+:(\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`floe registry exited with ${code}: ${stderr}`)));
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
