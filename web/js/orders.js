// The "Orders" dashboard: queries over floe.shop.orders (every event, its line items and
// shipping address nested), floe.shop.order_state (each order's current state, kept by the
// upsert job) and floe.shop.payments (one row per paid order), run again every few seconds.
import { api } from './api.js';
import { chart, planChart, PALETTE } from './chart.js';
import { clear, fill, el, num, table } from './dom.js';

const REFRESH_MS = 5000;

const PANELS = [
  { id: 'per-minute', title: 'Orders per minute by type (last 30 minutes)', sql: `SELECT date_trunc('minute', ts) AS minute, type, count(*) AS events
FROM floe.shop.orders
WHERE ts >= current_timestamp - INTERVAL '30' MINUTE
GROUP BY 1, 2
ORDER BY 1, 2`, draw: drawChart },
  { id: 'revenue', title: 'Revenue by region (paid orders, local currency units)', sql: `SELECT region, round(sum(amount), 2) AS revenue
FROM floe.shop.orders
WHERE type = 'paid'
GROUP BY region
ORDER BY revenue DESC`, draw: drawChart },
  { id: 'funnel', title: 'Funnel: created → paid → shipped', sql: `SELECT type, count(DISTINCT order_id) AS orders
FROM floe.shop.orders
GROUP BY type`, draw: drawFunnel },
  { id: 'status', title: 'Orders by current status (shop.order_state: one row per order, its latest event)', sql: `SELECT type AS status, count(*) AS orders
FROM floe.shop.order_state
GROUP BY type
ORDER BY orders DESC, status`, draw: drawChart },
  { id: 'customers', title: 'Top customers', sql: `SELECT customer_id, count(DISTINCT order_id) AS orders, round(sum(amount), 2) AS spent
FROM floe.shop.orders
WHERE type = 'paid'
GROUP BY customer_id
ORDER BY spent DESC
LIMIT 10`, draw: drawTable },
  // An order's line items are an array of rows: UNNEST gives one row per line.
  { id: 'products', title: 'Top products (units ordered)', sql: `SELECT li.sku, sum(li.quantity) AS units, count(DISTINCT o.order_id) AS orders
FROM floe.shop.orders o
CROSS JOIN UNNEST(o.line_items) AS li (sku, quantity, unit_price)
WHERE o.type = 'created'
GROUP BY li.sku
ORDER BY units DESC, li.sku
LIMIT 10`, draw: drawChart },
  // Payments carry no region and orders no payment method: the join brings the two together.
  { id: 'payments', title: 'How each region pays (orders joined with shop.payments)', sql: `SELECT o.region, p.method, count(*) AS payments
FROM floe.shop.orders o
JOIN floe.shop.payments p ON p.order_id = o.order_id
WHERE o.type = 'created'
GROUP BY 1, 2
ORDER BY 1, 2`, draw: drawChart },
  { id: 'destinations', title: 'Paid orders waiting to ship, by country (shop.order_state)', sql: `SELECT shipping_address.country AS country, count(*) AS orders
FROM floe.shop.order_state
WHERE type = 'paid'
GROUP BY 1
ORDER BY orders DESC, country`, draw: drawChart },
];

function drawChart(result) {
  const plan = planChart(result.columns, result.rows);
  return plan ? chart(plan, { height: 260 }) : el('p.muted', { text: 'No rows yet.' });
}

function drawFunnel(result) {
  const counts = Object.fromEntries((result.rows || []).map(([type, n]) => [type, Number(n)]));
  const created = counts.created || 0;
  const steps = ['created', 'paid', 'shipped'];
  return el('div.funnel', {},
    steps.map((step, i) => {
      const n = counts[step] || 0;
      const share = created ? n / created : 0;
      return el('div.funnel-step', { 'data-step': step },
        el('span.funnel-label', { text: step }),
        el('span.funnel-bar', { style: `width:${Math.max(2, share * 100)}%;background:${PALETTE[i]}` }),
        el('span.funnel-value', { text: `${num(n)} orders${i ? ` · ${num(share * 100, 1)}%` : ''}` }));
    }),
    el('p.muted', { text: `cancelled: ${num(counts.cancelled || 0)} orders. Orders count once per step they reached.` }));
}

function drawTable(result) {
  return table((result.columns || []).map((c) => c.name), (result.rows || []).map((r) => r.map((v) => num(v, 2))));
}

// The dashboard's freshness (serve/session_properties.h), kept in this browser: `live` reads
// each table's snapshot plus the broker's tail past its offsets, `snapshot` only what is
// committed, as Trino or Spark reading the tables would.
const FRESHNESS_KEY = 'floe.orders.freshness';

function savedFreshness() {
  try {
    return localStorage.getItem(FRESHNESS_KEY) === 'snapshot' ? 'snapshot' : 'live';
  } catch {
    return 'live';
  }
}

export function render(root) {
  const updated = el('span.muted', { 'data-role': 'updated', 'data-refreshes': '0', text: 'loading…' });
  let freshness = savedFreshness();
  const freshnessSelect = el('select', { 'aria-label': 'freshness', 'data-control': 'freshness' },
    el('option', { value: 'live', text: 'live: snapshot + broker tail' }),
    el('option', { value: 'snapshot', text: 'snapshot only: committed data' }));
  freshnessSelect.value = freshness;
  freshnessSelect.addEventListener('change', () => {
    freshness = freshnessSelect.value;
    try {
      localStorage.setItem(FRESHNESS_KEY, freshness);
    } catch {
      // Storage refused (private mode): the choice lasts for this page.
    }
    clearTimeout(timer);
    refresh();
  });
  const grid = el('div.dashboard');
  const bodies = new Map();
  for (const panel of PANELS) {
    const body = el('div.panel-body');
    bodies.set(panel.id, body);
    grid.append(el('article.panel', { 'data-panel': panel.id }, el('h2', { text: panel.title }), body,
      el('details', {}, el('summary', { text: 'SQL' }), el('pre', { text: panel.sql }))));
  }
  root.append(el('section.page', {},
    el('div.page-head', {}, el('h1', { text: 'Orders' }),
      el('p.lead', {}, 'From ', el('code', { text: 'floe.shop.orders' }), `, refreshed every ${REFRESH_MS / 1000} seconds. `, updated),
      el('label.row', {}, 'Freshness', freshnessSelect)),
    grid));

  let refreshes = 0;
  let timer = null;
  let disposed = false;
  async function refresh() {
    const asked = freshness;
    const results = await Promise.all(PANELS.map((p) => api.query(p.sql, { freshness: asked })));
    if (disposed || asked !== freshness) return;  // Changed meanwhile: that refresh draws.
    PANELS.forEach((panel, i) => {
      const body = clear(bodies.get(panel.id));
      const result = results[i];
      body.append(result.error ? el('p.error', { text: result.error.message }) : panel.draw(result));
    });
    refreshes++;
    updated.dataset.refreshes = String(refreshes);
    updated.dataset.freshness = asked;
    updated.textContent = `Updated ${new Date().toLocaleTimeString()} (refresh ${refreshes}, ${asked}).`;
    timer = setTimeout(refresh, REFRESH_MS);
  }
  refresh();
  return { dispose() { disposed = true; clearTimeout(timer); } };
}
