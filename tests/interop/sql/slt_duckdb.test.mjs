// The `.slt` expectations of tests/sql were written from floe's own output, checked by hand. This
// test asks a second engine: every `statement ok` and `query` record of every file runs through
// DuckDB (an in-memory database per file, time zone UTC), and each query's rows must agree with
// the expected rows, cell by cell (tpch_compare's rules: NULL and '' differ, numbers within 1e-6,
// timestamps by instant). A query that disagrees on purpose — where floe follows Trino and DuckDB
// does not — carries a comment line `# duckdb: WHY` right above it; such a query must still
// disagree, so a stale annotation fails too. Queries DuckDB cannot run (floe-only syntax, EXPLAIN,
// tables registered without rows) are listed as not cross-checked, never counted as agreeing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cellsAgree } from '../../../bench/tpch/tpch_compare.mjs';
import { NestedCell, isNested, nestedAgree } from './nested_cells.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));
const sltDir = join(root, 'tests', 'sql');

// The records of one file, as sql_logic_test reads them: blank-line separated, `#` comments.
// A `# duckdb: WHY` comment applies to the record that follows it.
export function parseSlt(text) {
  const lines = text.split('\n');
  const records = [];
  let annotation = null;
  for (let i = 0; i < lines.length;) {
    const head = lines[i];
    if (head === '' || head.startsWith('#')) {
      const m = /^#\s*duckdb:\s*(.+)$/.exec(head);
      if (m) annotation = m[1];
      i++;
      continue;
    }
    const line = i + 1;
    i++;
    if (head.startsWith('table ')) {
      records.push({ kind: 'table', line, spec: head.slice(6) });
      annotation = null;
      continue;
    }
    const sql = [];
    while (i < lines.length && lines[i] !== '' && lines[i] !== '----') sql.push(lines[i++]);
    let expected = null;
    if (lines[i] === '----') {
      expected = [];
      i++;
      while (i < lines.length && lines[i] !== '') expected.push(lines[i++]);
    }
    records.push({ kind: head, line, sql: sql.join('\n'), expected, annotation });
    annotation = null;
  }
  return records;
}

// floe's rendering of one row ("a | NULL | 2.50") back into cells; the text "NULL" is SQL NULL.
function expectedCells(line) {
  return line.split(' | ').map((cell) => (cell === 'NULL' ? null : cell));
}

// DuckDB's JSON rows as cells comparable with floe's text: strings stay strings, NULL stays null,
// booleans and numbers as floe prints them; lists, maps and structs kept whole with their types,
// to be compared by structure (nestedAgree).
function duckCells(row, types) {
  return row.map((v, i) => {
    if (v === null) return null;
    if (isNested(types[i])) return new NestedCell(v, types[i]);
    return typeof v === 'boolean' ? String(v) : v;
  });
}

// A timestamp without a zone, as an instant read in UTC: floe prints six fraction digits
// ("2024-03-01 09:00:00.000000"), DuckDB as few as needed ("2024-03-01 09:00:00").
const LOCAL_TIMESTAMP = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})(\.\d{1,9})?$/;
function asUtc(cell) {
  const m = typeof cell === 'string' ? LOCAL_TIMESTAMP.exec(cell) : null;
  return m ? `${m[1]}${m[2] ?? ''} UTC` : cell;
}

const leafAgree = (text, value) => cellsAgree(asUtc(text), asUtc(value));

function rowsAgree(a, b) {
  return a.length === b.length && a.every((cell, i) => {
    if (b[i] instanceof NestedCell) return cell !== null && nestedAgree(cell, b[i].value, b[i].type, leafAgree);
    return cellsAgree(asUtc(cell), asUtc(b[i]));
  });
}

// Rows agree as a bag (a query without ORDER BY has no order; one with ORDER BY may tie).
function sameBag(expected, actual) {
  if (expected.length !== actual.length) return false;
  const used = new Array(actual.length).fill(false);
  return expected.every((row) => {
    const k = actual.findIndex((candidate, i) => !used[i] && rowsAgree(row, candidate));
    if (k < 0) return false;
    used[k] = true;
    return true;
  });
}

