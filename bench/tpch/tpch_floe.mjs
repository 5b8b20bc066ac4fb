// The floe side of the TPC-H runs: loads the eight tables' Parquet files into Iceberg tables
// tpch.<table> of a warehouse as a user would (CREATE TABLE through `floe sql`, then
// `floe table append` of each file), and answers a query through `floe sql --format json`.
import { execFileSync } from 'node:child_process';
import { TABLES, ddl } from './tpch_tables.mjs';
import { parseFloeJsonLines } from './tpch_compare.mjs';

export function loadWarehouse(floe, parquetDir, warehouse) {
  execFileSync(floe, ['sql', '--warehouse', warehouse, '-e', `CREATE SCHEMA tpch; ${ddl('tpch')}`], { stdio: 'pipe' });
  for (const name of Object.keys(TABLES)) {
    execFileSync(floe, ['table', 'append', `tpch.${name}`, '--warehouse', warehouse, `${parquetDir}/${name}.parquet`], { stdio: 'pipe' });
  }
  // Column statistics after a load, as a warehouse user collects them (Trino's ANALYZE): the
  // join planner takes distinct counts from them.
  const analyze = Object.keys(TABLES).map((name) => `ANALYZE tpch.${name};`).join(' ');
  execFileSync(floe, ['sql', '--warehouse', warehouse, '-e', analyze], { stdio: 'pipe' });
}

// The query's rows (arrays of JSON values in column order). Throws with floe's message on error.
export function floeQuery(floe, warehouse, sql, threads = 2, extraArgs = []) {
  const out = execFileSync(floe, ['sql', '--warehouse', warehouse, '--threads', String(threads), '--format', 'json', ...extraArgs,
    '-e', `USE tpch; ${sql}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28, timeout: 300_000 });
  return parseFloeJsonLines(out.split('\n').filter((line) => line.startsWith('{')).join('\n'));
}
