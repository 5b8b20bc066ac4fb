// The playground's "Rewire the stream job" panel: trigger, file size, compaction, how often
// maintenance runs, the partition spec and how many workers share the topic, sent as one
// POST /api/playground/stream — to the orders' job, or with "job" to the payments' or the
// shipments' job. The job restarts with them and resumes at its table's offsets; the
// reconciliation panel beside it shows nothing was lost.
import { api } from './api.js';
import { ago, el, fill, num, table } from './dom.js';
import { pollNow, store } from './store.js';

// Each field: the setting's key, its label, the unit shown, and how the input maps to the key.
const FIELDS = [
  { key: 'trigger_ms', label: 'trigger', unit: 's', toInput: (ms) => ms / 1000, fromInput: (s) => Math.round(s * 1000), min: 0.1, max: 600, step: 0.1 },
  { key: 'target_file_size_mb', label: 'target file size', unit: 'MB', toInput: (v) => v, fromInput: (v) => v, min: 1, max: 1024, step: 1 },
  { key: 'compaction_target_mb', label: 'compaction target', unit: 'MB', toInput: (v) => v, fromInput: (v) => v, min: 1, max: 1024, step: 1 },
  { key: 'maintenance_interval_ms', label: 'maintenance every', unit: 's', toInput: (ms) => ms / 1000, fromInput: (s) => Math.round(s * 1000), min: 1, max: 3600, step: 1 },
  { key: 'workers', label: 'workers', unit: 'in one consumer group', toInput: (v) => v, fromInput: (v) => v, min: 1, max: 4, step: 1 },
];

// The jobs a playground can rewire: the orders' (the default) and each linked topic's.
export const JOBS = [
  { job: 'stream job', label: 'orders → shop.orders' },
  { job: 'payments job', label: 'payments → shop.payments' },
  { job: 'shipments job', label: 'shipments → shop.shipments' },
];

// The settings of `job` in a pipeline snapshot, or undefined.
export function settingsOf(snapshot, job) {
  if (!job || job === 'stream job') return snapshot?.stream?.settings;
  return (snapshot?.linked || []).find((l) => l.job === job)?.settings;
}

// A <select> of the jobs; `onchange` gets the chosen job's name.
export function jobSelect(control, onchange) {
  const select = el('select', { 'aria-label': 'job', 'data-control': control },
    JOBS.map((j) => el('option', { value: j.job, text: j.label })));
  select.addEventListener('change', () => onchange(select.value));
  return select;
}

