// One page per box of the map: what that part of the pipeline holds and does right now.
import { api } from './api.js';
import { ago, bytes, clear, fill, el, facts, num, table, time } from './dom.js';
import { sparkline } from './chart.js';
import { atScale, configurationFacts } from './at_scale.js';
import { describeSettings, groupTable } from './rewire.js';
import { BOXES, linkedOf, roleOf, stateOf } from './map.js';
import { pollNow, store, subscribe } from './store.js';

const TABLE = { schema: 'shop', name: 'orders' };

function roleControls(box, s) {
  if (!box.role || !s) return null;
  const role = roleOf(s, box.role);
  if (!role) return null;
  const message = el('span.muted');
  const act = async (verb) => {
    message.textContent = verb === 'down' ? 'taking it down…' : 'bringing it up…';
    const result = verb === 'down' ? await api.takeDown(role.name) : await api.bringUp(role.name);
    message.textContent = result.error ? result.error.message : '';
    pollNow();
  };
  if (!role.can_take_down) return el('div.controls', {}, el('span.muted', { text: role.describe }));
  return el('div.controls', {},
    role.state === 'down'
      ? el('button.primary', { onclick: () => act('up'), 'data-action': 'bring-up', text: `Bring the ${role.name} up` })
      : el('button.danger', { onclick: () => act('down'), 'data-action': 'take-down', text: `Take the ${role.name} down` }),
    message);
}

const sections = {
  generator(s) {
    const g = s.generator || {};
    return [
      facts([
        ['state', g.state], ['target rate', g.paused ? 'paused (bursts only)' : `${num(g.rate)} events/s`],
        ['sent', num(g.sent), 'sent'], ['acknowledged', num(g.acknowledged), 'acknowledged'],
        ['of which valid', num(g.acknowledged_valid)], ['of which malformed (dead letters)', num(g.acknowledged_malformed)],
        ['failed deliveries', num(g.failed)], ['topic', g.topic], ['ledger', g.ledger_path],
        // The payments and shipments it sends beside the orders, each topic counted apart.
        ...Object.entries(g.topics || {}).map(([topic, t]) => [`topic ${topic}: acknowledged`,
          `${num(t.acknowledged)}${t.failed ? ` (${num(t.failed)} failed)` : ''}`, `acknowledged_${topic}`]),
      ]),
      el('p.muted', {}, 'Change the rate or send a burst in the ', el('a', { href: '#/playground', text: 'playground' }), '.'),
    ];
  },
  broker(s) {
    const b = s.broker || {};
    const lag = s.stream?.lag_by_partition || {};
    return [
      facts([['state', b.up ? 'answering' : `not answering${b.error ? `: ${b.error}` : ''}`],
        ['bootstrap', b.bootstrap], ['events/s in', num(b.events_per_second, 1), 'events_per_second']]),
      el('h2', { text: 'Events in per second' }), spark('eventsPerSecond'),
      ...(b.topics || []).map((t) => [
        el('h2', { text: `Topic ${t.name}` }),
        table(['partition', 'start offset', 'end offset', 'records', t.name === s.stream?.topic ? 'behind the table' : ''],
          t.partitions.map((p) => [String(p.partition), num(p.start_offset), num(p.end_offset),
            num(p.end_offset - p.start_offset), t.name === s.stream?.topic ? num(lag[p.partition]) : '']),
          { 'data-topic': t.name }),
      ]),
    ];
  },
  stream(s) {
    const st = s.stream || {};
    return [
      facts([
        ['topic → table', `${st.topic} → ${st.table}`], ['consumer lag', num(st.consumer_lag), 'consumer_lag'],
        ['last commit', st.last_commit_ms ? `${time(st.last_commit_ms)} (${ago(st.last_commit_ms, s.time_ms)})` : 'none yet'],
        ['last snapshot', st.last_snapshot_id ?? '–'], ['batches committed (this run)', num(st.batches), 'batches'],
        ['records read', num(st.records_in)], ['rows committed', num(st.rows_committed)],
        ['dead letters', num(st.dead_letters)], ['commit conflicts', num(st.conflicts)],
        ['mean commit time', st.commit_seconds_mean ? `${num(st.commit_seconds_mean * 1000, 1)} ms` : '–'],
      ]),
      el('h2', { text: 'Workers' }), groupTable(st.group),
      el('h2', { text: 'Consumer lag' }), spark('lag'),
      el('h2', { text: 'Committed offsets (from the table\'s snapshot summary)' }),
      table(['partition', 'next offset in the table', 'behind'],
        Object.keys(st.committed_offsets || {}).map((p) => [p, num(st.committed_offsets[p]), num(st.lag_by_partition?.[p])])),
      el('h2', { text: 'Commits' }),
      table(['snapshot', 'time', 'operation', 'rows added', 'files added', 'bytes added', 'rows in table'],
        (st.commits || []).map((c) => [String(c.snapshot_id), time(c.timestamp_ms), c.operation, num(c.added_records),
          num(c.added_files), bytes(c.added_bytes), num(c.total_records)]), { 'data-list': 'commits' }),
    ];
  },
  storage(s) {
    const st = s.storage || {};
    const f = st.faults || {};
    return [
      facts([['warehouse', st.warehouse], ['used', bytes(st.bytes), 'bytes'], ['objects', num(st.objects)],
        ['data files', `${num(st.data_objects)} (${bytes(st.data_bytes)})`],
        ['metadata files', `${num(st.metadata_objects)} (${bytes(st.metadata_bytes)})`],
        ['faults', `errors ${Math.round((f.error_rate || 0) * 100)}%, torn writes ${Math.round((f.short_write_rate || 0) * 100)}%, latency ${num(f.latency_ms)} ms`],
        ['faults fired', num(f.faults_fired)], ['stores watched', num(f.stores)]]),
      el('p.muted', {}, 'Inject storage faults in the ', el('a', { href: '#/playground', text: 'playground' }), '.'),
    ];
  },
  table(s) {
    const t = s.table || {};
    return [
      facts([['table', t.name], ['location', t.location], ['format version', t.format_version],
        ['current snapshot', t.snapshot_id ?? '–'], ['snapshots', num(t.snapshots)], ['rows', num(t.rows), 'rows'],
        ['data files', num(t.files), 'files'], ['mean file size', bytes(t.mean_file_bytes)], ['total size', bytes(t.bytes)],
        ['dead letters', `${num(t.dead_letter_rows)} rows in ${t.dead_letter_table}`], ['metadata', t.metadata_location]]),
      el('h2', { text: 'Rows' }), spark('rows'),
    ];
  },
  payments: (s) => linkedSection(s, 'payments'),
  shipments: (s) => linkedSection(s, 'shipments'),
  query() {
    const q = store.queries;
    return [
      facts([['running', num(q?.running)], ['queued', num(q?.queued)]]),
      el('h2', { text: 'Mean latency of recent queries (ms)' }), spark('queryMillis'),
      el('h2', { text: 'Query history' }),
      table(['id', 'state', 'protocol', 'created', 'elapsed', 'rows', 'sql'],
        (q?.queries || []).slice(0, 50).map((x) => [x.id, x.state, x.protocol, x.created, `${num(x.elapsedMillis)} ms`,
          num(x.rows), el('code', { text: x.error ? `${x.sql}  — ${x.error.message}` : x.sql })]),
        { 'data-list': 'queries' }),
    ];
  },
};

