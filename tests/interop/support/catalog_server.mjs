// Starts `floe catalog` (the Iceberg REST catalog) over a SQLite file and a warehouse folder in
// `dir`, on a loopback port it picks; `extraArgs` adds flags (e.g. --auth-file).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export async function startCatalogServer(dir, extraArgs = []) {
  const child = spawn(process.env.FLOE_BIN, ['catalog', '--listen', '127.0.0.1:0', '--backend',
    `sqlite:${join(dir, 'catalog.db')}`, '--warehouse', `file://${join(dir, 'warehouse')}`, ...extraArgs],
  { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (\S+)/);
      if (match) resolve(`http://${match[1]}`);
    });
    child.on('exit', (code) => reject(new Error(`floe catalog exited with ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}
