// Iceberg's metadata columns in floe's SQL ("$path", _file, _pos, _spec_id; _row_id and
// _last_updated_sequence_number on v3 tables), checked against DuckDB reading the same data
// files with its own `filename` and `file_row_number` columns: every row names the file it is
// in and its position there, also after a merge-on-read DELETE (positions count deleted rows),
// and a v3 table's row lineage survives `floe table compact`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const floe = process.env.FLOE_BIN;
let dir, warehouse, conn;

function floeSql(sql) {
  return execFileSync(floe, ['sql', '--warehouse', warehouse, '--threads', '2', '--format', 'json', '-e', sql],
                      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 << 20 });
}

// Rows of one floe query as objects (JSON lines, NULL as null).
function floeRows(sql) {
  return floeSql(sql).split('\n').filter(line => line.trim() !== '').map(line => JSON.parse(line));
}

function floeFails(sql) {
  try {
    floeSql(sql);
  } catch (e) {
    return e.stderr;
  }
  assert.fail(`floe accepted: ${sql}`);
}

async function duckRows(sql) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJson();
}

function table(name, lines, properties = []) {
  execFileSync(floe, ['table', 'create', name, '--warehouse', warehouse, '--schema', join(dir, 'schema.json'),
                      ...properties.flatMap(p => ['--property', p])]);
  lines.forEach((batch, i) => {
    const file = join(dir, `${name}-${i}.jsonl`);
    writeFileSync(file, batch.map(row => JSON.stringify(row)).join('\n') + '\n');
    execFileSync(floe, ['table', 'append', name, '--warehouse', warehouse, file]);
  });
}

// Appends of 300, 500 and 700 rows: three data files. Names: NULL every 7th row, '' every 11th.
function batches(sizes = [300, 500, 700]) {
  let id = 0;
  return sizes.map(n => Array.from({ length: n }, () => {
    id++;
    return { id, name: id % 7 === 0 ? null : id % 11 === 0 ? '' : `n${id}` };
  }));
}

const local = path => path.replace(/^file:\/\//, '');

// floe's (id, name, $path, _pos) of every row against DuckDB's (id, name, filename,
// file_row_number) over the same data files, rows joined by id.
async function expectPositionsAsDuckDB(name, floeWhere = '', duckWhere = '') {
  const files = floeRows(`SELECT file_path FROM "${name.split('.')[0]}"."${name.split('.')[1]}$files" WHERE content = 0`).map(r => local(r.file_path));
  const mine = floeRows(`SELECT id, name, "$path", _file, _pos, _spec_id FROM ${name} ${floeWhere} ORDER BY id`);
  const theirs = await duckRows(`SELECT id, name, filename, file_row_number FROM read_parquet([${files.map(f => `'${f}'`).join(',')}],
      filename = true, file_row_number = true) ${duckWhere} ORDER BY id`);
  const byId = new Map(theirs.map(r => [String(r.id), r]));
  assert.ok(mine.length > 0);
  for (const row of mine) {
    const their = byId.get(String(row.id));
    assert.ok(their, `row ${row.id} is in no data file DuckDB read`);
    assert.equal(row.name, their.name, `row ${row.id}: name`);
    assert.equal(local(row.$path), their.filename, `row ${row.id}: $path`);
    assert.equal(row._file, row.$path, `row ${row.id}: _file`);
    assert.equal(String(row._pos), String(their.file_row_number), `row ${row.id}: _pos`);
    assert.equal(row._spec_id, 0);
  }
  return mine;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-metadata-columns-'));
  warehouse = join(dir, 'wh');
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: true, type: 'long' },
      { id: 2, name: 'name', required: false, type: 'string' },
    ] }));
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await db.connect();
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('every row names its data file and its position there, as DuckDB reads the files', async () => {
  table('db.files', batches());
  const rows = await expectPositionsAsDuckDB('db.files');
  assert.equal(rows.length, 1500);
  assert.equal(new Set(rows.map(r => r.$path)).size, 3);
  // A filter on a data column skips pages and row groups; the positions stay those of the file.
  await expectPositionsAsDuckDB('db.files', 'WHERE id > 1234', 'WHERE id > 1234');
  // Filters, grouping and ordering on the metadata columns themselves.
  const firsts = floeRows(`SELECT _file, min(id) AS id FROM db.files WHERE _pos = 0 GROUP BY _file ORDER BY 2`);
  assert.deepEqual(firsts.map(r => r.id), [1, 301, 801]);
  const counted = floeRows(`SELECT "$path", count(*) AS n, max(_pos) AS last FROM db.files GROUP BY 1 ORDER BY n`);
  assert.deepEqual(counted.map(r => [r.n, r.last]), [[300, 299], [500, 499], [700, 699]]);
});

