// DuckDB's nested values (lists, maps, structs, as getRowsJson gives them) against floe's text of
// them in Trino's spelling ("[1, NULL]", "{k=v}", "{field=value}"), compared by structure: the
// differential tests use it so a nested cell agrees only element by element, never as strings
// that happen to match.
import { DuckDBTypeId } from '@duckdb/node-api';

export class NestedCell {
  constructor(value, type) {
    this.value = value;
    this.type = type;
  }
  toString() {
    return JSON.stringify(this.value);
  }
}

const NESTED = new Set([DuckDBTypeId.LIST, DuckDBTypeId.ARRAY, DuckDBTypeId.MAP, DuckDBTypeId.STRUCT]);
export function isNested(type) {
  return type != null && NESTED.has(type.typeId);
}

// The parts of Trino's text of an array, map or row ("[a, [b, c]]", "{k=1, j=NULL}") split at
// the top level: its items, or null when the text is not of that shape.
function nestedParts(text, open, close) {
  if (typeof text !== 'string' || !text.startsWith(open) || !text.endsWith(close)) return null;
  const inner = text.slice(1, -1);
  if (inner === '') return [];
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (depth === 0 && c === ',' && inner[i + 1] === ' ') {
      parts.push(inner.slice(start, i));
      start = i + 2;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

// "key=value" at the top level of a map or row entry.
function splitEntry(text) {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (depth === 0 && c === '=') return [text.slice(0, i), text.slice(i + 1)];
  }
  return null;
}

// Whether floe's text of a nested value (Trino's spelling) holds the value DuckDB gave, element
// by element with the cell rules (NULL and '' apart, numbers within 1e-6). Trino's text cannot
// tell a string holding ", " or "]" from structure; such a mismatch makes the query disagree,
// never agree. Map entries compare as a bag (a map has no order); lists and rows in order.
export function nestedAgree(text, value, type, leafAgree) {
  if (value === null) return text === 'NULL';
  if (!isNested(type)) return text !== 'NULL' && leafAgree(text, typeof value === 'boolean' ? String(value) : value);
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY: {
      const items = nestedParts(text, '[', ']');
      return items !== null && items.length === value.length && items.every((item, i) => nestedAgree(item, value[i], type.valueType, leafAgree));
    }
    case DuckDBTypeId.MAP: {
      const entries = nestedParts(text, '{', '}');
      if (entries === null || entries.length !== value.length) return false;
      const used = new Array(value.length).fill(false);
      return entries.every((entry) => {
        const kv = splitEntry(entry);
        const k = kv && value.findIndex((e, i) => !used[i] && nestedAgree(kv[0], e.key, type.keyType, leafAgree) && nestedAgree(kv[1], e.value, type.valueType, leafAgree));
        if (k === null || k < 0) return false;
        used[k] = true;
        return true;
      });
    }
    case DuckDBTypeId.STRUCT: {
      const fields = nestedParts(text, '{', '}');
      if (fields === null || fields.length !== type.entryNames.length) return false;
      return fields.every((field, i) => {
        const kv = splitEntry(field);
        return kv !== null && kv[0] === type.entryNames[i] && nestedAgree(kv[1], value[type.entryNames[i]], type.entryTypes[i], leafAgree);
      });
    }
  }
  return false;
}

// Asserts that floe's rows (`floeJsonLines`: `floe sql --format json` output, one object per
// row in column order) equal DuckDB's `reader` rows in order, nested cells compared by structure
// and scalar cells by `leafAgree`, NULL and '' apart. Returns the row count.
export function assertSameRows(assert, label, floeJsonLines, reader, leafAgree) {
  const floeRows = floeJsonLines.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  const types = reader.columnTypes();
  const duckRows = reader.getRowsJson();
  assert.equal(floeRows.length, duckRows.length, `${label}: row counts`);
  for (let r = 0; r < duckRows.length; r++) {
    const f = Object.values(floeRows[r]), d = duckRows[r];
    assert.equal(f.length, d.length, `${label}: columns of row ${r}`);
    for (let c = 0; c < d.length; c++) {
      const text = f[c] === null ? null : typeof f[c] === 'string' ? f[c] : String(f[c]);
      const agree = d[c] === null ? text === null
        : isNested(types[c]) ? text !== null && nestedAgree(text, d[c], types[c], leafAgree)
        : leafAgree(text, typeof d[c] === 'boolean' ? String(d[c]) : d[c]);
      assert.ok(agree, `${label}\nrow ${r} column ${c}: floe ${JSON.stringify(f[c])}, DuckDB ${JSON.stringify(d[c])}`);
    }
  }
  return floeRows.length;
}
