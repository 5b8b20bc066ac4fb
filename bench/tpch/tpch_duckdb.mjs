// The DuckDB side of bench/tpch.bench.sh and the oracle of tests/interop/sql/tpch.test.mjs: the
// TPC-H tables as views over their Parquet files, DuckDB configured as its users run it (the
// Parquet metadata cache on, THREADS threads). Times each query REPEAT times: the first run is
// the cold one; wall and process CPU seconds are printed per query, and the rows of each query
// are written to OUT_DIR/<query>.json for comparison.
//   node tpch_duckdb.mjs PARQUET_DIR QUERY_DIR THREADS REPEAT OUT_DIR
import { createRequire } from 'node:module';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { TABLES } from './tpch_tables.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));

export async function openTpch(parquetDir, threads) {
  const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const conn = await db.connect();
  await conn.run('SET parquet_metadata_cache = true');
  for (const name of Object.keys(TABLES)) {
    await conn.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet('${parquetDir}/${name}.parquet')`);
  }
  return conn;
}

export async function runQuery(conn, sql) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowsJson();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [parquetDir, queryDir, threads, repeat, outDir] = process.argv.slice(2);
  const conn = await openTpch(parquetDir, Number(threads));
  for (const file of readdirSync(queryDir).filter((f) => f.endsWith('.sql')).sort()) {
    const name = basename(file, '.sql');
    const sql = readFileSync(join(queryDir, file), 'utf8');
    let cold = 0, best = Infinity, cpu = 0, rows = [];
    for (let i = 0; i < Number(repeat); i++) {
      const usage = process.cpuUsage();
      const start = process.hrtime.bigint();
      rows = await runQuery(conn, sql);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const used = process.cpuUsage(usage);
      if (i === 0) cold = seconds;
      if (seconds < best) {
        best = seconds;
        cpu = (used.user + used.system) / 1e6;
      }
    }
    writeFileSync(join(outDir, `${name}.json`), JSON.stringify(rows));
    console.log(JSON.stringify({ name, cold, seconds: best, cpu, rows: rows.length }));
  }
}