// The same statement in DuckDB's dialect where only spelling differs: Trino's timestamp
// precisions (DuckDB's timestamps are microseconds without a parameter) and Iceberg table clauses
// (partitioning, properties) that do not change a table's rows; Trino's names of functions DuckDB
// has under another name.
// Trino's array(T) is DuckDB's T[] (map(K, V) is spelled alike); cardinality and element_at of
// an array are DuckDB's len and list_extract (of a map, DuckDB then refuses the query, which is
// then listed as not cross-checked), sequence of integers its generate_series.
const DUCKDB_NAMES = {
  every: 'bool_and', regexp_like: 'regexp_matches', codepoint: 'unicode', day_of_week: 'isodow', to_unixtime: 'epoch',
  array_join: 'array_to_string', cardinality: 'len', element_at: 'list_extract', sequence: 'generate_series',
};
function arrayTypes(sql) {
  const nested = /\barray\s*\(\s*([a-z]+(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?(?:\[\])*|map\s*\([^()]*\))\s*\)/gi;
  for (let before = null; before !== sql;) {
    before = sql;
    sql = sql.replace(nested, (_, element) => `${element}[]`);
  }
  return sql;
}
function toDuckDb(sql) {
  return arrayTypes(sql)
    .replace(/\b(every|regexp_like|codepoint|day_of_week|to_unixtime|array_join|cardinality|element_at|sequence)\s*\(/gi, (_, name) => `${DUCKDB_NAMES[name.toLowerCase()]}(`)
    .replace(/timestamp\s*\(\s*6\s*\)\s+with\s+time\s+zone/gi, 'timestamptz')
    .replace(/timestamp\s*\(\s*6\s*\)/gi, 'timestamp')
    .replace(/\s+partitioned\s+by\s*\((?:[^()]|\([^()]*\))*\)/gi, '')
    .replace(/\s+with\s*\(\s*(?:\w+\s*=\s*[^,()]+,?\s*)+\)(?=\s*(as\b|;|$))/gi, ' ');
}

// floe's `table` directive registers a schema without rows; DuckDB gets the same empty table
// where it knows the types.
function tableDdl(spec) {
  const open = spec.indexOf('(');
  const close = spec.lastIndexOf(')');
  const name = spec.slice(0, open).trim();
  return { name, columns: spec.slice(open + 1, close) };
}

async function crossCheck(file) {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run("SET TimeZone = 'UTC'");
  const outcome = { agreed: 0, annotated: 0, unchecked: [], failures: [] };
  for (const record of parseSlt(readFileSync(join(sltDir, file), 'utf8'))) {
    const where = `${file}:${record.line}`;
    if (record.kind === 'table') {
      const { name, columns } = tableDdl(record.spec);
      const schema = name.includes('.') ? name.split('.').slice(-2)[0] : null;
      try {
        if (schema) await conn.run(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        await conn.run(toDuckDb(`CREATE TABLE ${name} (${columns})`));
      } catch {
        // A floe-only type: the queries on this table show up as not cross-checked.
      }
      continue;
    }
    if (record.kind === 'statement ok') {
      try {
        await conn.run(toDuckDb(record.sql));
      } catch (error) {
        outcome.unchecked.push(`${where}: setup statement DuckDB refuses (${firstLine(error.message)})`);
      }
      continue;
    }
    if (record.kind !== 'query') continue;  // Errors are floe's own contract; DuckDB may be laxer.
    const sql = toDuckDb(record.sql);
    // Only queries answer with rows both engines print alike; SHOW, DESCRIBE and USE answer with
    // floe's own messages, so they only run (their effects matter to later records). DML
    // answers "VERB: N rows": N must be the number of rows DuckDB changed.
    if (!/^\s*(select|with|values|table|\()/i.test(sql)) {
      if (/^\s*explain\b/i.test(sql)) continue;
      const dml = /^(INSERT|UPDATE|DELETE|MERGE): (\d+) rows?$/.exec(record.expected?.[0] ?? '');
      let changed;
      try {
        changed = Number((await conn.run(sql)).rowsChanged);
      } catch (error) {
        if (dml) outcome.unchecked.push(`${where}: DuckDB cannot run it (${firstLine(error.message)})`);
        continue;
      }
      if (!dml) continue;
      const agrees = changed === Number(dml[2]);
      if (agrees && record.annotation) {
        outcome.failures.push(`${where}: annotated "duckdb: ${record.annotation}" but DuckDB now agrees; remove the annotation`);
      } else if (!agrees && !record.annotation) {
        outcome.failures.push(`${where}: DuckDB changed ${changed} rows, floe says ${dml[0]}\n${record.sql}`);
      } else if (agrees) {
        outcome.agreed++;
      } else {
        outcome.annotated++;
      }
      continue;
    }
    let rows;
    try {
      const reader = await conn.runAndReadAll(sql);
      const types = reader.columnTypes();
      rows = reader.getRowsJson().map((row) => duckCells(row, types));
    } catch (error) {
      outcome.unchecked.push(`${where}: DuckDB cannot run it (${firstLine(error.message)})`);
      continue;
    }
    const expected = (record.expected ?? []).map(expectedCells);
    const ordered = /\border\s+by\b/i.test(record.sql.replace(/over\s*\([^)]*\)/gi, ''));
    const agrees = ordered
      ? expected.length === rows.length && expected.every((row, i) => rowsAgree(row, rows[i])) || sameBag(expected, rows)
      : sameBag(expected, rows);
    if (agrees && record.annotation) {
      outcome.failures.push(`${where}: annotated "duckdb: ${record.annotation}" but DuckDB now agrees; remove the annotation`);
    } else if (!agrees && !record.annotation) {
      outcome.failures.push(
        `${where}: DuckDB disagrees\n${record.sql}\nexpected (floe):\n${(record.expected ?? []).join('\n')}\n` +
          `DuckDB:\n${rows.map((r) => r.map((c) => (c === null ? 'NULL' : String(c))).join(' | ')).join('\n')}`);
    } else if (agrees) {
      outcome.agreed++;
    } else {
      outcome.annotated++;
    }
  }
  conn.closeSync?.();
  return outcome;
}

function firstLine(message) {
  return String(message).split('\n')[0].slice(0, 160);
}

const files = readdirSync(sltDir).filter((f) => f.endsWith('.slt')).sort();
let totals = { agreed: 0, annotated: 0, unchecked: 0 };
for (const file of files) {
  test(`${file} agrees with DuckDB`, async () => {
    const outcome = await crossCheck(file);
    totals.agreed += outcome.agreed;
    totals.annotated += outcome.annotated;
    totals.unchecked += outcome.unchecked.length;
    for (const line of outcome.unchecked) console.log(`not cross-checked: ${line}`);
    assert.deepEqual(outcome.failures, [], outcome.failures.join('\n\n'));
  });
}
test('summary', () => {
  console.log(`slt vs DuckDB: ${totals.agreed} queries agree, ${totals.annotated} differ on purpose (annotated), ` +
    `${totals.unchecked} records DuckDB cannot run`);
  assert.ok(totals.agreed > 0);
});
