// Compares a query's rows from floe with DuckDB's, cell by cell and in order (every TPC-H query
// with more than one row orders it fully, as does every dashboard query of bench/sql.bench.sh). NULL and '' are different values. Numbers agree
// within 1e-6 relative; where floe answers a decimal with scale s and DuckDB a double (avg of a
// decimal keeps its scale in Trino, as in floe), DuckDB's value rounded to s digits must match.
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function numeric(v) {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && NUMBER.test(v)) return Number(v);
  return null;
}

function scaleOf(v) {
  if (typeof v !== 'string' || !NUMBER.test(v) || /[eE]/.test(v)) return null;
  const dot = v.indexOf('.');
  return dot < 0 ? 0 : v.length - dot - 1;
}

// A timestamp with time zone in UTC as epoch microseconds: floe writes "2025-01-01 12:00:00.000000
// UTC", DuckDB "2025-01-01 12:00:00+00"; null for anything else.
const TIMESTAMP_UTC = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,9})?( UTC|\+00(:00)?|Z)$/;
function utcMicros(v) {
  const m = typeof v === 'string' ? TIMESTAMP_UTC.exec(v) : null;
  if (!m) return null;
  const fraction = (m[3] ?? '.').slice(1).padEnd(6, '0').slice(0, 6);
  return BigInt(Date.parse(`${m[1]}T${m[2]}Z`)) * 1000n + BigInt(fraction);
}

export function cellsAgree(floeCell, duckCell) {
  if (floeCell === null || duckCell === null) return floeCell === null && duckCell === null;
  const ta = utcMicros(floeCell), tb = utcMicros(duckCell);
  if (ta !== null && tb !== null) return ta === tb;
  const a = numeric(floeCell), b = numeric(duckCell);
  if (a !== null && b !== null) {
    const relative = 1e-6 * Math.max(Math.abs(a), Math.abs(b));
    if (Math.abs(a - b) <= relative) return true;
    const scale = scaleOf(floeCell);
    if (scale !== null && typeof duckCell === 'number') return Math.abs(a - b) <= 0.5 * 10 ** -scale * (1 + 1e-9) + relative;
    return false;
  }
  return String(floeCell) === String(duckCell);
}

// Returns null when the results agree, else a sentence saying where they first differ.
export function compareRows(floeRows, duckRows) {
  if (floeRows.length !== duckRows.length) return `${floeRows.length} rows from floe, ${duckRows.length} from DuckDB`;
  for (let r = 0; r < floeRows.length; r++) {
    const f = floeRows[r], d = duckRows[r];
    if (f.length !== d.length) return `row ${r + 1}: ${f.length} columns from floe, ${d.length} from DuckDB`;
    for (let c = 0; c < f.length; c++) {
      if (!cellsAgree(f[c], d[c])) {
        return `row ${r + 1} column ${c + 1}: floe ${JSON.stringify(f[c])}, DuckDB ${JSON.stringify(d[c])}`;
      }
    }
  }
  return null;
}

// `floe sql --format json` prints one object per row; its values in column order are the row.
export function parseFloeJsonLines(text) {
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => Object.values(JSON.parse(line)));
}
