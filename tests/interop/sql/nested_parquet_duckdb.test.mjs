// A Parquet file written by a foreign writer (DuckDB's COPY ... TO) with LIST and MAP columns —
// a list of structs (an order's line items), a list of strings with NULL and '' elements, a map,
// a list of lists — is appended to an Iceberg table by `floe table append` (floe's reader
// assembles DuckDB's LIST/MAP groups, floe's writer writes them again), and floe's SQL over the
// table must give what DuckDB gives reading its own file: every row and nested cell compared by
// structure (nested_cells.mjs), NULL and '' apart. The other way round, a table floe's SQL
// writes (CREATE TABLE AS) must read back in DuckDB equal to the original file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { cellsAgree } from '../../../bench/tpch/tpch_compare.mjs';
import { assertSameRows } from './nested_cells.mjs';

const floe = process.env.FLOE_BIN;
let dir, warehouse, file, conn;

function floeSql(sql) {
  return execFileSync(floe, ['sql', '--warehouse', warehouse, '--threads', '2', '--format', 'json', '-e', sql],
                      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-nested-parquet-'));
  warehouse = join(dir, 'wh');
  file = join(dir, 'orders.parquet');
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await db.connect();
  // 600 orders: every fifth has no items list, every seventh an empty one; element NULLs and ''.
  await conn.run(`COPY (
    SELECT i::BIGINT AS id,
      CASE WHEN i % 5 = 0 THEN NULL WHEN i % 7 = 0 THEN []
           ELSE [ {'sku': 'sku-' || (i % 13)::VARCHAR, 'qty': (i % 4)::INTEGER, 'price': ((i * 37) % 1000 / 100)::DECIMAL(10,2)},
                  {'sku': CASE WHEN i % 3 = 0 THEN NULL ELSE 'x' || (i % 2)::VARCHAR END, 'qty': NULL, 'price': 1.25::DECIMAL(10,2)} ]
      END AS items,
      CASE WHEN i % 6 = 0 THEN NULL WHEN i % 4 = 0 THEN ['', NULL, 'b'] ELSE ['t' || (i % 3)::VARCHAR] END AS tags,
      CASE WHEN i % 9 = 0 THEN NULL ELSE MAP(['k' || (i % 5)::VARCHAR, 'z'], [i::BIGINT, CASE WHEN i % 2 = 0 THEN NULL ELSE -i END]) END AS attrs,
      CASE WHEN i % 11 = 0 THEN NULL ELSE [[i % 3, NULL], [], [i]] END::INTEGER[][] AS matrix
    FROM range(600) r(i)
  ) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 256)`);
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: false, type: 'long' },
      { id: 2, name: 'items', required: false, type: { type: 'list', 'element-id': 3, 'element-required': false, element: {
        type: 'struct', fields: [
          { id: 4, name: 'sku', required: false, type: 'string' },
          { id: 5, name: 'qty', required: false, type: 'int' },
          { id: 6, name: 'price', required: false, type: 'decimal(10, 2)' }] } } },
      { id: 7, name: 'tags', required: false, type: { type: 'list', 'element-id': 8, 'element-required': false, element: 'string' } },
      { id: 9, name: 'attrs', required: false, type: { type: 'map', 'key-id': 10, key: 'string', 'value-id': 11, 'value-required': false, value: 'long' } },
      { id: 12, name: 'matrix', required: false, type: { type: 'list', 'element-id': 13, 'element-required': false, element: {
        type: 'list', 'element-id': 14, 'element-required': false, element: 'int' } } },
    ] }));
  execFileSync(floe, ['table', 'create', 'shop.lines', '--warehouse', warehouse, '--schema', join(dir, 'schema.json')]);
  execFileSync(floe, ['table', 'append', 'shop.lines', '--warehouse', warehouse, file]);
  await conn.run(`CREATE VIEW lines AS SELECT * FROM read_parquet('${file}')`);
});

after(() => {
  if (dir && !process.env.FLOE_KEEP_TEST_DIR) rmSync(dir, { recursive: true, force: true });
});