// A linked topic's job and table: what it holds, how far behind the broker it is, its settings.
function linkedSection(s, topicName) {
  const l = linkedOf(s, topicName);
  return [
    facts([['topic → table', `${topicName} → ${l.table || `shop.${topicName}`}`],
      ['consumer lag', num(l.consumer_lag), 'consumer_lag'],
      ['last commit', l.last_commit_ms ? `${time(l.last_commit_ms)} (${ago(l.last_commit_ms, s.time_ms)})` : 'none yet'],
      ['current snapshot', l.snapshot_id ?? '–'], ['snapshots', num(l.snapshots)], ['rows', num(l.rows), 'rows'],
      ['data files', num(l.files), 'files'], ['mean file size', bytes(l.mean_file_bytes)], ['location', l.location],
      ['settings', describeSettings(l.settings)],
      ...(l.error ? [['error', l.error]] : [])]),
    el('p.muted', {}, 'Rewire this job or pile up its small files in the ', el('a', { href: '#/playground', text: 'playground' }), '.'),
  ];
}

function spark(name) {
  return el('div.spark-wide', {}, sparkline(store.history[name] || [], { width: 600, height: 60, fromZero: name !== 'rows' }));
}

// The table page's detail, read through the query server's SQL metadata tables.
function tableDetail(holder) {
  const load = async () => {
    fill(holder, el('p.muted', { text: 'reading the table\'s metadata…' }));
    const t = await api.table(TABLE.schema, TABLE.name);
    clear(holder);
    if (t.error) {
      holder.append(el('p.error', { text: `schema, snapshots and files: ${t.error.message}` }));
      const fields = store.pipeline?.table?.schema || [];
      if (fields.length) {
        holder.append(el('h2', { text: 'Schema (from the catalog)' }),
          table(['id', 'name', 'type', 'required'], fields.map((f) => [String(f.id), f.name, f.type, f.required ? 'yes' : 'no'])));
      }
      return;
    }
    fill(holder,
      el('h2', { text: 'Schema' }),
      table(['field id', 'name', 'type', 'nullable'], (t.columns || []).map((c) => [String(c.field_id ?? ''), c.name, c.type,
        c.nullable ? 'yes' : 'no']), { 'data-list': 'schema' }),
      el('p.muted', { text: `Partitioned by ${(t.partition_columns || []).join(', ') || 'nothing'}.` }),
      objects('Snapshots', t.snapshots, 20, 'snapshots'),
      objects('Partitions', t.partitions, 50, 'partitions'),
      objects('Files', t.files, 50, 'files'));
    if (t.errors) holder.append(el('p.error', { text: Object.entries(t.errors).map(([k, v]) => `${k}: ${v}`).join('; ') }));
  };
  load();
  return el('button', { onclick: load, text: 'Reload' });
}

