// The playground's strain scenarios, one click each: "small files" (a short trigger without
// compaction piles up files and slows scan planning; compaction folds them), "freshness" (how
// long until a marker event is visible to a snapshot read and to a live read), and the catalog's
// and the broker's outages (commits stall, producers buffer; both recover with nothing lost).
// The charts read the pipeline snapshot the store polls every second (docs/console.md,
// "Strains").
import { api } from './api.js';
import { chart, PALETTE } from './chart.js';
import { el, fill, num } from './dom.js';
import { jobSelect, rewire, settingsOf } from './rewire.js';
import { pollNow, store } from './store.js';

const DEFAULTS = { trigger_ms: 10000, target_file_size_mb: 128, compaction: true, compaction_target_mb: 128,
  maintenance_interval_ms: 300000 };

// A line chart of the last values of one history, newest right.
function historyChart(values, name, color, height = 170) {
  if (values.length < 2) return el('p.muted', { text: 'collecting…' });
  return chart({ kind: 'line', categories: values.map((_, i) => `${i - values.length + 1}s`),
    series: [{ name, values, color }], xName: 'seconds ago' }, { height, width: 520 });
}

// The small-files scenario runs on one job at a time: the orders' (with the scan-planning
// measure) or the payments' or shipments' (their table's file count).
export function smallFilesPanel() {
  const note = el('span.muted');
  const numbers = el('div.row');
  const charts = el('div');
  let job = 'stream job';
  let last = null;
  const select = jobSelect('small-files-job', (chosen) => {
    job = chosen;
    if (last) update(last);
  });
  const act = (label, patch) => el('button', { text: label,
    onclick: async (event) => {
      event.target.disabled = true;
      note.textContent = 'rewiring…';
      const error = await rewire(patch, job);
      event.target.disabled = false;
      note.textContent = error || `applied: ${label.toLowerCase()}`;
    } });
  const start = act('Start: 1 s trigger, compaction off', { trigger_ms: 1000, compaction: false });
  start.dataset.action = 'small-files-start';
  const compact = act('Turn compaction on (every 5 s)', { compaction: true, compaction_target_mb: 128,
    maintenance_interval_ms: 5000 });
  compact.dataset.action = 'small-files-compact';
  const reset = act('Back to the defaults', DEFAULTS);
  reset.dataset.action = 'small-files-reset';
  const panel = el('article.panel.wide', { 'data-panel': 'small-files' }, el('h2', { text: 'Strain: small files' }),
    el('p', { text: 'Every commit writes at least one data file per partition it touches, and a manifest. With a 1 s trigger and compaction off they pile up: planning a scan reads more manifests, a query opens more files. Turn compaction on and the next maintenance round rewrites the small files as few large ones (an Iceberg replace snapshot that keeps the stream\'s offsets); the file count falls. Spark would need a separate rewrite_data_files job for this.' }),
    el('div.row', {}, el('label.row', {}, 'job', select), start, compact, reset, note), numbers, charts);
  function update(snapshot) {
    last = snapshot;
    const settings = settingsOf(snapshot, job) || {};
    const mode = `trigger ${num((settings.trigger_ms || 0) / 1000, 1)} s, compaction ${settings.compaction ? 'on' : 'off'}`;
    if (job !== 'stream job') {
      const linked = (snapshot?.linked || []).find((l) => l.job === job) || {};
      fill(numbers,
        el('span', {}, `data files in ${linked.table || ''} `, el('strong', { 'data-metric': 'files', text: num(linked.files) })),
        el('span', {}, 'mean file ', el('strong', { text: `${num((linked.mean_file_bytes || 0) / 1024, 1)} KiB` })),
        el('span.muted', { text: mode }));
      fill(charts, el('div.strain-charts', {},
        historyChart(store.history.linkedFiles[linked.topic] || [], `data files in ${linked.table || ''}`, PALETTE[0])));
      return;
    }
    const table = snapshot?.table || {};
    const scan = table.scan || {};
    fill(numbers,
      el('span', {}, 'data files ', el('strong', { 'data-metric': 'files', text: num(table.files) })),
      el('span', {}, 'mean file ', el('strong', { text: `${num((table.mean_file_bytes || 0) / 1024, 1)} KiB` })),
      el('span', {}, 'manifests ', el('strong', { 'data-metric': 'manifests', text: num(scan.manifests) })),
      el('span', {}, 'scan planning ', el('strong', { 'data-metric': 'planning_ms', text: `${num(scan.planning_ms, 1)} ms` })),
      el('span.muted', { text: mode }));
    fill(charts, el('div.strain-charts', {},
      historyChart(store.history.files, 'data files', PALETTE[0]),
      historyChart(store.history.planningMillis, 'scan planning (ms)', PALETTE[1]),
      historyChart(store.history.queryMillis, 'recent query time (ms)', PALETTE[3])));
  }
  return { node: panel, update };
}

