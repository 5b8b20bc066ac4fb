// The DuckDB side of bench/sql.bench.sh: the same dashboard queries over read_parquet of the
// table's own data files, best of REPEAT runs, with THREADS threads.
//   node duckdb_dashboard.mjs FILES_LIST THREADS REPEAT < QUERIES   (lines: NAME<TAB>SQL)
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));

const [filesList, threads, repeat] = process.argv.slice(2);
const files = readFileSync(filesList, 'utf8').split('\n').filter(Boolean);
const db = await DuckDBInstance.create(':memory:', { threads: String(threads || 2) });
const conn = await db.connect();
await conn.run(`SET TimeZone = 'UTC'`);
await conn.run(`CREATE VIEW orders AS SELECT * FROM read_parquet([${files.map(f => `'${f}'`).join(', ')}])`);
const lines = readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const line of lines) {
  const tab = line.indexOf('\t');
  const name = line.slice(0, tab), sql = line.slice(tab + 1);
  let best = Infinity, rows = 0;
  for (let i = 0; i < Number(repeat || 3); i++) {
    const start = process.hrtime.bigint();
    const reader = await conn.runAndReadAll(sql);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rows = reader.getRows().length;
    best = Math.min(best, seconds);
  }
  console.log(JSON.stringify({ name, seconds: best, rows }));
}