test('SELECT * and DESCRIBE leave the metadata columns out; a column of the same name wins', () => {
  table('db.plain', [[{ id: 1, name: 'a' }]]);
  assert.deepEqual(Object.keys(floeRows('SELECT * FROM db.plain')[0]), ['id', 'name']);
  assert.deepEqual(floeRows('DESCRIBE db.plain').map(r => r.Column ?? r.column ?? Object.values(r)[0]), ['id', 'name']);
  // In a join, both sides have their own.
  const joined = floeRows('SELECT a._pos AS p, b."$path" = a."$path" AS same FROM db.plain a JOIN db.plain b USING (id)');
  assert.deepEqual(joined, [{ p: 0, same: true }]);
  writeFileSync(join(dir, 'own.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: '_pos', required: true, type: 'string' }] }));
  execFileSync(floe, ['table', 'create', 'db.own', '--warehouse', warehouse, '--schema', join(dir, 'own.json')]);
  writeFileSync(join(dir, 'own.jsonl'), '{"_pos":"mine"}\n');
  execFileSync(floe, ['table', 'append', 'db.own', '--warehouse', warehouse, join(dir, 'own.jsonl')]);
  assert.deepEqual(floeRows('SELECT _pos, _file IS NOT NULL AS has_file FROM db.own'), [{ _pos: 'mine', has_file: true }]);
  // Row lineage is a v3 table's; UPDATE, DELETE and MERGE do not read metadata columns.
  assert.match(floeFails('SELECT _row_id FROM db.plain'), /_row_id/);
  assert.match(floeFails('DELETE FROM db.plain WHERE _pos = 0'), /_pos/);
});

test('positions count the rows a merge-on-read DELETE removed', async () => {
  // 1.1M rows: floe's writer starts a new row group every 2^20 rows, so the data file has two
  // and positions must run on from one of the reader's batches to the next.
  table('db.deleted', [], ['write.delete.mode=merge-on-read']);
  const parquet = join(dir, 'many.parquet');
  await conn.run(`COPY (SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL WHEN i % 11 = 0 THEN '' ELSE 'n' || i END AS name
                        FROM range(1, 1100001) t(i)) TO '${parquet}' (FORMAT parquet)`);
  execFileSync(floe, ['table', 'append', 'db.deleted', '--warehouse', warehouse, parquet]);
  const files = floeRows(`SELECT file_path FROM db."deleted$files" WHERE content = 0`).map(r => local(r.file_path));
  assert.equal(files.length, 1);
  const groups = await duckRows(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${files[0]}')`);
  assert.equal(Number(groups[0].n), 2);
  const removed = 'id % 3 = 0 OR id BETWEEN 400 AND 450 OR id BETWEEN 1048000 AND 1049000';
  floeSql(`DELETE FROM db.deleted WHERE ${removed}`);
  // Per file: rows, the sum of their positions and of (position, id) pairs, names NULL and ''.
  const mine = floeRows(`SELECT "$path" AS file, count(*) AS n, sum(_pos) AS positions, sum(_pos * 3 + id) AS pairs,
                                count(*) FILTER (WHERE name IS NULL) AS nulls, count(*) FILTER (WHERE name = '') AS empties
                         FROM db.deleted GROUP BY 1`);
  const theirs = await duckRows(`SELECT filename AS file, count(*) AS n, sum(file_row_number) AS positions,
                                        sum(file_row_number * 3 + id) AS pairs, count(*) FILTER (WHERE name IS NULL) AS nulls,
                                        count(*) FILTER (WHERE name = '') AS empties
                                 FROM read_parquet('${files[0]}', filename = true, file_row_number = true)
                                 WHERE NOT (${removed}) GROUP BY 1`);
  assert.equal(mine.length, 1);
  assert.deepEqual({ ...mine[0], file: local(mine[0].file) },
                   Object.fromEntries(Object.entries(theirs[0]).map(([k, v]) => [k, k === 'file' ? v : Number(v)])));
  assert.ok(mine[0].n < 1100000 && mine[0].nulls > 0 && mine[0].empties > 0);
  const explained = floeSql('EXPLAIN ANALYZE SELECT count(*) FROM db.deleted WHERE _pos < 10');
  assert.match(explained, /delete files 1/);
});

test('a v3 table gives each row its row id and last-updated sequence number, kept through compaction', () => {
  table('db.lineage', batches(), ['format-version=3']);
  const metadataFile = () => {
    const folder = join(warehouse, 'db', 'lineage', 'metadata');
    const newest = readdirSync(folder).filter(f => f.endsWith('.metadata.json')).sort().pop();
    return JSON.parse(readFileSync(join(folder, newest), 'utf8'));
  };
  const lineage = () => floeRows('SELECT id, _row_id, _last_updated_sequence_number AS seq, _pos FROM db.lineage ORDER BY id');
  const before = lineage();
  assert.equal(before.length, 1500);
  const metadata = metadataFile();
  const snapshots = metadata.snapshots.sort((a, b) => a['sequence-number'] - b['sequence-number']);
  assert.equal(snapshots.length, 3);
  // Each append's rows: row ids from its snapshot's first-row-id on, in file order; its sequence number.
  let at = 0;
  for (const [i, size] of [300, 500, 700].entries()) {
    const mine = before.slice(at, at + size);
    at += size;
    for (const row of mine) {
      assert.equal(row._row_id, snapshots[i]['first-row-id'] + row._pos, `row ${row.id}`);
      assert.equal(row.seq, snapshots[i]['sequence-number'], `row ${row.id}`);
    }
  }
  assert.equal(new Set(before.map(r => r._row_id)).size, 1500);
  assert.ok(before.every(r => r._row_id < metadata['next-row-id']));
  execFileSync(floe, ['table', 'compact', 'db.lineage', '--warehouse', warehouse]);
  assert.equal(floeRows('SELECT count(*) AS n FROM "db"."lineage$files"')[0].n, 1);
  const after = lineage();
  assert.deepEqual(after.map(r => [r.id, r._row_id, r.seq]), before.map(r => [r.id, r._row_id, r.seq]));
});
