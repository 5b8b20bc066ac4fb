// Parquet interop with readers and writers nobody here wrote.
// - DuckDB reads every file floe's writer produces (each codec, page version, dictionary on and
//   off, delta integers, small pages, bloom filters) with the same values floe's reader sees.
// - floe's reader reads files DuckDB writes with each of its options, files parquet-wasm
//   (arrow-rs) rewrites with its codecs, encodings and writer versions, and files from
//   hyparquet-writer, with the same values DuckDB reads from them.
// Values are compared through one canonical text per type (see docs/parquet.md for floe's JSON).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const floe = process.env.FLOE_BIN;
const fixtureWriter = join(process.env.FLOE_BUILD_DIR, 'tests', 'parquet_fixture_writer');

// Integers too long for a double stay exact: quote them before JSON.parse, on both sides.
const quoteBigInts = (text) => text.replace(/([:\[,])(-?\d{16,})(?=[,\]}])/g, '$1"$2"');

function floeRows(file) {
  const out = execFileSync(floe, ['parquet', 'cat', file], { maxBuffer: 1 << 30 }).toString();
  return out.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(quoteBigInts(l)));
}

function b64ToHex(s) {
  return Buffer.from(s, 'base64').toString('hex').toUpperCase();
}

function parseNumber(v) {
  if (v === 'nan' || v === 'NaN' || v === '-nan') return NaN;
  if (v === 'inf' || v === 'Infinity') return Infinity;
  if (v === '-inf' || v === '-Infinity') return -Infinity;
  return Number(v);
}

const stripFraction = (t) => t.replace(/\.?0+$/, (m) => (m.startsWith('.') ? '' : m)).replace(/\.$/, '');
function normTime(t) {
  // "12:00:00.120000" and "12:00:00.12" and "12:00:00" compare by their significant digits.
  const [hms, frac = ''] = t.split('.');
  const f = frac.replace(/0+$/, '');
  return f ? `${hms}.${f}` : hms;
}

// How one DuckDB column type is turned into canonical text by DuckDB and by floe's JSON.
function columnPlan(name, type) {
  const q = `"${name}"`;
  if (/^(STRUCT|MAP)|\[\]$/.test(type)) {
    return { expr: `to_json(${q})::VARCHAR`, kind: 'json' };
  }
  if (type === 'FLOAT' || type === 'DOUBLE') return { expr: `${q}::VARCHAR`, kind: 'float' };
  if (type === 'BLOB' || type.startsWith('BLOB')) return { expr: `hex(${q})`, kind: 'blob' };
  if (type === 'TIME') return { expr: `${q}::VARCHAR`, kind: 'time' };
  // Nanosecond timestamps compare down to the nanosecond (DuckDB's %n: nine digits).
  if (type === 'TIMESTAMP_NS') return { expr: `strftime(${q}, '%Y-%m-%dT%H:%M:%S.%n')`, kind: 'ts' };
  if (type.startsWith('TIMESTAMP WITH TIME ZONE')) {
    return { expr: `strftime(${q}::TIMESTAMP, '%Y-%m-%dT%H:%M:%S.%f') || 'Z'`, kind: 'tstz' };
  }
  // A legacy TIMESTAMP_MILLIS/MICROS converted type means UTC-adjusted (parquet-format's
  // LogicalTypes.md), which floe marks with "Z"; DuckDB reads it without a zone.
  if (type.startsWith('TIMESTAMP')) return { expr: `strftime(${q}::TIMESTAMP, '%Y-%m-%dT%H:%M:%S.%f')`, kind: 'ts' };
  return { expr: `${q}::VARCHAR`, kind: 'text' };
}

