// The playground: change the traffic, take boxes down and bring them back, make the storage
// misbehave, and watch the reconciliation say whether anything was lost.
import { api } from './api.js';
import { sparkline } from './chart.js';
import { catalogStorePanel } from './catalog_store.js';
import { clear, fill, el, num } from './dom.js';
import { rewirePanel } from './rewire.js';
import { pollNow, store, subscribe } from './store.js';
import { brokerOutagePanel, catalogOutagePanel, freshnessPanel, smallFilesPanel } from './strains.js';

const RECONCILE_MS = 2000;

function reconciliationView(r) {
  if (r.error) return el('p.error', { text: r.error.message });
  const valid = r.acknowledged_valid ?? 0;
  const rows = [
    ['produced', r.produced, 'messages the generator handed to its Kafka producer'],
    ['acknowledged', r.acknowledged, `by the broker (${num(r.acknowledged_valid)} valid, ${num(r.acknowledged_malformed)} malformed)`],
    ['committed', r.committed, 'rows in the table\'s current snapshot'],
    ['dead-lettered', r.dead_lettered, 'malformed events in the dead-letter table'],
    ['queryable', r.queryable, r.queryable === null || r.queryable === undefined ? 'count(*) through the query engine: not available' : 'count(*) through the query engine'],
  ];
  const state = r.state;
  if (state) {
    rows.push(['order state', state.rows, `rows in ${state.table}, one per order (${num(state.orders)} orders in the events, ${num(state.stale)} rows not their order's latest event)`]);
  }
  // The payments and shipments: each topic's acknowledged events against its own table.
  const topics = r.topics || [];
  const max = Math.max(1, ...rows.map(([, v]) => Number(v) || 0));
  const lagging = topics.find((t) => !t.equal && ((t.consumer_lag ?? 0) > 0 || (t.committed ?? 0) < (t.acknowledged_valid ?? 0)));
  const unequal = topics.find((t) => !t.equal);
  let verdict;
  let tone;
  if (r.equal) {
    verdict = state
      ? `Equal: every acknowledged event is in the table exactly once, every malformed one in the dead letters, and ${state.table} holds each order's latest event once.`
      : 'Equal: every acknowledged event is in the table exactly once, every malformed one in the dead letters.';
    if (topics.length) verdict += ` So are ${topics.map((t) => t.topic).join(' and ')}, each in its own table.`;
    tone = 'good';
  } else if ((r.consumer_lag ?? 0) > 0 || (r.committed ?? 0) < valid) {
    verdict = `Catching up: ${num(r.consumer_lag)} events still in the broker past the table's offsets.`;
    tone = 'warn';
  } else if (state && ((state.consumer_lag ?? 0) > 0 || (state.rows ?? 0) < (state.orders ?? 0))) {
    verdict = `Catching up: ${num(state.consumer_lag)} events still in the broker past ${state.table}'s offsets.`;
    tone = 'warn';
  } else if (lagging) {
    verdict = `Catching up: ${lagging.table} holds ${num(lagging.committed)} of the ${num(lagging.acknowledged_valid)} events acknowledged in topic ${lagging.topic}.`;
    tone = 'warn';
  } else if (state && !state.equal) {
    verdict = `Not equal: ${state.table} holds ${num(state.stale)} rows that are not their order's latest event, or more rows than orders.`;
    tone = 'bad';
  } else if (unequal) {
    verdict = `Not equal: ${unequal.table} holds ${num(unequal.committed)} rows (${num(unequal.queryable)} through the query engine) for ${num(unequal.acknowledged_valid)} events acknowledged in topic ${unequal.topic}.`;
    tone = 'bad';
  } else {
    verdict = 'Not equal: the table holds more than was acknowledged.';
    tone = 'bad';
  }
  const topicMax = Math.max(1, ...topics.flatMap((t) => [Number(t.acknowledged) || 0, Number(t.committed) || 0]));
  const topicRows = topics.map((t) => el('div.recon-row', { 'data-topic': t.topic, 'data-topic-equal': t.equal ? 'true' : 'false' },
    el('span.recon-name', { text: t.topic }),
    el('span.recon-bar', {}, el('i', { style: `width:${((Number(t.committed) || 0) / topicMax) * 100}%` })),
    el('span.recon-value', { text: `${num(t.committed)} / ${num(t.acknowledged_valid)}` }),
    el('span.recon-hint', { text: `rows in ${t.table} / acknowledged in topic ${t.topic}; queryable ${num(t.queryable)}, lag ${num(t.consumer_lag)}${t.equal ? ' — equal' : ''}` })));
  return el('div', {},
    el('div.recon', {}, rows.map(([name, value, hint]) => el('div.recon-row', { 'data-count': name },
      el('span.recon-name', { text: name }),
      el('span.recon-bar', {}, el('i', { style: `width:${((Number(value) || 0) / max) * 100}%` })),
      el('span.recon-value', { text: num(value) }),
      el('span.recon-hint', { text: hint })))),
    topics.length ? el('div.recon', { 'data-list': 'topics' }, topicRows) : null,
    el(`p.verdict.${tone}`, { 'data-equal': r.equal ? 'true' : 'false', text: verdict }),
    r.errors?.length ? el('p.error', { text: r.errors.join('; ') }) : null);
}

