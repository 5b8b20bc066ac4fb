// The pipeline map: one box per part of the picture, live numbers from /api/pipeline, arrows
// drawn over the grid; a box opens its page.
import { ago, bytes, clear, fill, el, num } from './dom.js';
import { PALETTE, sparkline } from './chart.js';
import { recentQueryMillis, store, subscribe } from './store.js';

export function roleOf(snapshot, match) {
  return (snapshot?.roles || []).find((r) => (typeof match === 'string' ? r.name === match : match(r.name)));
}

const isQuery = (name) => name.includes('query');

function topic(snapshot) {
  const name = snapshot?.stream?.topic || 'orders';
  return (snapshot?.broker?.topics || []).find((t) => t.name === name);
}

// The job and table of a linked topic (payments, shipments) in the snapshot, or {}.
export function linkedOf(snapshot, topicName) {
  return (snapshot?.linked || []).find((l) => l.topic === topicName) || {};
}

// A box for a linked topic's job and table: its role is the job ("payments job").
function linkedBox(topicName, title, cell) {
  return { id: topicName, title, sub: `topic ${topicName} → shop.${topicName}`, role: `${topicName} job`, cell,
    metrics: (s) => {
      const l = linkedOf(s, topicName);
      return [
        ['rows', num(l.rows), 'rows'],
        ['files', num(l.files), 'files'],
        ['consumer lag', num(l.consumer_lag), 'consumer_lag'],
      ];
    } };
}

// Each box: where it sits, which role's state it shows, and its numbers.
export const BOXES = [
  { id: 'generator', title: 'Order services', sub: 'order-events generator', role: 'generator', cell: [1, 1],
    metrics: (s) => [
      ['target rate', s.generator?.paused ? 'paused' : `${num(s.generator?.rate)}/s`, 'rate'],
      ['sent', num(s.generator?.sent), 'sent'],
      ['acknowledged', num(s.generator?.acknowledged), 'acknowledged'],
    ], spark: 'eventsPerSecond' },
  { id: 'broker', title: 'Broker', sub: 'Kafka protocol', role: 'broker', cell: [1, 2],
    metrics: (s) => [
      ['events/s in', num(s.broker?.events_per_second, 1), 'events_per_second'],
      ['end offset', num(topic(s)?.end_offset), 'end_offset'],
      ['partitions', num(topic(s)?.partitions?.length), 'partitions'],
    ], spark: 'eventsPerSecond' },
  { id: 'stream', title: 'Stream job', sub: 'micro-batches, exactly once', role: 'stream job', cell: [1, 3],
    metrics: (s) => [
      ['consumer lag', num(s.stream?.consumer_lag), 'consumer_lag'],
      ['last commit', s.stream?.last_commit_ms ? ago(s.stream.last_commit_ms, s.time_ms) : 'none yet', 'last_commit'],
      ['snapshot', s.stream?.last_snapshot_id != null ? String(s.stream.last_snapshot_id).slice(-8) : '–', 'snapshot'],
    ], spark: 'lag' },
  { id: 'storage', title: 'Storage', sub: 'object store (warehouse)', role: null, cell: [1, 4],
    metrics: (s) => [
      ['used', bytes(s.storage?.bytes), 'bytes'],
      ['objects', num(s.storage?.objects), 'objects'],
      ['faults', faultText(s.storage?.faults), 'faults'],
    ] },
  { id: 'table', title: 'Catalog + table', sub: 'Iceberg REST · shop.orders', role: 'catalog', cell: [2, 3],
    metrics: (s) => [
      ['rows', num(s.table?.rows), 'rows'],
      ['files', num(s.table?.files), 'files'],
      ['mean file', bytes(s.table?.mean_file_bytes), 'mean_file_bytes'],
      ['store', s.catalog_store ? (s.catalog_store.kind === 'postgresql' ? 'PostgreSQL' : 'SQLite') : '–', 'catalog_store'],
    ], spark: 'rows' },
  // The payments and shipments: each topic's own stream job and table (docs/orders.md).
  linkedBox('payments', 'Payments', [2, 4]),
  linkedBox('shipments', 'Shipments', [3, 4]),
  { id: 'query', title: 'Query engine', sub: 'Trino · PostgreSQL · HTTP', role: isQuery, cell: [2, 2],
    metrics: () => [
      ['query latency', latencyText(), 'query_latency'],
      ['recent queries', num(store.queries?.queries?.length ?? null), 'queries'],
      ['running', num(store.queries?.running ?? null), 'running'],
    ], spark: 'queryMillis' },
];

// [from, to, label, dashed]
const ARROWS = [
  ['generator', 'broker', 'produce'],
  ['broker', 'stream', 'fetch'],
  ['stream', 'storage', 'Parquet'],
  ['stream', 'table', 'commit'],
  ['table', 'query', 'scan'],
  ['broker', 'query', 'log tail', true],
  ['payments', 'storage', 'Parquet', true],
];

function latencyText() {
  const millis = recentQueryMillis(store.queries);
  return millis === null ? '–' : `${num(millis, 1)} ms`;
}