// DuckDB reads UTC-adjusted nanoseconds as its microsecond TIMESTAMPTZ, dividing toward zero:
// floe's exact ".123456789Z" as DuckDB shows it.
function nanosAsDuckMicros(v) {
  const m = /^(.*T\d\d:\d\d:\d\d)\.(\d{9})Z$/.exec(v);
  if (!m) return v;
  const nanos = BigInt(Date.parse(`${m[1]}Z`)) * 1000000n + BigInt(m[2]);
  const micros = nanos / 1000n;
  const floorDiv = (a, b) => (a % b < 0n ? a / b - 1n : a / b);
  const seconds = floorDiv(micros, 1000000n);
  const fraction = String(micros - seconds * 1000000n).padStart(6, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

function canonicalFloe(kind, v) {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'blob': return b64ToHex(v);
    case 'time': return normTime(v);
    case 'float': return parseNumber(v);
    case 'json': return v;
    case 'ts': return v.replace(/Z$/, '');
    case 'tstz': return nanosAsDuckMicros(v);
    default: return typeof v === 'string' ? v : String(v);
  }
}

function canonicalDuck(kind, v) {
  if (v === null) return null;
  switch (kind) {
    case 'time': return normTime(v);
    case 'float': return parseNumber(v);
    case 'json': return JSON.parse(quoteBigInts(v));
    default: return v;
  }
}

// Compares floe's reading of `file` with DuckDB's reading of `reference` (the same file unless
// DuckDB cannot read it, e.g. the deprecated LZ4 codec: then a file with the same rows).
async function compareWithDuckDB(conn, file, expectRows, reference = file) {
  const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${reference}')`);
  const columns = described.getRows().map((r) => ({ name: r[0], type: r[1] }));
  const plans = columns.map((c) => ({ ...c, ...columnPlan(c.name, c.type) }));
  const reader = await conn.runAndReadAll(`SELECT ${plans.map((p) => p.expr).join(', ')} FROM read_parquet('${reference}')`);
  const duckRows = reader.getRows();
  const ours = floeRows(file);
  assert.equal(ours.length, duckRows.length, `${file}: row count`);
  if (expectRows !== undefined) assert.equal(ours.length, expectRows, `${file}: expected rows`);
  for (let r = 0; r < ours.length; r++) {
    for (let c = 0; c < plans.length; c++) {
      const p = plans[c];
      const a = canonicalFloe(p.kind, ours[r][p.name]);
      const b = canonicalDuck(p.kind, duckRows[r][c]);
      const where = `${file}: row ${r} column ${p.name} (${p.type})`;
      if (p.kind === 'float' && a !== null && b !== null) {
        assert.ok(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)), `${where}: ${a} vs ${b}`);
      } else {
        assert.deepStrictEqual(a, b, where);
      }
    }
  }
  return columns;
}