export function render(root) {
  const s0 = store.pipeline;
  const initialRate = s0?.generator?.rate ?? 200;
  const rateLabel = el('output', { text: `${num(initialRate)} events/s` });
  const slider = el('input', { type: 'range', min: 0, max: 2000, step: 10, value: initialRate, 'aria-label': 'traffic', 'data-control': 'traffic' });
  const trafficNote = el('span.muted');
  let trafficTimer = null;
  slider.addEventListener('input', () => {
    rateLabel.textContent = Number(slider.value) === 0 ? 'paused' : `${num(slider.value)} events/s`;
    clearTimeout(trafficTimer);
    trafficTimer = setTimeout(async () => {
      const result = await api.traffic(Number(slider.value));
      trafficNote.textContent = result.error ? result.error.message : '';
      pollNow();
    }, 200);
  });
  const burstSize = el('input', { type: 'number', min: 1, max: 1000000, value: 1000, 'aria-label': 'burst size' });
  const burstNote = el('span.muted');
  const burst = el('button', { 'data-action': 'burst', text: 'Burst ▸',
    onclick: async () => {
      const result = await api.burst(Number(burstSize.value));
      burstNote.textContent = result.error ? result.error.message : `sent ${num(burstSize.value)} extra events`;
    } });

  const roles = el('div.roles');
  const roleNote = el('p.muted');

  const errorRate = el('input', { type: 'range', min: 0, max: 100, step: 5, value: 0, 'aria-label': 'storage error rate' });
  const tornRate = el('input', { type: 'range', min: 0, max: 100, step: 5, value: 0, 'aria-label': 'torn write rate' });
  const latency = el('input', { type: 'number', min: 0, max: 10000, step: 10, value: 0, 'aria-label': 'storage latency' });
  const errorOut = el('output', { text: '0%' });
  const tornOut = el('output', { text: '0%' });
  errorRate.addEventListener('input', () => { errorOut.textContent = `${errorRate.value}%`; });
  tornRate.addEventListener('input', () => { tornOut.textContent = `${tornRate.value}%`; });
  const faultNote = el('span.muted');
  const applyFaults = async (clearAll) => {
    if (clearAll) {
      errorRate.value = 0; tornRate.value = 0; latency.value = 0;
      errorOut.textContent = '0%'; tornOut.textContent = '0%';
    }
    const result = await api.storageFaults({ error_rate: Number(errorRate.value) / 100,
      short_write_rate: Number(tornRate.value) / 100, latency_ms: Number(latency.value) });
    faultNote.textContent = result.error ? result.error.message : clearAll ? 'storage is healthy again' : 'faults armed';
    pollNow();
  };

  const recon = el('div', { 'data-panel': 'reconciliation' }, el('p.muted', { text: 'reading…' }));
  const rewiring = rewirePanel();
  const catalogStore = catalogStorePanel();
  const smallFiles = smallFilesPanel();
  const freshness = freshnessPanel();
  const catalogOutage = catalogOutagePanel();
  const brokerOutage = brokerOutagePanel();
  const live = el('div.live');

  root.append(el('section.page', {},
    el('div.page-head', {}, el('h1', { text: 'Playground' }),
      el('p.lead', { text: 'Turn the knobs, break things, and check that nothing is lost or counted twice.' })),
    el('div.play-grid', {},
      el('article.panel', {}, el('h2', { text: 'Traffic' }),
        el('div.row', {}, slider, rateLabel), trafficNote,
        el('div.row', {}, burstSize, burst, burstNote), live),
      el('article.panel', {}, el('h2', { text: 'Take a box down' }), roles, roleNote),
      el('article.panel', {}, el('h2', { text: 'Storage faults' }),
        el('label.row', {}, 'errors', errorRate, errorOut),
        el('label.row', {}, 'torn writes', tornRate, tornOut),
        el('label.row', {}, 'latency (ms)', latency),
        el('div.row', {}, el('button', { text: 'Apply', 'data-action': 'faults', onclick: () => applyFaults(false) }),
          el('button', { text: 'Clear', onclick: () => applyFaults(true) }), faultNote)),
      rewiring.node,
      catalogStore.node,
      el('article.panel.wide', {}, el('h2', { text: 'Reconciliation: produced vs committed vs queryable' }), recon),
      smallFiles.node,
      freshness.node,
      catalogOutage.node,
      brokerOutage.node)));

  function update() {
    const s = store.pipeline;
    rewiring.update(s);
    catalogStore.update(s);
    smallFiles.update(s);
    freshness.update(s);
    catalogOutage.update(s);
    brokerOutage.update(s);
    fill(live,
      el('div.live-row', {}, el('span', { text: 'events/s in' }), sparkline(store.history.eventsPerSecond),
        el('strong', { 'data-metric': 'events_per_second', text: num(s?.broker?.events_per_second, 1) })),
      el('div.live-row', {}, el('span', { text: 'consumer lag' }), sparkline(store.history.lag, { color: '#e0793a' }),
        el('strong', { 'data-metric': 'consumer_lag', text: num(s?.stream?.consumer_lag) })));
    clear(roles);
    if (!s) {
      roles.append(el('p.muted', { text: store.pipelineError || 'waiting for the pipeline…' }));
      return;
    }
    for (const role of s.roles || []) {
      const act = async (down) => {
        roleNote.textContent = `${down ? 'taking' : 'bringing'} the ${role.name} ${down ? 'down' : 'up'}…`;
        const result = down ? await api.takeDown(role.name) : await api.bringUp(role.name);
        roleNote.textContent = result.error ? result.error.message : '';
        pollNow();
      };
      let button = null;
      if (role.state === 'missing') button = el('span.muted', { text: 'not built yet' });
      else if (!role.can_take_down) button = el('span.muted', { text: 'serves this page' });
      else if (role.state === 'down') button = el('button.primary', { text: 'Bring up', onclick: () => act(false), 'data-action': 'bring-up' });
      else button = el('button.danger', { text: 'Take down', onclick: () => act(true), 'data-action': 'take-down' });
      roles.append(el('div.role', { 'data-role': role.name, 'data-state': role.state },
        el('span.dot'), el('strong', { text: role.name }), el('span.state', { text: role.state }), button));
    }
    if (s.processes) roleNote.textContent = 'Each box runs as its own process: taking one down kills it (SIGKILL).';
    else if (!roleNote.textContent) roleNote.textContent = 'In one process, taking a box down stops it cleanly; run floe up --processes to kill real processes.';
  }

  let timer = null;
  let disposed = false;
  async function reconcile() {
    const r = await api.reconciliation();
    if (disposed) return;
    fill(recon, reconciliationView(r));
    timer = setTimeout(reconcile, RECONCILE_MS);
  }
  reconcile();
  const unsubscribe = subscribe(update);
  update();
  return { dispose() { disposed = true; clearTimeout(timer); clearTimeout(trafficTimer); freshness.dispose(); unsubscribe(); } };
}
