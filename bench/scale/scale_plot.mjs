// Draws scale_run.mjs's results as an SVG: seconds against events, both axes logarithmic, one
// line per step (ingest and each dashboard query), and a dotted "linear" guide through the first
// ingest point, so growth faster than the data shows as a line steeper than the guide.
//   node scale_plot.mjs RESULTS_JSONL OUT_SVG
import { readFileSync, writeFileSync } from 'node:fs';

const [inFile, outFile] = process.argv.slice(2);
const results = readFileSync(inFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
if (results.length === 0) throw new Error(`${inFile} has no results`);

const series = { ingest: results.map((r) => [r.events, r.ingest.seconds]) };
for (const name of Object.keys(results[0].dashboard)) series[name] = results.map((r) => [r.events, r.dashboard[name].seconds]);

const width = 760, height = 440, left = 70, right = 200, top = 30, bottom = 50;
const xs = results.map((r) => r.events);
const ys = Object.values(series).flat().map(([, s]) => s);
const log = Math.log10;
const x0 = Math.floor(log(Math.min(...xs))), x1 = Math.max(x0 + 1, Math.ceil(log(Math.max(...xs))));
const y0 = Math.floor(log(Math.min(...ys))), y1 = Math.max(y0 + 1, Math.ceil(log(Math.max(...ys))));
const px = (x) => left + ((log(x) - x0) / (x1 - x0)) * (width - left - right);
const py = (y) => height - bottom - ((log(y) - y0) / (y1 - y0)) * (height - top - bottom);
const colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf', '#7f7f7f'];

const parts = [];
parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`);
parts.push(`<rect width="${width}" height="${height}" fill="white"/>`);
parts.push(`<text x="${left}" y="18" font-size="14">floe: seconds against events (log-log)</text>`);
for (let e = x0; e <= x1; e++) {
  parts.push(`<line x1="${px(10 ** e)}" y1="${top}" x2="${px(10 ** e)}" y2="${height - bottom}" stroke="#ddd"/>`);
  parts.push(`<text x="${px(10 ** e)}" y="${height - bottom + 18}" text-anchor="middle">1e${e}</text>`);
}
for (let e = y0; e <= y1; e++) {
  parts.push(`<line x1="${left}" y1="${py(10 ** e)}" x2="${width - right}" y2="${py(10 ** e)}" stroke="#ddd"/>`);
  parts.push(`<text x="${left - 8}" y="${py(10 ** e) + 4}" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toFixed(-e)} s</text>`);
}
parts.push(`<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle">events</text>`);
const [gx, gy] = series.ingest[0];
const guideEnd = Math.max(...xs);
parts.push(`<line x1="${px(gx)}" y1="${py(gy)}" x2="${px(guideEnd)}" y2="${py(gy * guideEnd / gx)}" stroke="#999" stroke-dasharray="3,4"/>`);
Object.entries(series).forEach(([name, points], i) => {
  const color = colors[i % colors.length];
  parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([x, y]) => `${px(x)},${py(y)}`).join(' ')}"/>`);
  for (const [x, y] of points) parts.push(`<circle cx="${px(x)}" cy="${py(y)}" r="3" fill="${color}"/>`);
  parts.push(`<text x="${width - right + 12}" y="${top + 16 * i + 10}" fill="${color}">${name}</text>`);
});
parts.push(`<text x="${width - right + 12}" y="${top + 16 * Object.keys(series).length + 10}" fill="#999">linear (ingest guide)</text>`);
parts.push('</svg>');
writeFileSync(outFile, `${parts.join('\n')}\n`);