// floe's JSON output rows (cells as text) against DuckDB's rows of the same query, in order.
async function same(floeQuery, duckQuery = floeQuery) {
  const reader = await conn.runAndReadAll(duckQuery.replaceAll('{T}', 'lines'));
  return assertSameRows(assert, floeQuery, floeSql(floeQuery.replaceAll('{T}', 'shop.lines')), reader, cellsAgree);
}

test('whole list, map and list-of-struct cells agree with DuckDB reading its own file', async () => {
  assert.equal(await same('SELECT id, items, tags, attrs, matrix FROM {T} ORDER BY id'), 600);
});

test('element access, cardinality and filters agree', async () => {
  await same('SELECT id, tags[1], attrs[\'z\'], matrix[1][1] FROM {T} WHERE tags IS NOT NULL AND attrs IS NOT NULL AND matrix IS NOT NULL ORDER BY id');
  await same('SELECT id, cardinality(tags), cardinality(matrix) FROM {T} ORDER BY id', 'SELECT id, len(tags), len(matrix) FROM {T} ORDER BY id');
  await same('SELECT count(items), count(tags), count(attrs), count(*) FROM {T}');
  await same('SELECT id, items[1].sku, items[2].price, (items[2]).qty FROM {T} WHERE cardinality(items) > 1 ORDER BY id',
             'SELECT id, items[1].sku, items[2].price, (items[2]).qty FROM {T} WHERE len(items) > 1 ORDER BY id');
  await same('SELECT id, items FROM {T} WHERE contains(tags, \'\') ORDER BY id', 'SELECT id, items FROM {T} WHERE list_contains(tags, \'\') ORDER BY id');
  await same('SELECT a.id, a.attrs, b.tags FROM {T} a JOIN {T} b ON a.id = b.id + 1 WHERE a.id < 50 ORDER BY a.id');
});

test('UNNEST of the list of structs (its fields as columns) and array_agg agree', async () => {
  await same('SELECT id, sku, qty, price, n FROM {T} CROSS JOIN UNNEST(items) WITH ORDINALITY AS u(sku, qty, price, n) ORDER BY id, n',
             'SELECT id, item.sku, item.qty, item.price, n FROM {T} CROSS JOIN UNNEST(items) WITH ORDINALITY AS u(item, n) ORDER BY id, n');
  await same('SELECT sku, sum(qty), count(*) FROM {T} CROSS JOIN UNNEST(items) AS u(sku, qty, price) GROUP BY sku ORDER BY sku NULLS FIRST',
             'SELECT item.sku, sum(item.qty), count(*) FROM {T} CROSS JOIN UNNEST(items) AS u(item) GROUP BY item.sku ORDER BY item.sku NULLS FIRST');
  await same('SELECT id, t FROM {T} LEFT JOIN UNNEST(tags) AS u(t) ON true WHERE id < 40 ORDER BY id, t NULLS FIRST');
  await same('SELECT id % 10, array_agg(id ORDER BY id DESC), array_agg(tags ORDER BY id) FROM {T} WHERE id < 100 GROUP BY 1 ORDER BY 1');
});

test('floe writes lists, maps and lists of structs (CREATE TABLE AS) that DuckDB reads back equal to the original', async () => {
  floeSql('CREATE TABLE shop.lines_copy AS SELECT id, items, tags, attrs, matrix FROM shop.lines');
  const files = floeSql('SELECT file_path FROM shop."lines_copy$files"').split('\n').filter((line) => line !== '')
    .map((line) => JSON.parse(line).file_path.replace(/^file:\/\//, ''));
  assert.ok(files.length >= 1);
  const read = async (sql) => (await conn.runAndReadAll(sql)).getRowsJson();
  const copy = await read(`SELECT id, items, tags, attrs, matrix FROM read_parquet([${files.map((f) => `'${f}'`).join(', ')}]) ORDER BY id`);
  const original = await read('SELECT id, items, tags, attrs, matrix FROM lines ORDER BY id');
  assert.equal(copy.length, 600);
  assert.deepEqual(copy, original);
});