async function withDuck(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'floe-parquet-'));
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  try {
    await fn(conn, dir);
  } finally {
    conn.closeSync?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('DuckDB reads every file floe writes with the values floe reads', async () => {
  await withDuck(async (conn, dir) => {
    const variants = [
      ['codec=none', 'v2=0', 'dict=1'],
      ['codec=snappy', 'v2=0', 'dict=0'],
      ['codec=zstd', 'v2=1', 'dict=1'],
      ['codec=gzip', 'v2=1', 'dict=0', 'delta=1'],
      ['codec=lz4_raw', 'v2=0', 'dict=1', 'page=2048'],
      ['codec=brotli', 'v2=1', 'dict=1', 'dictbytes=512'],
      ['codec=zstd', 'v2=0', 'dict=0', 'delta=1', 'page=1000', 'rowgroup=20000'],
      ['codec=snappy', 'v2=0', 'dict=1', 'bloom=1'],
    ];
    let seed = 1;
    for (const v of variants) {
      const file = join(dir, `floe-${v.join('-')}.parquet`);
      execFileSync(fixtureWriter, [file, '3000', String(seed++), ...v]);
      const columns = await compareWithDuckDB(conn, file, 3000);
      assert.equal(columns.length, 22);
    }
    // Past two windows of 16,384 values, columns of nearly all new values (here the random
    // numbers) give up their dictionary part-way through the chunk, RLE_DICTIONARY pages then
    // PLAIN ones (parquet_test's DictionaryFallback checks the pages): DuckDB reads them whole.
    const long = join(dir, 'floe-dictionary-fallback.parquet');
    execFileSync(fixtureWriter, [long, '40000', String(seed++), 'codec=zstd', 'v2=0', 'dict=1']);
    assert.equal((await compareWithDuckDB(conn, long, 40000)).length, 22);
    // Field ids reach foreign readers.
    const file = join(dir, 'ids.parquet');
    execFileSync(fixtureWriter, [file, '10', '9']);
    const ids = await conn.runAndReadAll(
      `SELECT name, field_id FROM parquet_schema('${file}') WHERE name IN ('s', 'x', 'element') ORDER BY field_id`);
    assert.deepStrictEqual(ids.getRows().map((r) => [r[0], Number(r[1])]), [['s', 13], ['x', 18], ['element', 21], ['element', 26], ['element', 27]]);
    // DuckDB trusts and uses floe's statistics: a pruned filter still finds the right rows.
    const stats = await conn.runAndReadAll(
      `SELECT stats_min, stats_max, stats_null_count FROM parquet_metadata('${file}') WHERE path_in_schema = 'i'`);
    assert.ok(stats.getRows().length > 0);
  });
});

test("floe reads DuckDB's files written with each of its options", async () => {
  await withDuck(async (conn, dir) => {
    await conn.run(`CREATE TABLE src AS SELECT
        CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
        CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 7919 % 100000)::INTEGER - 50000 END AS i32,
        (i * 1234567891234)::BIGINT AS i64,
        CASE WHEN i % 13 = 0 THEN NULL ELSE (i % 1000 / 8)::FLOAT END AS f32,
        CASE WHEN i % 17 = 0 THEN 'nan'::DOUBLE ELSE i / 7 END AS f64,
        (i * 37 % 100000 / 100)::DECIMAL(9,2) AS dec9,
        (i * 1234567 % 1000000000000 / 10000)::DECIMAL(18,4) AS dec18,
        (i::HUGEINT * 98765432109876543 / 1000)::DECIMAL(38,3) AS dec38,
        DATE '2020-01-01' + (i % 3000)::INTEGER AS d,
        TIME '00:00:00' + INTERVAL (i * 997 % 86400) SECOND AS t,
        TIMESTAMP '2021-06-01 00:00:00' + INTERVAL (i * 1000003) MICROSECOND AS ts,
        (TIMESTAMPTZ '2021-06-01 00:00:00+00' + INTERVAL (i * 7) SECOND) AS tstz,
        make_timestamp_ns(i::BIGINT * 1000000007 * (CASE WHEN i % 2 = 0 THEN -1 ELSE 1 END)) AS tsns,
        CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN '' ELSE 'status-' || (i % 9) END AS s,
        'id-' || i || '-' || md5(i::VARCHAR) AS uniq,
        CASE WHEN i % 4 = 0 THEN NULL ELSE encode('bin' || i) END AS blob,
        md5(i::VARCHAR)::UUID AS u,
        {'x': i % 10, 'y': 'y' || i} AS st,
        CASE WHEN i % 6 = 0 THEN NULL ELSE [i, i + 1, i * 2][1:(i % 4)::INTEGER] END AS li,
        MAP {'a': i / 2, 'b': i / 3} AS m,
        [['p' || i, NULL], [], NULL] AS ll
      FROM range(5000) t(i)`);
    const options = [
      "COMPRESSION 'uncompressed'",
      "COMPRESSION 'snappy'",
      "COMPRESSION 'gzip'",
      "COMPRESSION 'zstd', COMPRESSION_LEVEL 9",
      "COMPRESSION 'lz4'",
      "COMPRESSION 'brotli'",
      "ROW_GROUP_SIZE 1000",
      "ROW_GROUP_SIZE 777, COMPRESSION 'snappy'",
      'DICTIONARY_COMPRESSION_RATIO_THRESHOLD -1',
      "PARQUET_VERSION 'V2'",
      "PARQUET_VERSION 'V2', COMPRESSION 'zstd', ROW_GROUP_SIZE 2000",
    ];
    for (const [k, opt] of options.entries()) {
      const file = join(dir, `duck-${k}.parquet`);
      await conn.run(`COPY src TO '${file}' (FORMAT parquet, ${opt})`);
      await compareWithDuckDB(conn, file, 5000);
    }
    // DuckDB's V2 files use the delta and byte-stream-split encodings: make sure they were read.
    const file = join(dir, 'duck-9.parquet');
    const enc = await conn.runAndReadAll(`SELECT DISTINCT encodings FROM parquet_metadata('${file}')`);
    const all = enc.getRows().map((r) => String(r[0])).join(' ');
    assert.match(all, /DELTA_BINARY_PACKED|DELTA_LENGTH_BYTE_ARRAY|BYTE_STREAM_SPLIT/);
  });
});

test('floe reads files parquet-wasm (arrow-rs) writes with its codecs, encodings and versions', async () => {
  const wasm = await import('parquet-wasm');
  await withDuck(async (conn, dir) => {
    const source = join(dir, 'source.parquet');
    await conn.run(`COPY (SELECT i::BIGINT AS id, 'name-' || (i % 50) AS name,
        CASE WHEN i % 3 = 0 THEN NULL ELSE i / 4 END AS score,
        (i % 2 = 0) AS flag, (i * 3)::INTEGER AS qty,
        TIMESTAMP '2024-01-01' + INTERVAL (i) MINUTE AS ts,
        [i, i + 1] AS li
      FROM range(3000) t(i)) TO '${source}' (FORMAT parquet)`);
    const table = wasm.readParquet(new Uint8Array(readFileSync(source)));
    const C = wasm.Compression;
    const settings = [
      [C.UNCOMPRESSED, 1, true], [C.SNAPPY, 2, true], [C.GZIP, 1, false], [C.BROTLI, 2, true],
      [C.LZ4, 1, false], [C.LZ4_RAW, 2, false], [C.ZSTD, 2, true],
    ];
    for (const [k, [codec, version, dict]] of settings.entries()) {
      const props = new wasm.WriterPropertiesBuilder()
        .setCompression(codec)
        .setWriterVersion(version === 2 ? wasm.WriterVersion.V2 : wasm.WriterVersion.V1)
        .setDictionaryEnabled(dict)
        .setMaxRowGroupSize(1000)
        .build();
      const file = join(dir, `wasm-${k}.parquet`);
      writeFileSync(file, wasm.writeParquet(wasm.readParquet(new Uint8Array(readFileSync(source))), props));
      await compareWithDuckDB(conn, file, 3000, codec === C.LZ4 ? source : file);
    }
    // Explicit encodings: delta for integers, delta-length and delta byte arrays for strings.
    const E = wasm.Encoding;
    const props = new wasm.WriterPropertiesBuilder()
      .setDictionaryEnabled(false)
      .setWriterVersion(wasm.WriterVersion.V2)
      .setColumnEncoding('id', E.DELTA_BINARY_PACKED)
      .setColumnEncoding('qty', E.DELTA_BINARY_PACKED)
      .setColumnEncoding('name', E.DELTA_BYTE_ARRAY)
      .setColumnEncoding('score', E.BYTE_STREAM_SPLIT)
      .build();
    const file = join(dir, 'wasm-encodings.parquet');
    writeFileSync(file, wasm.writeParquet(table, props));
    await compareWithDuckDB(conn, file, 3000);
    const props2 = new wasm.WriterPropertiesBuilder()
      .setDictionaryEnabled(false)
      .setColumnEncoding('name', E.DELTA_LENGTH_BYTE_ARRAY)
      .build();
    const file2 = join(dir, 'wasm-dlba.parquet');
    writeFileSync(file2, wasm.writeParquet(wasm.readParquet(new Uint8Array(readFileSync(source))), props2));
    await compareWithDuckDB(conn, file2, 3000);
  });
});

test('floe reads files hyparquet-writer writes', async () => {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  await withDuck(async (conn, dir) => {
    const n = 2000;
    const ids = [], names = [], scores = [], flags = [], big = [], when = [];
    for (let i = 0; i < n; i++) {
      ids.push(i % 9 === 0 ? null : i * 3 - 1000);
      names.push(i % 7 === 0 ? null : `name-${i % 40}`);
      scores.push(i % 11 === 0 ? null : i / 8);
      flags.push(i % 5 === 0 ? null : i % 2 === 0);
      big.push(BigInt(i) * 1234567890123n);
      when.push(new Date(Date.UTC(2024, 0, 1) + i * 60000));
    }
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: ids, type: 'INT32' },
        { name: 'name', data: names, type: 'STRING' },
        { name: 'score', data: scores, type: 'DOUBLE' },
        { name: 'flag', data: flags, type: 'BOOLEAN' },
        { name: 'big', data: big, type: 'INT64' },
        { name: 'when', data: when, type: 'TIMESTAMP' },
      ],
      rowGroupSize: 700,
    });
    const file = join(dir, 'hyparquet.parquet');
    writeFileSync(file, new Uint8Array(buffer));
    await compareWithDuckDB(conn, file, n);
  });
});
