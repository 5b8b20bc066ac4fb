// The DuckDB side of bench/parquet.bench.sh, one thread, best of REPEAT runs:
//   node duckdb_parquet.mjs scan FILE REPEAT           full scan, sum of every column
//   node duckdb_parquet.mjs ingest IN.jsonl OUT REPEAT  JSON lines -> zstd Parquet
//   node duckdb_parquet.mjs write FILE.parquet OUT      rewrite FILE with DuckDB (zstd)
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The npm packages live in tests/interop/node_modules (ESM imports ignore NODE_PATH).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));

const [mode, input, arg] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await db.connect();
// As DuckDB's users reading the same files again would: floe's scans keep their footer caches
// warm after the first run too.
await conn.run('SET parquet_metadata_cache = true');

async function best(repeat, sql) {
  let bestSeconds = Infinity;
  let rows;
  for (let i = 0; i < repeat; i++) {
    const start = process.hrtime.bigint();
    const reader = await conn.runAndReadAll(sql);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rows = reader.getRows();
    bestSeconds = Math.min(bestSeconds, seconds);
  }
  return { bestSeconds, rows };
}

if (mode === 'scan') {
  const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${input}')`);
  const sums = described.getRows().map(([name, type]) => {
    const q = `"${name}"`;
    if (type === 'VARCHAR' || type === 'BLOB') return `sum(strlen(${q}))::DOUBLE`;
    if (type.startsWith('TIMESTAMP')) return `sum(epoch_us(${q}))::DOUBLE`;
    return `sum(${q})::DOUBLE`;
  });
  const { bestSeconds, rows } = await best(Number(arg || 3), `SELECT count(*)::BIGINT, ${sums.join(', ')} FROM read_parquet('${input}')`);
  const total = rows[0].slice(1).reduce((a, b) => a + Number(b), 0);
  console.log(JSON.stringify({ seconds: bestSeconds, rows: Number(rows[0][0]), checksum: total.toExponential(6) }));
} else if (mode === 'ingest') {
  const [out, repeat] = [arg, Number(process.argv[5] || 3)];
  // The column types given, timestamps parsed by DuckDB's own JSON reader (no text-and-cast).
  const sql = `COPY (SELECT * FROM read_json('${input}', format = 'newline_delimited', columns = {order_id: 'VARCHAR',
      event_time: 'TIMESTAMPTZ', status: 'VARCHAR', region: 'VARCHAR', customer_id: 'BIGINT', product_id: 'BIGINT',
      quantity: 'INTEGER', price: 'DOUBLE', currency: 'VARCHAR', coupon: 'VARCHAR'}))
    TO '${out}' (FORMAT parquet, COMPRESSION zstd)`;
  const { bestSeconds } = await best(repeat, sql);
  console.log(JSON.stringify({ seconds: bestSeconds }));
} else if (mode === 'write') {
  await conn.run(`COPY (SELECT * FROM read_parquet('${input}')) TO '${arg}' (FORMAT parquet, COMPRESSION zstd)`);
} else {
  console.error('usage: duckdb_parquet.mjs scan|ingest|write ...');
  process.exit(2);
}
