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

// A timestamp with time zone as epoch microseconds: floe writes "2025-01-01 12:00:00.000000 UTC"
// or, in another session zone, the wall clock there and the zone's name ("2025-01-01
// 13:00:00.000000 Europe/Berlin"); DuckDB "2025-01-01 12:00:00+00" or with another offset
// ("+05:30"); null for anything else.
const TIMESTAMP_ZONED = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,9})?(?: UTC|Z| ([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+)|([+-]\d{2})(?::(\d{2}))?(?::(\d{2}))?)$/;
function utcMicros(v) {
  const m = typeof v === 'string' ? TIMESTAMP_ZONED.exec(v) : null;
  if (!m) return null;
  const fraction = BigInt((m[3] ?? '.').slice(1).padEnd(6, '0').slice(0, 6));
  const wallMillis = Date.parse(`${m[1]}T${m[2]}Z`);
  let offsetSeconds = 0;
  if (m[4]) {
    offsetSeconds = zoneOffsetSeconds(m[4], wallMillis);
  } else if (m[5]) {
    const sign = m[5].startsWith('-') ? -1 : 1;
    offsetSeconds = sign * (Math.abs(Number(m[5])) * 3600 + Number(m[6] ?? 0) * 60 + Number(m[7] ?? 0));
  }
  return BigInt(wallMillis - offsetSeconds * 1000) * 1000n + fraction;
}

// The offset of IANA zone `zone` for the wall-clock time `wallMillis` (read as if UTC): the
// offset at the instant it denotes, found by Node's Intl (ICU) in two steps.
function zoneOffsetSeconds(zone, wallMillis) {
  const at = (instantMillis) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit',
      day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(instantMillis));
    const get = (type) => Number(parts.find((p) => p.type === type).value);
    const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return Math.round((wall - Math.floor(instantMillis / 1000) * 1000) / 1000);
  };
  const first = at(wallMillis);
  const second = at(wallMillis - first * 1000);
  return second;
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
