// icebird (npm), an Iceberg reader nobody here wrote, reads tables floe writes: one table per
// partition transform, plus ones after compaction, rollback and expiry, deletes (position
// deletes and copy-on-write), SQL UPDATE and MERGE, an overwrite by filter, schema evolution and ANALYZE (a Puffin
// statistics file in the metadata; its distinct counts checked against DuckDB's). The warehouse folder is
// served over a loopback HTTP server (with Range support); the file:// locations recorded in
// floe's metadata are fetched from that server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, statSync, createReadStream, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { icebergRead } from 'icebird';
import { liveFiles } from '../support/deletion_vectors.mjs';

const floe = process.env.FLOE_BIN;
let dir, server, base;
const realFetch = globalThis.fetch;

function run(...args) {
  return execFileSync(floe, args, { encoding: 'utf8' });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'floe-icebird-'));
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(dir) || path.includes('..') || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    const size = statSync(path).size;
    const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Number(range[2]) : size - 1;
      res.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}` });
      if (req.method === 'HEAD') return res.end();
      createReadStream(path, { start, end }).pipe(res);
    } else {
      res.writeHead(200, { 'content-length': size });
      if (req.method === 'HEAD') return res.end();
      createReadStream(path).pipe(res);
    }
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  // floe records file:// locations; fetch them from the loopback server.
  globalThis.fetch = (url, init) => {
    const s = String(url);
    return realFetch(s.startsWith('file://') ? base + s.slice('file://'.length) : s, init);
  };
  // Input Parquet files written by DuckDB (no field ids: floe matches columns by name).
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`COPY (SELECT i::BIGINT AS id,
                         TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_hours(i * 7) AS ts,
                         'name-' || (i % 13)::VARCHAR AS name,
                         (i * 1.25)::DECIMAL(9,2) AS price,
                         DATE '2023-12-30' + (i % 40)::INTEGER AS day
                  FROM range(0, 300) t(i))
                  TO '${join(dir, 'input.parquet')}' (FORMAT parquet)`);
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({
    type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: true, type: 'long' },
      { id: 2, name: 'ts', required: false, type: 'timestamptz' },
      { id: 3, name: 'name', required: false, type: 'string' },
      { id: 4, name: 'price', required: false, type: 'decimal(9,2)' },
      { id: 5, name: 'day', required: false, type: 'date' },
    ],
  }));
});

after(async () => {
  globalThis.fetch = realFetch;
  await new Promise(resolve => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function floeRows(table) {
  return run('table', 'scan', table, '--warehouse', `file://${dir}/wh`).trim().split('\n').filter(Boolean).map(l => JSON.parse(l));
}

async function icebirdRows(table) {
  const tableUrl = `${base}${dir}/wh/${table.replace('.', '/')}`;
  return icebergRead({ tableUrl });
}

function assertSameRows(fromIcebird, fromFloe) {
  assert.equal(fromIcebird.length, fromFloe.length);
  const key = r => String(r.id);
  const floeById = new Map(fromFloe.map(r => [key(r), r]));
  for (const r of fromIcebird) {
    const f = floeById.get(key(r));
    assert.ok(f, `row ${key(r)} only in icebird`);
    assert.equal(r.name, f.name);
    // Timestamps: icebird gives Date objects; floe ISO text with +00:00.
    assert.equal(new Date(r.ts).getTime(), new Date(f.ts).getTime());
    assert.equal(Number(r.price), Number(f.price));
  }
}

const transforms = ['identity(name)', 'bucket(8, id)', 'truncate(4, name)', 'year(ts)', 'month(ts)', 'day(ts)',
                    'hour(ts)', 'void(name)', 'truncate(10, id)', 'month(day)'];

for (const [i, transform] of transforms.entries()) {
  test(`icebird reads a table partitioned by ${transform}`, async () => {
    const table = `db.t${i}`;
    run('table', 'create', table, '--warehouse', `file://${dir}/wh`, '--schema', join(dir, 'schema.json'),
        '--partition', transform);
    run('table', 'append', table, '--warehouse', `file://${dir}/wh`, join(dir, 'input.parquet'));
    const expected = floeRows(table);
    assert.equal(expected.length, 300);
    assertSameRows(await icebirdRows(table), expected);
  });
}

