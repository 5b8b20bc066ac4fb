// The DuckDB side of bench/sql.bench.sh: the same dashboard queries over read_parquet of the
// table's own data files, DuckDB configured as its users run it (the Parquet metadata cache on,
// THREADS threads). Each query runs REPEAT times: the first run is the cold one; wall and process
// CPU seconds of the best run are printed, and the rows are written to OUT_DIR/<name>.json for the
// comparison with floe's.
//   node duckdb_dashboard.mjs FILES_LIST THREADS REPEAT OUT_DIR < QUERIES   (lines: NAME<TAB>SQL)
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync, writeFileSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));

const [filesList, threads, repeat, outDir] = process.argv.slice(2);
const files = readFileSync(filesList, 'utf8').split('\n').filter(Boolean);
const db = await DuckDBInstance.create(':memory:', { threads: String(threads || 2) });
const conn = await db.connect();
await conn.run(`SET TimeZone = 'UTC'`);
await conn.run('SET parquet_metadata_cache = true');
await conn.run(`CREATE VIEW orders AS SELECT * FROM read_parquet([${files.map(f => `'${f}'`).join(', ')}])`);
const lines = readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const line of lines) {
  const tab = line.indexOf('\t');
  const name = line.slice(0, tab), sql = line.slice(tab + 1);
  let best = Infinity, cold = 0, cpu = 0, rows = [];
  for (let i = 0; i < Number(repeat || 3); i++) {
    const usage = process.cpuUsage();
    const start = process.hrtime.bigint();
    const reader = await conn.runAndReadAll(sql);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(usage);
    rows = reader.getRowsJson();
    if (i === 0) cold = seconds;
    if (seconds < best) {
      best = seconds;
      cpu = (used.user + used.system) / 1e6;
    }
  }
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify(rows));
  console.log(JSON.stringify({ name, seconds: best, cold, cpu, rows: rows.length }));
}