// "day(ts), bucket(4, order_id)" -> ["day(ts)", "bucket(4, order_id)"]: commas inside a
// transform's parentheses belong to it.
export function partitionFields(text) {
  const fields = [];
  let depth = 0;
  let current = '';
  for (const c of text) {
    if (c === ',' && depth === 0) {
      fields.push(current);
      current = '';
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    current += c;
  }
  fields.push(current);
  return fields.map((f) => f.trim()).filter((f) => f.length > 0);
}

// The stream job's consumer group: each worker and the partitions it holds; a rebalance moves
// them when workers join or leave.
export function groupTable(group) {
  if (!group) return null;
  const members = group.members || [];
  const rebalanced = group.last_rebalance_ms ? `, the last ${ago(group.last_rebalance_ms, Date.now())}` : '';
  return el('div', {},
    el('p.muted', { text: `Consumer group ${group.name}: ${group.state || 'unknown'}, ${num(members.length)} member${members.length === 1 ? '' : 's'}, ${num(group.rebalances)} rebalance${group.rebalances === 1 ? '' : 's'} seen${rebalanced}${group.error ? ` (${group.error})` : ''}` }),
    table(['worker (client id)', 'partitions', 'member id'],
      members.map((m) => [m.client_id, m.partitions.length ? m.partitions.join(', ') : 'none', m.member_id]),
      { 'data-list': 'group-members' }));
}

export function describeSettings(settings) {
  if (!settings) return 'unknown';
  return `trigger ${num(settings.trigger_ms / 1000, 1)} s · partitioned by ${(settings.partition || []).join(', ') || 'nothing'} · ` +
    `files up to ${settings.target_file_size_mb} MB · ` +
    `compaction ${settings.compaction ? `on, to ${settings.compaction_target_mb} MB` : 'off'} · ` +
    `maintenance every ${num(settings.maintenance_interval_ms / 1000)} s · ` +
    `${settings.workers ?? 1} worker${(settings.workers ?? 1) === 1 ? '' : 's'}`;
}

// Sends `patch` to `job` (default: the orders' job) and refreshes the pipeline snapshot;
// resolves to the error message or ''.
export async function rewire(patch, job = 'stream job') {
  const result = await api.rewireStream(job === 'stream job' ? patch : { ...patch, job });
  await pollNow();
  return result.error ? result.error.message : '';
}

export function rewirePanel() {
  const current = el('p.muted', { 'data-fact': 'stream-settings' });
  const inputs = new Map();
  const rows = FIELDS.map((field) => {
    const input = el('input', { type: 'number', min: field.min, max: field.max, step: field.step,
      'aria-label': field.label, 'data-control': field.key });
    inputs.set(field.key, input);
    return el('label.row', {}, field.label, input, field.unit);
  });
  const compaction = el('input', { type: 'checkbox', 'aria-label': 'compaction', 'data-control': 'compaction' });
  const partition = el('input', { type: 'text', 'aria-label': 'partition', 'data-control': 'partition',
    placeholder: 'nothing (unpartitioned)', size: 28 });
  const note = el('span.muted');
  const groupView = el('div', { 'data-fact': 'stream-group' });
  let shown = '';  // The settings the inputs were last filled from, as JSON.
  let job = 'stream job';
  let last = null;  // The last snapshot seen.
  const select = jobSelect('rewire-job', (chosen) => {
    job = chosen;
    shown = '';
    if (last) update(last);
  });
  const fillFrom = (settings) => {
    for (const field of FIELDS) inputs.get(field.key).value = field.toInput(settings[field.key]);
    compaction.checked = settings.compaction;
    partition.value = (settings.partition || []).join(', ');
  };
  const apply = el('button.primary', { text: 'Apply', 'data-action': 'rewire',
    onclick: async () => {
      const patch = { compaction: compaction.checked, partition: partitionFields(partition.value) };
      for (const field of FIELDS) patch[field.key] = field.fromInput(Number(inputs.get(field.key).value));
      note.textContent = 'restarting the stream job…';
      apply.disabled = true;
      const error = await rewire(patch, job);
      apply.disabled = false;
      note.textContent = error || 'applied: the job resumed at its table\'s offsets';
      const settings = settingsOf(store.pipeline, job);
      if (settings) {
        fillFrom(settings);
        shown = JSON.stringify(settings);
      }
    } });
  const panel = el('article.panel', { 'data-panel': 'rewire' }, el('h2', { text: 'Rewire the stream job' }),
    el('p.muted', { text: 'Each change restarts the job between batches; it resumes at the offsets its table\'s last snapshot recorded, so no event is lost or doubled.' }),
    el('label.row', {}, 'job', select), rows, el('label.row', {}, 'compaction', compaction, 'compact small files in maintenance rounds'),
    el('label.row', {}, 'partition by', partition),
    el('p.muted', { text: 'A new partition spec is Iceberg partition evolution: files already written keep theirs; e.g. hour(ts) · day(ts), region · bucket(8, customer_id).' }),
    el('div.row', {}, apply, note), current, groupView);
  function update(snapshot) {
    last = snapshot;
    const settings = settingsOf(snapshot, job);
    current.textContent = `Now: ${describeSettings(settings)}`;
    // The consumer group is shown for the orders' job, which may run several workers.
    fill(groupView, job === 'stream job' ? groupTable(snapshot?.stream?.group) : null);
    // Follow changes made elsewhere (a scenario's button, another browser), unless the user is
    // typing in this panel.
    if (settings && JSON.stringify(settings) !== shown &&
        (!panel.contains(document.activeElement) || document.activeElement === select)) {
      fillFrom(settings);
      shown = JSON.stringify(settings);
    }
  }
  return { node: panel, update };
}