test('icebird reads a table after compaction, rollback and expiry', async () => {
  const table = 'db.maintained';
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'), '--partition', 'day(ts)');
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  assert.equal((await icebirdRows(table)).length, 600);
  run('table', 'compact', table, '--warehouse', wh);
  const compacted = floeRows(table);
  assert.equal(compacted.length, 600);
  assert.equal((await icebirdRows(table)).length, 600);
  const snapshots = JSON.parse(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'));
  assert.equal(snapshots.at(-1).operation, 'replace');
  // Roll back to the first append (snapshot ids exceed 2^53: take them from the text).
  const firstId = /"snapshot-id": (\d+)/.exec(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'))[1];
  run('table', 'rollback', table, '--warehouse', wh, '--snapshot', firstId);
  assertSameRows(await icebirdRows(table), floeRows(table));
  assert.equal(floeRows(table).length, 300);
  run('table', 'expire', table, '--warehouse', wh, '--older-than', '0ms', '--unsafe-retention');
  assertSameRows(await icebirdRows(table), floeRows(table));
});

test('icebird applies the position deletes floe writes', async () => {
  const table = 'db.deleted';
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'), '--partition', 'bucket(4, id)');
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  run('table', 'delete', table, '--warehouse', wh, '--mode', 'merge-on-read', '--filter', "id < 20 or name = 'name-3'");
  const snapshots = JSON.parse(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'));
  assert.ok(Number(snapshots.at(-1).summary['added-position-deletes']) > 0);
  const expected = floeRows(table);
  assert.ok(expected.every(r => r.id >= 20 && r.name !== 'name-3'));
  assert.ok(expected.length < 280 && expected.length > 200);
  assertSameRows(await icebirdRows(table), expected);
});

test('icebird reads a table after copy-on-write deletes by floe table delete and SQL DELETE', async () => {
  const table = 'db.rewritten';
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'), '--partition', 'truncate(100, id)');
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  run('table', 'delete', table, '--warehouse', wh, '--filter', "id >= 200");  // whole files, unread
  let snapshots = JSON.parse(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'));
  assert.equal(snapshots.at(-1).operation, 'delete');
  assert.equal(snapshots.at(-1).summary['deleted-records'], '200');
  // SQL DELETE rewrites the files where only some rows match.
  const out = execFileSync(floe, ['sql', '--warehouse', wh, '-e',
    "DELETE FROM db.rewritten WHERE price > 100 AND name <> 'name-4' OR id % 50 = 7"], { encoding: 'utf8' });
  assert.match(out, /DELETE: \d+ rows/);
  snapshots = JSON.parse(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'));
  assert.equal(snapshots.at(-1).operation, 'overwrite');
  assert.equal(snapshots.at(-1).summary['added-position-deletes'], undefined);
  const expected = floeRows(table);
  const keep = r => r.id < 200 && !((Number(r.price) > 100 && r.name !== 'name-4') || r.id % 50 === 7);
  assert.equal(expected.length, 2 * [...Array(300).keys()].map(i => ({ id: i, price: i * 1.25, name: `name-${i % 13}` })).filter(keep).length);
  assert.ok(expected.every(keep));
  assertSameRows(await icebirdRows(table), expected);
});

// SQL UPDATE then MERGE on a new table with `properties`; the rows as the statements should
// leave them, computed here from the input's definition, by id.
function updateAndMerge(table, properties) {
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'), '--partition', 'bucket(4, id)',
      ...properties.flatMap(p => ['--property', p]));
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  const sql = (text) => execFileSync(floe, ['sql', '--warehouse', wh, '-e', text], { encoding: 'utf8' });
  const rows = new Map([...Array(300).keys()].map(i => [i, { id: i, name: `name-${i % 13}`, price: i * 1.25 }]));
  assert.match(sql(`UPDATE ${table} SET price = price * 2, name = name || '*' WHERE id % 10 = 3`), /UPDATE: 30 rows/);
  for (const r of rows.values()) if (r.id % 10 === 3) Object.assign(r, { price: r.price * 2, name: `${r.name}*` });
  // Ids 0..4 deleted when cheap, updated otherwise; 1000..1002 inserted.
  assert.match(sql(`MERGE INTO ${table} t USING (VALUES (0, 'zero'), (2, 'two'), (4, 'four'), (1000, 'k'), (1001, 'k'), (1002, NULL)) AS s(id, name)
                    ON t.id = s.id
                    WHEN MATCHED AND t.price < 2 THEN DELETE
                    WHEN MATCHED THEN UPDATE SET name = s.name
                    WHEN NOT MATCHED THEN INSERT (id, name, price, ts) VALUES (s.id, s.name, 1.5, TIMESTAMP '2024-06-01 00:00:00 UTC')`),
               /MERGE: 6 rows/);
  rows.delete(0);
  rows.get(2).name = 'two';
  rows.get(4).name = 'four';
  for (const id of [1000, 1001, 1002]) rows.set(id, { id, name: id === 1002 ? null : 'k', price: 1.5 });
  const snapshots = JSON.parse(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'));
  assert.equal(snapshots.length, 3);
  return { rows, snapshots };
}

function assertRowsAre(actual, rows) {
  assert.equal(actual.length, rows.size);
  for (const r of actual) {
    const want = rows.get(Number(r.id));
    assert.ok(want, `row ${r.id} should not be there`);
    assert.equal(r.name, want.name, `name of ${r.id}`);
    assert.equal(Number(r.price), want.price, `price of ${r.id}`);
  }
}

test('icebird reads a table after SQL UPDATE and MERGE INTO, copy-on-write', async () => {
  const { rows, snapshots } = updateAndMerge('db.changed', []);
  for (const s of snapshots.slice(1)) {
    assert.equal(s.operation, 'overwrite');
    assert.equal(s.summary['added-position-deletes'], undefined);
  }
  assert.equal(snapshots[1].summary['added-records'], snapshots[1].summary['deleted-records']);
  const fromIcebird = await icebirdRows('db.changed');
  assertRowsAre(fromIcebird, rows);
  assertSameRows(fromIcebird, floeRows('db.changed'));
});

test('icebird reads a table after SQL UPDATE and MERGE INTO, merge-on-read (position deletes)', async () => {
  const { rows, snapshots } = updateAndMerge('db.changed_mor',
    ['write.update.mode=merge-on-read', 'write.merge.mode=merge-on-read']);
  // No data file is rewritten: the old rows are position deletes, the new ones new files.
  assert.equal(snapshots[1].summary['added-position-deletes'], '30');
  assert.equal(snapshots[2].summary['added-position-deletes'], '3');
  for (const s of snapshots.slice(1)) assert.equal(s.summary['deleted-data-files'], undefined);
  assert.equal(snapshots[2].summary['added-records'], '5');
  const fromIcebird = await icebirdRows('db.changed_mor');
  assertRowsAre(fromIcebird, rows);
  assertSameRows(fromIcebird, floeRows('db.changed_mor'));
});

test('SQL UPDATE and MERGE INTO on a v3 table write one deletion vector per data file', async () => {
  const { rows } = updateAndMerge('db.changed_v3',
    ['format-version=3', 'write.update.mode=merge-on-read', 'write.merge.mode=merge-on-read']);
  // icebird 0.3.1 reads no deletion vectors: the vectors are read by the test's own decoder.
  const metadata = readdirSync(join(dir, 'wh', 'db', 'changed_v3', 'metadata')).filter(f => f.endsWith('.metadata.json')).sort();
  const files = await liveFiles(join(dir, 'wh', 'db', 'changed_v3', 'metadata', metadata.at(-1)));
  assert.deepEqual(files.others, []);
  const vectorsPerFile = new Map();
  for (const v of files.vectors) vectorsPerFile.set(v.dataFile, (vectorsPerFile.get(v.dataFile) ?? 0) + 1);
  assert.ok([...vectorsPerFile.values()].every(n => n === 1), JSON.stringify([...vectorsPerFile]));
  const deleted = files.vectors.reduce((n, v) => n + Number(v.records), 0);
  assert.equal(deleted, 30 + 3);  // The updated rows' old versions and the deleted row.
  assertRowsAre(floeRows('db.changed_v3'), rows);
});

test('icebird reads a table after an overwrite by filter', async () => {
  const table = 'db.overwritten';
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'), '--partition', 'month(ts)');
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  // Rows 0..99 give way to three new rows, in one snapshot.
  writeFileSync(join(dir, 'replacement.jsonl'), [0, 1, 2].map(i =>
    JSON.stringify({ id: 5000 + i, ts: '2024-01-02T00:00:00Z', name: `new-${i}`, price: '2.50', day: '2024-01-02' })).join('\n') + '\n');
  run('table', 'overwrite', table, '--warehouse', wh, join(dir, 'replacement.jsonl'), '--filter', 'id < 100');
  const snapshots = JSON.parse(run('table', 'snapshots', table, '--warehouse', wh, '--format', 'json'));
  assert.equal(snapshots.length, 2);
  assert.equal(snapshots.at(-1).operation, 'overwrite');
  const expected = floeRows(table);
  assert.equal(expected.length, 203);
  assert.ok(expected.every(r => r.id >= 100));
  assertSameRows(await icebirdRows(table), expected);
});

test('icebird reads a table after schema evolution', async () => {
  const table = 'db.evolved';
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'), '--partition', 'month(ts)');
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  // Rename a column, drop one, add one, then append more rows under the new schema.
  run('table', 'alter', table, '--warehouse', wh, '--rename-column', 'name=label', '--drop-column', 'day',
      '--add-column', 'note string');
  writeFileSync(join(dir, 'more.jsonl'), [0, 1, 2].map(i =>
    JSON.stringify({ id: 1000 + i, ts: '2024-03-01T00:00:00Z', label: `new-${i}`, price: '1.50', note: `n${i}` })).join('\n') + '\n');
  run('table', 'append', table, '--warehouse', wh, join(dir, 'more.jsonl'));
  const expected = floeRows(table);
  assert.equal(expected.length, 303);
  assert.deepEqual(Object.keys(expected[0]), ['id', 'ts', 'label', 'price', 'note']);
  const got = await icebirdRows(table);
  assert.equal(got.length, 303);
  const floeById = new Map(expected.map(r => [String(r.id), r]));
  for (const r of got) {
    const f = floeById.get(String(r.id));
    assert.ok(f, `row ${r.id} only in icebird`);
    assert.equal(r.label, f.label);  // old files: found by field id under the old name
    assert.equal(r.note ?? null, f.note);
    assert.equal(r.day, undefined);
  }
});

test('ANALYZE records a Puffin statistics file whose distinct counts equal DuckDB\'s, and icebird still reads the table', async () => {
  const table = 'db.analyzed';
  const wh = `file://${dir}/wh`;
  run('table', 'create', table, '--warehouse', wh, '--schema', join(dir, 'schema.json'));
  run('table', 'append', table, '--warehouse', wh, join(dir, 'input.parquet'));
  const out = execFileSync(floe, ['sql', '--warehouse', wh, '-e', 'ANALYZE db.analyzed'], { encoding: 'utf8' });
  assert.match(out, /ANALYZE: 300 rows, 5 columns/);
  const metadataDir = join(dir, 'wh', 'db', 'analyzed', 'metadata');
  const newest = readdirSync(metadataDir).filter(f => f.endsWith('.metadata.json')).sort((a, b) => parseInt(a.slice(1)) - parseInt(b.slice(1))).at(-1);
  const metadata = JSON.parse(readFileSync(join(metadataDir, newest), 'utf8'));
  assert.equal(metadata.statistics.length, 1);
  const stats = metadata.statistics[0];
  assert.equal(stats['snapshot-id'], metadata['current-snapshot-id']);
  // The Puffin layout (format/puffin-spec.md): magic, blobs, magic, footer JSON, its length, flags, magic.
  const file = readFileSync(new URL(stats['statistics-path']));
  assert.equal(file.length, stats['file-size-in-bytes']);
  assert.equal(file.subarray(0, 4).toString(), 'PFA1');
  assert.equal(file.subarray(file.length - 4).toString(), 'PFA1');
  const payloadLength = file.readUInt32LE(file.length - 12);
  assert.equal(stats['file-footer-size-in-bytes'], payloadLength + 16);
  const footer = JSON.parse(file.subarray(file.length - 12 - payloadLength, file.length - 12).toString());
  assert.equal(footer.blobs.length, 5);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const names = { 1: 'id', 2: 'ts', 3: 'name', 4: 'price', 5: 'day' };
  for (const blob of footer.blobs) {
    assert.equal(blob.type, 'apache-datasketches-theta-v1');
    const sketch = file.subarray(blob.offset, blob.offset + blob.length);
    // A compact sketch (family 3, serial version 3) with DataSketches' default seed hash.
    assert.equal(sketch[1], 3);
    assert.equal(sketch[2], 3);
    assert.equal(sketch.readUInt16LE(6), 0x93cc);
    const column = names[blob.fields[0]];
    const reader = await conn.runAndReadAll(`SELECT count(DISTINCT ${column})::BIGINT AS n FROM '${join(dir, 'input.parquet')}'`);
    const distinct = Number(reader.getRowObjects()[0].n);
    // Below 4096 distinct values a sketch counts exactly; it retains one hash per value.
    assert.equal(Number(blob.properties.ndv), distinct, `ndv of ${column}`);
    assert.equal(sketch.readUInt32LE(8), distinct);
    const described = stats['blob-metadata'].find(b => b.fields[0] === blob.fields[0]);
    assert.equal(described.properties.ndv, blob.properties.ndv);
  }
  assertSameRows(await icebirdRows(table), floeRows(table));
});
