// The DuckDB side of bench/sql_transform.bench.sh: the same JSON lines loaded into a table
// `events` (untimed, as floe's events are decoded before its transform runs), then the same
// SELECT materialized into a table on one thread, timed inside the process.
//   node duckdb_transform.mjs EVENTS.jsonl 'SELECT ... FROM events ...'
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));

const [input, sql] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await db.connect();
await conn.run(`SET TimeZone = 'UTC'`);
await conn.run(`CREATE TABLE events AS SELECT * FROM read_json('${input}', format = 'newline_delimited',
  columns = {id: 'BIGINT', type: 'VARCHAR', amount: 'DOUBLE', qty: 'VARCHAR', ts: 'TIMESTAMPTZ'})`);
const start = process.hrtime.bigint();
await conn.run(`CREATE TABLE out AS ${sql}`);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const rows = await conn.runAndReadAll(`SELECT count(*)::BIGINT FROM out`);
console.log(JSON.stringify({ seconds, rows: Number(rows.getRows()[0][0]) }));
