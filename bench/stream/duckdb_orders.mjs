// The DuckDB side of bench/stream.bench.sh: order events (JSON lines, as the topic holds them)
// into one zstd Parquet file on THREADS threads (default 1), timed inside the process, with the
// process's CPU seconds beside the wall time.
//   node duckdb_orders.mjs IN.jsonl OUT.parquet [THREADS]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));

const [input, output, threads] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:', { threads: String(threads || 1) });
const conn = await db.connect();
const usage = process.cpuUsage();
const start = process.hrtime.bigint();
await conn.run(`COPY (SELECT event_id, epoch_ms(ts)::TIMESTAMPTZ AS ts, type, order_id, customer_id, region, items,
    amount, currency, coupon
  FROM read_json('${input}', format = 'newline_delimited', columns = {event_id: 'VARCHAR', ts: 'BIGINT',
    type: 'VARCHAR', order_id: 'BIGINT', customer_id: 'BIGINT', region: 'VARCHAR', items: 'INTEGER',
    amount: 'DOUBLE', currency: 'VARCHAR', coupon: 'VARCHAR'}))
  TO '${output}' (FORMAT parquet, COMPRESSION zstd)`);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const used = process.cpuUsage(usage);
const cpu = (used.user + used.system) / 1e6;
const rows = await conn.runAndReadAll(`SELECT count(*)::BIGINT FROM read_parquet('${output}')`);
console.log(JSON.stringify({ seconds, cpu, rows: Number(rows.getRows()[0][0]) }));