// A list of JSON objects as a table (the metadata tables), `limit` rows shown.
function objects(title, list, limit, id) {
  if (!Array.isArray(list)) return null;
  const columns = [...new Set(list.flatMap((o) => Object.keys(o)))].filter((c) => !/bounds|_counts$|sizes$|key_metadata|split_offsets/.test(c));
  const cell = (v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return [el('h2', { text: `${title} (${list.length}${list.length > limit ? `, first ${limit} shown` : ''})` }),
    el('div.scroll', {}, table(columns, list.slice(0, limit).map((o) => columns.map((c) => cell(o[c]))), { 'data-list': id }))];
}

const LOG_LINES = 100;
const LOG_MS = 3000;

// The newest lines the roles behind the box logged, refreshed while the page is open; the view
// stays at the bottom unless the reader scrolled up.
function logPanel(id) {
  const list = el('pre.log', { 'data-log': id });
  const note = el('p.muted');
  const holder = el('div', { 'data-section': 'log' }, el('h2', { text: 'Log' }), note, list);
  let timer = null;
  let stopped = false;
  async function refresh() {
    const answer = await api.logs(id, LOG_LINES);
    if (stopped) return;
    if (answer.error) {
      note.textContent = answer.error.message;
    } else {
      note.textContent = answer.lines.length === 0
        ? (id === 'storage' ? 'The object store has no role of its own: its faults and failures show in the stream job\'s and catalog\'s logs.' : 'No lines yet.')
        : `The newest ${answer.lines.length} lines, ${answer.source === 'files' ? `from ${answer.files.join(' and ')} in the data folder's logs/` : `of ${answer.components.join(', ')} in this process`}.`;
      const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
      fill(list, answer.lines.map((line) => el('span', {
        'data-level': (/^\S+ (warning|error|critical)\b/.exec(line) || [])[1] || 'info', text: `${line}\n`,
      })));
      if (atBottom) list.scrollTop = list.scrollHeight;
    }
    timer = setTimeout(refresh, LOG_MS);
  }
  refresh();
  return { holder, dispose: () => { stopped = true; clearTimeout(timer); } };
}

export function render(root, id) {
  const box = BOXES.find((b) => b.id === id);
  if (!box) {
    root.append(el('section.page', {}, el('p.error', { text: `No box named ${id}.` }), el('a', { href: '#/map', text: '← pipeline' })));
    return null;
  }
  const head = el('div.page-head');
  const body = el('div.box-page', { 'data-page': id });
  const extra = el('div');
  // Drawn again only when what it shows changes, so its settings can be selected and copied.
  const scale = el('div.at-scale', { 'data-section': 'at-scale' });
  let scaleShown = '';
  let reload = null;
  if (id === 'table') reload = tableDetail(extra);
  const log = logPanel(id);
  root.append(el('section.page', {}, head, body, scale, extra, log.holder));

  function update() {
    const s = store.pipeline;
    const state = stateOf(s, box);
    const role = box.role && s ? roleOf(s, box.role) : null;
    fill(head,
      el('a.back', { href: '#/map', text: '← pipeline' }),
      el('h1', {}, el('span.dot', { 'data-state': state }), box.title, el('span.state', { text: state })),
      el('p.lead', { text: role?.describe || box.sub }),
      roleControls(box, s), reload);
    clear(body);
    if (!s && id !== 'query') {
      body.append(el('p.muted', { text: store.pipelineError || 'waiting for the first numbers…' }));
      return;
    }
    fill(body, sections[id](s || {}));
    const shown = JSON.stringify([s?.endpoints, s?.stream?.settings, s?.generator?.rate, s?.generator?.paused,
      (s?.linked || []).map((l) => l.settings)]);
    if (s?.endpoints && shown !== scaleShown) {
      scaleShown = shown;
      fill(scale,
        el('h2', { text: 'Configuration' }), facts(configurationFacts(id, s)),
        el('h2', { text: 'At scale' }), atScale(id, s));
    }
  }
  const unsubscribe = subscribe(update);
  update();
  return { dispose: () => { unsubscribe(); log.dispose(); } };
}