function faultText(faults) {
  if (!faults) return 'none';
  const parts = [];
  if (faults.error_rate > 0) parts.push(`${Math.round(faults.error_rate * 100)}% errors`);
  if (faults.short_write_rate > 0) parts.push(`${Math.round(faults.short_write_rate * 100)}% torn`);
  if (faults.latency_ms > 0) parts.push(`+${faults.latency_ms} ms`);
  return parts.length ? parts.join(', ') : 'none';
}

function trend(title, values, current, digits, color, fromZero = true) {
  return el('div.trend', {}, el('div.trend-head', {}, el('span', { text: title }), el('strong', { text: num(current, digits) })),
    sparkline(values, { width: 400, height: 70, color, fromZero }));
}

export function stateOf(snapshot, box) {
  if (!snapshot) return 'unknown';
  if (!box.role) return snapshot.storage?.faults && faultText(snapshot.storage.faults) !== 'none' ? 'faulty' : 'running';
  return roleOf(snapshot, box.role)?.state || 'missing';
}

export function render(root) {
  const grid = el('div.map-grid');
  const overlay = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  overlay.classList.add('map-arrows');
  const wrap = el('div.map', {}, overlay, grid);
  const nodes = new Map();
  for (const box of BOXES) {
    const node = el('a.box', { href: `#/box/${box.id}`, 'data-box': box.id,
      style: `grid-row:${box.cell[0]};grid-column:${box.cell[1]}` });
    grid.append(node);
    nodes.set(box.id, node);
  }
  const note = el('p.note');
  const trends = el('div.trends');
  root.append(el('section.page', {},
    el('div.page-head', {}, el('h1', { text: 'Pipeline' }),
      el('p.lead', { text: 'Order events flow left to right: into the broker, through the stream job into an Iceberg table, and out through the query engine. Click a box to open it.' })),
    note, wrap, trends));

  function drawArrows() {
    const base = wrap.getBoundingClientRect();
    clear(overlay);
    overlay.setAttribute('viewBox', `0 0 ${base.width} ${base.height}`);
    const ns = 'http://www.w3.org/2000/svg';
    const defs = document.createElementNS(ns, 'defs');
    defs.innerHTML = '<marker id="arrow-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8b93a1"/></marker>';
    overlay.append(defs);
    for (const [from, to, label, dashed] of ARROWS) {
      const a = nodes.get(from).getBoundingClientRect();
      const b = nodes.get(to).getBoundingClientRect();
      const ac = { x: a.left + a.width / 2 - base.left, y: a.top + a.height / 2 - base.top };
      const bc = { x: b.left + b.width / 2 - base.left, y: b.top + b.height / 2 - base.top };
      // Leave each box at its edge facing the other.
      const edge = (r, c, toward) => {
        const dx = toward.x - c.x;
        const dy = toward.y - c.y;
        const sx = dx === 0 ? Infinity : (r.width / 2 + 4) / Math.abs(dx);
        const sy = dy === 0 ? Infinity : (r.height / 2 + 4) / Math.abs(dy);
        const s = Math.min(sx, sy);
        return { x: c.x + dx * s, y: c.y + dy * s };
      };
      const p = edge(a, ac, bc);
      const q = edge(b, bc, ac);
      const line = document.createElementNS(ns, 'line');
      Object.entries({ x1: p.x, y1: p.y, x2: q.x, y2: q.y, 'marker-end': 'url(#arrow-head)', class: dashed ? 'arrow dashed' : 'arrow' })
        .forEach(([k, v]) => line.setAttribute(k, v));
      const text = document.createElementNS(ns, 'text');
      text.setAttribute('x', (p.x + q.x) / 2);
      text.setAttribute('y', (p.y + q.y) / 2 - 6);
      text.setAttribute('text-anchor', 'middle');
      text.setAttribute('class', 'arrow-label');
      text.textContent = label;
      overlay.append(line, text);
    }
  }

  function update() {
    const s = store.pipeline;
    note.textContent = store.noPipeline
      ? 'This query server runs without `floe up`: no pipeline to show. Start `floe up` for the live map.'
      : store.pipelineError ? `Cannot reach floe: ${store.pipelineError}` : '';
    note.hidden = !note.textContent;
    for (const box of BOXES) {
      const node = nodes.get(box.id);
      const state = stateOf(s, box);
      node.dataset.state = state;
      fill(node, ...[
        el('div.box-head', {}, el('span.dot', { title: state }), el('strong', { text: box.title }),
          el('span.state', { text: state })),
        el('div.box-sub', { text: box.sub }),
        el('dl.metrics', {}, (s ? box.metrics(s) : box.metrics({})).map(([label, value, id]) => [
          el('dt', { text: label }), el('dd', { 'data-metric': id, text: value })])),
        box.spark ? sparkline(store.history[box.spark] || [], { fromZero: box.spark !== 'rows' }) : null]);
    }
    const h = store.history;
    fill(trends,
      trend('events/s into the broker', h.eventsPerSecond, s?.broker?.events_per_second, 1, PALETTE[0]),
      trend('consumer lag (events)', h.lag, s?.stream?.consumer_lag, 0, PALETTE[1]),
      trend('rows in shop.orders', h.rows, s?.table?.rows, 0, PALETTE[2], false));
    drawArrows();
  }

  const unsubscribe = subscribe(update);
  const onResize = () => drawArrows();
  window.addEventListener('resize', onResize);
  update();
  return { dispose() { unsubscribe(); window.removeEventListener('resize', onResize); } };
}
