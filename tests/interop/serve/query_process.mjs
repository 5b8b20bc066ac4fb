// Starts `floe query` on free loopback ports for a test and stops it afterwards.
import { spawn } from 'node:child_process';

export async function startQueryServer(extraArgs = []) {
  const child = spawn(process.env.FLOE_BIN, ['query', '--listen', '127.0.0.1:0', '--pg-listen', '127.0.0.1:0',
    ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const ports = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on [^ ]+:(\d+) pg [^ ]+:(\d+)/);
      if (m) resolve({ httpPort: Number(m[1]), pgPort: Number(m[2]) });
    });
    child.on('exit', (code) => reject(new Error(`floe query exited with ${code}: ${stderr}`)));
  });
  return {
    ...ports,
    url: `http://127.0.0.1:${ports.httpPort}`,
    pgConfig: { host: '127.0.0.1', port: ports.pgPort, user: 'tester', database: 'floe' },
    stderr: () => stderr,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
