// Charts drawn as SVG by hand: bars or lines for a query result, and sparklines for the map.
import { el } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
export const PALETTE = ['#2f6fdf', '#e0793a', '#2a9d6f', '#c2416b', '#7b5cc4', '#c9a227', '#3aa7b8', '#8a8f98'];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const NUMERIC = /^(tinyint|smallint|integer|int|bigint|real|double|decimal|numeric|float)/i;
const TEMPORAL = /^(date|timestamp|time)/i;
export const isNumericType = (type) => NUMERIC.test(type || '');
export const isTemporalType = (type) => TEMPORAL.test(type || '');

function toNumber(v) {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

// Picks a chart for a query result from its column types:
// - x: the first temporal column, else the first non-numeric one, else the first column;
// - series: the numeric columns; with one numeric column and another text column, one series
//   per value of that column (orders per minute *by type*);
// - lines over time (or over a numeric x), bars over categories.
// Returns null when there is nothing to chart.
export function planChart(columns, rows) {
  if (!columns || !rows || rows.length === 0) return null;
  const types = columns.map((c) => c.type || '');
  let x = types.findIndex(isTemporalType);
  if (x < 0) x = types.findIndex((t) => !isNumericType(t));
  if (x < 0) x = columns.length > 1 ? 0 : -1;
  const numeric = types.map((t, i) => (i !== x && isNumericType(t) ? i : -1)).filter((i) => i >= 0);
  if (numeric.length === 0) return null;
  const kind = x >= 0 && (isTemporalType(types[x]) || isNumericType(types[x])) ? 'line' : 'bar';
  const label = (row) => (x >= 0 ? String(row[x] ?? 'null') : '');
  const categories = [];
  const index = new Map();
  for (const row of rows) {
    const key = label(row);
    if (!index.has(key)) {
      index.set(key, categories.length);
      categories.push(key);
    }
  }
  const pivot = types.findIndex((t, i) => i !== x && !isNumericType(t));
  let series;
  if (pivot >= 0 && numeric.length === 1) {
    const byName = new Map();
    for (const row of rows) {
      const name = String(row[pivot] ?? 'null');
      if (!byName.has(name)) byName.set(name, new Array(categories.length).fill(null));
      byName.get(name)[index.get(label(row))] = toNumber(row[numeric[0]]);
    }
    series = [...byName.entries()].map(([name, values]) => ({ name, values }));
  } else {
    series = numeric.map((i) => {
      const values = new Array(categories.length).fill(null);
      for (const row of rows) values[index.get(label(row))] = toNumber(row[i]);
      return { name: columns[i].name, values };
    });
  }
  return { kind, categories, series, xName: x >= 0 ? columns[x].name : '' };
}

function niceStep(range, target) {
  const raw = range / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / power;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * power;
}

function shortNumber(n) {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${+(n / 1e9).toFixed(1)}G`;
  if (abs >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${+(n / 1e3).toFixed(1)}k`;
  return `${+n.toFixed(2)}`;
}

function shortLabel(text) {
  const t = String(text).replace(/^\d{4}-\d\d-\d\d[ T](\d\d:\d\d).*$/, '$1');
  return t.length > 14 ? `${t.slice(0, 13)}…` : t;
}

// Draws `plan` (from planChart, or built by hand) into a new element and returns it.
export function chart(plan, { width = 760, height = 300, title } = {}) {
  const margin = { top: 16, right: 16, bottom: 44, left: 56 };
  const w = width - margin.left - margin.right;
  const h = height - margin.top - margin.bottom;
  const values = plan.series.flatMap((s) => s.values).filter((v) => v !== null);
  let max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  if (max === min) max = min + 1;
  const step = niceStep(max - min, 5);
  const top = Math.ceil(max / step) * step;
  const bottom = Math.floor(min / step) * step;
  const y = (v) => margin.top + h - ((v - bottom) / (top - bottom)) * h;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: `chart chart-${plan.kind}`, role: 'img',
    'data-kind': plan.kind, 'aria-label': title || `${plan.kind} chart` });
  for (let v = bottom; v <= top + step / 2; v += step) {
    root.append(svg('line', { x1: margin.left, x2: margin.left + w, y1: y(v), y2: y(v), class: 'grid-line' }));
    root.append(svg('text', { x: margin.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, shortNumber(v)));
  }
  const n = plan.categories.length;
  const labelEvery = Math.max(1, Math.ceil(n / 8));
  if (plan.kind === 'bar') {
    const band = w / Math.max(1, n);
    const barWidth = Math.max(2, (band * 0.8) / plan.series.length);
    plan.series.forEach((s, si) => {
      s.values.forEach((v, i) => {
        if (v === null) return;
        const x0 = margin.left + i * band + band * 0.1 + si * barWidth;
        const rect = svg('rect', { x: x0, y: Math.min(y(v), y(0)), width: barWidth - 1, height: Math.abs(y(v) - y(0)),
          fill: s.color || PALETTE[si % PALETTE.length], class: 'bar' });
        rect.append(svg('title', {}, `${plan.categories[i]} · ${s.name}: ${v}`));
        root.append(rect);
      });
    });
    plan.categories.forEach((c, i) => {
      if (i % labelEvery) return;
      root.append(svg('text', { x: margin.left + i * band + band / 2, y: margin.top + h + 16, 'text-anchor': 'middle',
        class: 'tick' }, shortLabel(c)));
    });
  } else {
    const x = (i) => margin.left + (n <= 1 ? w / 2 : (i / (n - 1)) * w);
    plan.series.forEach((s, si) => {
      const color = s.color || PALETTE[si % PALETTE.length];
      const points = s.values.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
      root.append(svg('polyline', { points: points.join(' '), fill: 'none', stroke: color, 'stroke-width': 2,
        class: 'line' }));
      if (points.length <= 40) {
        s.values.forEach((v, i) => {
          if (v === null) return;
          const dot = svg('circle', { cx: x(i), cy: y(v), r: 3, fill: color });
          dot.append(svg('title', {}, `${plan.categories[i]} · ${s.name}: ${v}`));
          root.append(dot);
        });
      }
    });
    plan.categories.forEach((c, i) => {
      if (i % labelEvery) return;
      root.append(svg('text', { x: x(i), y: margin.top + h + 16, 'text-anchor': 'middle', class: 'tick' }, shortLabel(c)));
    });
  }
  root.append(svg('line', { x1: margin.left, x2: margin.left + w, y1: y(0), y2: y(0), class: 'axis' }));
  if (plan.xName) {
    root.append(svg('text', { x: margin.left + w / 2, y: height - 6, 'text-anchor': 'middle', class: 'axis-name' },
      plan.xName));
  }
  const legend = plan.series.length > 1 || plan.series[0]?.name
    ? el('div.legend', {}, plan.series.map((s, i) => el('span', {},
      el('i', { style: `background:${s.color || PALETTE[i % PALETTE.length]}` }), s.name)))
    : null;
  return el('figure.chart-box', { 'data-chart': plan.kind }, title ? el('figcaption', { text: title }) : null, root, legend);
}

// A sparkline of the last values (the map's boxes).
// With `fromZero` false the scale spans the values' own range (a growing total still moves).
export function sparkline(values, { width = 160, height = 32, color = PALETTE[0], fromZero = true } = {}) {
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'spark', preserveAspectRatio: 'none' });
  if (values.length < 2) return root;
  const min = fromZero ? 0 : Math.min(...values);
  const max = Math.max(min + 1, ...values);
  const points = values.map((v, i) => `${((i / (values.length - 1)) * width).toFixed(1)},${(height - 2 - ((v - min) / (max - min)) * (height - 4)).toFixed(1)}`);
  root.append(svg('polyline', { points: points.join(' '), fill: 'none', stroke: color, 'stroke-width': 1.5 }));
  return root;
}