export function freshnessPanel() {
  const note = el('span.muted');
  const latest = el('div.row');
  const charts = el('div');
  const repeat = el('input', { type: 'checkbox', 'data-control': 'freshness-repeat', 'aria-label': 'keep probing' });
  let sending = false;
  let scheduled = null;  // The next probe of "keep probing", a second after the last one ended.
  let lastSent = null;   // The marker this page sent last: the next waits until a snapshot shows it done.
  const send = async () => {
    if (sending) return;
    sending = true;
    const result = await api.freshnessProbe();
    sending = false;
    note.textContent = result.error ? result.error.message : `marker ${result.event_id} sent`;
    if (result.error) repeat.checked = false;
    else lastSent = result.event_id;
    pollNow();
  };
  const probe = el('button.primary', { text: 'Send a marker', 'data-action': 'freshness-probe', onclick: send });
  const panel = el('article.panel.wide', { 'data-panel': 'freshness' }, el('h2', { text: 'Strain: freshness' }),
    el('p', { text: 'A marker event goes to the broker, and two queries look for it every 100 ms: one reads committed snapshots only (what Trino or Spark reading the Iceberg table see), the other reads live: the snapshot plus the broker\'s log past the offsets it records, decoded the same way. The snapshot read waits for the next commit, so its latency follows the trigger; the live read only for the broker. Rewire the trigger and probe again.' }),
    el('div.row', {}, probe, el('label.row', {}, repeat, 'keep probing'), note), latest, charts);
  return {
    node: panel,
    update(snapshot) {
      const freshness = snapshot?.freshness || { probes: [] };
      const probes = freshness.probes || [];
      const last = probes[probes.length - 1];
      const show = (ms) => (ms === null || ms === undefined ? 'waiting…' : `${num(ms)} ms`);
      fill(latest, last
        ? [el('span', {}, 'live ', el('strong', { 'data-metric': 'live_ms', text: show(last.live_ms) })),
          el('span', {}, 'snapshot ', el('strong', { 'data-metric': 'snapshot_ms', text: show(last.snapshot_ms) })),
          last.timed_out ? el('span.error', { text: 'gave up: not seen within 11 minutes' }) : null,
          last.error ? el('span.error', { text: last.error }) : null]
        : el('span.muted', { text: 'no marker sent yet' }));
      const done = probes.filter((p) => p.live_ms !== null || p.snapshot_ms !== null);
      fill(charts, done.length === 0 ? null : chart({ kind: 'bar', categories: done.map((_, i) => `#${i + 1}`),
        series: [{ name: 'live (ms)', values: done.map((p) => p.live_ms), color: PALETTE[2] },
          { name: 'snapshot (ms)', values: done.map((p) => p.snapshot_ms), color: PALETTE[1] }],
        xName: 'marker' }, { height: 220 }));
      // A snapshot polled before our last marker went out still says "not running": wait for
      // one that shows that marker's probe ended.
      const ours = lastSent === null || (last && last.event_id === lastSent);
      if (repeat.checked && ours && !freshness.running && !sending && scheduled === null) {
        scheduled = setTimeout(() => {
          scheduled = null;
          if (repeat.checked && panel.isConnected) send();
        }, 1000);
      }
    },
    dispose() { clearTimeout(scheduled); },
  };
}

