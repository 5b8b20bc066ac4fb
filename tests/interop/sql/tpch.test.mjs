// TPC-H's 22 queries at scale factor 0.01 (tests/data/tpch-sf0.01), loaded into Iceberg tables as
// a user would, answered by floe and by DuckDB (npm) over the same Parquet files: every result
// must agree (bench/tpch/tpch_compare.mjs says how). bench/tpch.bench.sh times the same queries
// at larger scale factors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTpch, runQuery } from '../../../bench/tpch/tpch_duckdb.mjs';
import { loadWarehouse, floeQuery } from '../../../bench/tpch/tpch_floe.mjs';
import { compareRows } from '../../../bench/tpch/tpch_compare.mjs';

const floe = process.env.FLOE_BIN;
const source = process.env.FLOE_SOURCE_DIR;
const data = join(source, 'tests', 'data', 'tpch-sf0.01');
const queries = join(source, 'bench', 'tpch', 'queries');
let dir, warehouse, duck;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-tpch-'));
  warehouse = join(dir, 'warehouse');
  loadWarehouse(floe, data, warehouse);
  duck = await openTpch(data, 2);
});

after(() => rmSync(dir, { recursive: true, force: true }));

for (const file of readdirSync(queries).filter((f) => f.endsWith('.sql')).sort()) {
  test(`TPC-H ${file} agrees with DuckDB`, async () => {
    const sql = readFileSync(join(queries, file), 'utf8');
    const expected = await runQuery(duck, sql);
    assert.ok(expected.length > 0, 'the query has rows at this scale, so agreement means something');
    const actual = floeQuery(floe, warehouse, sql);
    const difference = compareRows(actual, expected);
    assert.equal(difference, null, difference ?? '');
  });
}
