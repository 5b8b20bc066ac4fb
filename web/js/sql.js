// The SQL editor: run a query through POST /api/query, see the rows as a table and as a chart
// picked from the result's column types.
import { api } from './api.js';
import { chart, planChart } from './chart.js';
import { clear, fill, el, num, table } from './dom.js';

const EXAMPLES = [
  ['Events per minute by type', `SELECT date_trunc('minute', ts) AS minute, type, count(*) AS events
FROM floe.shop.orders
GROUP BY 1, 2
ORDER BY 1, 2`],
  ['Revenue by region', `SELECT region, round(sum(amount), 2) AS revenue
FROM floe.shop.orders
WHERE type = 'paid'
GROUP BY region
ORDER BY revenue DESC`],
  ['Latest events', `SELECT *
FROM floe.shop.orders
ORDER BY ts DESC
LIMIT 20`],
  ['Dead letters by reason', `SELECT *
FROM floe.shop.orders_dlq
LIMIT 20`],
  ['Table snapshots', `SELECT *
FROM floe.shop."orders$snapshots"`],
];

const STORAGE_KEY = 'floe.console.sql';

export function render(root) {
  const editor = el('textarea.sql', { spellcheck: 'false', 'aria-label': 'SQL', rows: 8 });
  editor.value = localStorage.getItem(STORAGE_KEY) || EXAMPLES[0][1];
  const status = el('span.muted', { 'data-role': 'status' });
  const out = el('div.results');
  const run = el('button.primary', { 'data-action': 'run', text: 'Run ▸' });
  const examples = el('select', { 'aria-label': 'examples' },
    el('option', { value: '', text: 'Examples…' }), EXAMPLES.map(([name], i) => el('option', { value: i, text: name })));
  examples.addEventListener('change', () => {
    if (examples.value !== '') editor.value = EXAMPLES[Number(examples.value)][1];
    examples.value = '';
    editor.focus();
  });

  async function execute() {
    const sql = editor.value.trim();
    if (!sql) return;
    localStorage.setItem(STORAGE_KEY, editor.value);
    run.disabled = true;
    status.textContent = 'running…';
    const started = performance.now();
    const result = await api.query(sql);
    const roundTrip = performance.now() - started;
    run.disabled = false;
    clear(out);
    if (result.error) {
      const where = result.error.line ? ` (line ${result.error.line}, column ${result.error.column})` : '';
      status.textContent = '';
      out.append(el('pre.error', { 'data-role': 'error', text: `${result.error.errorName || 'error'}: ${result.error.message}${where}` }));
      return;
    }
    const rows = result.rows || [];
    const columns = result.columns || [];
    status.textContent = `${num(rows.length)} row${rows.length === 1 ? '' : 's'} · ${num(result.stats?.elapsedMillis)} ms on the server · ${num(roundTrip)} ms round trip`;
    const plan = planChart(columns, rows);
    if (plan) out.append(chart(plan));
    else if (columns.length) out.append(el('p.muted', { text: 'No numeric column to chart.' }));
    if (result.message) out.append(el('p.muted', { text: result.message }));
    out.append(el('div.scroll', {}, table(columns.map((c) => `${c.name} · ${c.type}`),
      rows.slice(0, 1000).map((r) => r.map((v) => (v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v)))),
      { 'data-role': 'result-table' })));
    if (rows.length > 1000) out.append(el('p.muted', { text: `First 1,000 of ${num(rows.length)} rows shown.` }));
  }
  run.addEventListener('click', execute);
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      execute();
    }
  });

  root.append(el('section.page', {},
    el('div.page-head', {}, el('h1', { text: 'SQL' }),
      el('p.lead', { text: 'Query the lakehouse: tables live under floe.<schema>.<table>. Ctrl+Enter runs.' })),
    editor, el('div.toolbar', {}, run, examples, status), out));
  return null;
}