// An outage of one role: take it down, watch two charts, bring it back. `extra`, if given, is a
// node of further controls shown under the buttons.
function outagePanel({ id, role, title, text, numbers, charts, extra = null }) {
  const note = el('span.muted');
  const live = el('div.row');
  const drawn = el('div');
  const act = (down) => async (event) => {
    event.target.disabled = true;
    note.textContent = down ? `taking the ${role} down…` : `bringing the ${role} back…`;
    const result = down ? await api.takeDown(role) : await api.bringUp(role);
    event.target.disabled = false;
    note.textContent = result.error ? result.error.message : down ? `the ${role} is down` : `the ${role} is back`;
    pollNow();
  };
  const panel = el('article.panel.wide', { 'data-panel': id }, el('h2', { text: title }), el('p', { text }),
    el('div.row', {}, el('button.danger', { text: `Take the ${role} down`, 'data-action': `${id}-start`, onclick: act(true) }),
      el('button.primary', { text: `Bring it back`, 'data-action': `${id}-end`, onclick: act(false) }), note),
    extra, live, drawn);
  return {
    node: panel,
    update(snapshot) {
      const state = (snapshot?.roles || []).find((r) => r.name === role)?.state || 'unknown';
      fill(live, el('span', {}, `${role} `, el('strong', { 'data-metric': 'state', text: state })), numbers(snapshot || {}));
      fill(drawn, el('div.strain-charts', {}, charts()));
    },
  };
}

// The catalog replica, a second catalog server on the same database: started and stopped here.
function replicaControls() {
  const REPLICA = 'catalog replica';
  const note = el('span.muted');
  const act = (up) => async (event) => {
    event.target.disabled = true;
    const result = up ? await api.bringUp(REPLICA) : await api.takeDown(REPLICA);
    event.target.disabled = false;
    note.textContent = result.error ? result.error.message : up ? 'the second catalog server runs' : 'the second catalog server is down';
    pollNow();
  };
  return el('div.row', {},
    el('button', { text: 'Start a second catalog server', 'data-action': 'catalog-replica-up', onclick: act(true) }),
    el('button', { text: 'Stop it', 'data-action': 'catalog-replica-down', onclick: act(false) }), note);
}

export function catalogOutagePanel() {
  return outagePanel({
    id: 'catalog-outage', role: 'catalog', title: 'Strain: the catalog goes down',
    text: 'Every commit is a compare-and-swap of the table\'s metadata pointer in the catalog. With the catalog down the stream job cannot commit: its commit fails and the job starts again from the offsets the table recorded, trying until the catalog answers. The time since the last commit grows and the lag piles up in the broker, where nothing is lost. Bring the catalog back and the job commits the backlog, each event once. Start a second catalog server on the same database first, and nothing stalls: every client of the pipeline lists both servers and carries on through the one that answers.',
    extra: replicaControls(),
    numbers: (s) => [
      el('span', {}, 'since the last commit ', el('strong', { 'data-metric': 'commit_age_s',
        text: s.stream?.last_commit_ms ? `${num((s.time_ms - s.stream.last_commit_ms) / 1000)} s` : '–' })),
      el('span', {}, 'consumer lag ', el('strong', { 'data-metric': 'lag', text: num(s.stream?.consumer_lag) })),
      el('span', {}, 'second catalog ', el('strong', { 'data-metric': 'replica',
        text: (s.roles || []).find((r) => r.name === 'catalog replica')?.state || 'none' }))],
    charts: () => [historyChart(store.history.commitAgeSeconds, 'seconds since the last commit', PALETTE[3]),
      historyChart(store.history.lag, 'consumer lag (events)', PALETTE[1])],
  });
}

export function brokerOutagePanel() {
  return outagePanel({
    id: 'broker-outage', role: 'broker', title: 'Strain: the broker goes down',
    text: 'With the broker down the order services\' producer keeps their events in its buffer and retries; nothing is acknowledged, so nothing is promised yet. The stream job waits. Bring the broker back (same port, same log): the buffered events are delivered, acknowledged once each (the producer is idempotent), and the job catches up.',
    numbers: (s) => [
      el('span', {}, 'waiting for acknowledgement ', el('strong', { 'data-metric': 'unacknowledged',
        text: num(Math.max(0, (s.generator?.sent || 0) - (s.generator?.acknowledged || 0))) })),
      el('span', {}, 'consumer lag ', el('strong', { 'data-metric': 'lag', text: num(s.stream?.consumer_lag) }))],
    charts: () => [historyChart(store.history.unacknowledged, 'events waiting for acknowledgement', PALETTE[4]),
      historyChart(store.history.lag, 'consumer lag (events)', PALETTE[1])],
  });
}
