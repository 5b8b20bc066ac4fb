// A throwaway PostgreSQL server for tests, from Debian's `postgresql` package: initdb into a
// temporary folder and pg_ctl start on a free loopback port, trusting local connections. As
// root it runs as the `postgres` user (PostgreSQL refuses to run as root). The same as
// src/catalog/postgres_test_server.h, for node tests.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './waiting.mjs';

function binaries() {
  for (const folder of ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin',
    '/usr/local/bin', '/usr/bin']) {
    if (fs.existsSync(path.join(folder, 'initdb')) && fs.existsSync(path.join(folder, 'pg_ctl'))) return folder;
  }
  return null;
}

// Resolves to {uri, port, stop()}, or null when PostgreSQL is not installed.
export async function startPostgres() {
  const bin = binaries();
  if (!bin) return null;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'floe-pg-'));
  const asRoot = process.getuid?.() === 0;
  // No pipe of ours may reach the server pg_ctl leaves running (its output goes to -l's log).
  const run = (argv) => {
    const full = asRoot ? ['/usr/sbin/runuser', '-u', 'postgres', '--', ...argv] : argv;
    execFileSync(full[0], full.slice(1), { stdio: 'ignore' });
  };
  if (asRoot) execFileSync('chown', ['postgres:postgres', folder]);
  const data = path.join(folder, 'data');
  run([`${bin}/initdb`, '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  run([`${bin}/pg_ctl`, '-D', data, '-o', `-p ${port} -h 127.0.0.1 -k ${folder} -c fsync=off`,
    '-l', path.join(folder, 'log'), '-w', '-t', '60', 'start']);
  return {
    uri: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      try {
        run([`${bin}/pg_ctl`, '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
