// The playground's "Catalog backing store" panel: move the catalog from SQLite to a PostgreSQL
// the user names and back (POST /api/playground/catalog-backend). floe reaches the new store
// first, then stops the catalog (commits stall as when it is taken down), moves every pointer
// row in one transaction and starts the catalog on the new store; the reconciliation beside it
// shows nothing was lost.
import { api } from './api.js';
import { ago, el, num } from './dom.js';
import { pollNow } from './store.js';

function kindName(kind) {
  return kind === 'postgresql' ? 'PostgreSQL' : 'SQLite';
}

// One line about the last switch: what moved and for how long the catalog was down, or why not.
export function switchText(last) {
  if (!last) return 'No switch yet.';
  const when = last.time_ms ? ` (${ago(last.time_ms, Date.now())})` : '';
  if (!last.ok) return `Refused${when}: ${last.error}${last.code ? ` [${last.code}]` : ''}. The catalog stayed on ${last.from}.`;
  if (last.moved === false) return `Already on ${last.to}.`;
  return `Moved${when} from ${last.from} to ${last.to}: ${num(last.tables)} tables, ${num(last.views)} views, ` +
    `${num(last.namespace_properties)} namespace properties; the catalog was down ${num(last.seconds_down, 2)} s.`;
}

export function catalogStorePanel() {
  const current = el('p', { 'data-fact': 'catalog-backend' });
  const uri = el('input', { type: 'text', size: 44, 'aria-label': 'catalog backend', 'data-control': 'catalog-backend',
    placeholder: 'postgresql://user:password@host:5432/database', autocomplete: 'off', spellcheck: 'false' });
  const note = el('p.muted', { 'data-fact': 'catalog-switch' });
  const buttons = [];
  const go = async (backend) => {
    for (const b of buttons) b.disabled = true;
    note.textContent = 'reaching the new store, then moving the catalog…';
    note.dataset.ok = '';
    const result = await api.catalogBackend(backend);
    for (const b of buttons) b.disabled = false;
    note.dataset.ok = result.error ? 'false' : 'true';
    note.textContent = result.error
      ? `${result.error.message}${result.error.code ? ` [${result.error.code}]` : ''}`
      : switchText(result.switch);
    await pollNow();
  };
  const switchButton = el('button.primary', { text: 'Switch', 'data-action': 'catalog-switch',
    onclick: () => go(uri.value) });
  const sqliteButton = el('button', { text: 'Back to SQLite', 'data-action': 'catalog-sqlite', onclick: () => go('sqlite') });
  buttons.push(switchButton, sqliteButton);
  const last = el('p.muted', { 'data-fact': 'catalog-last-switch' });
  const node = el('article.panel', { 'data-panel': 'catalog-store' }, el('h2', { text: 'Rewire the catalog\'s backing store' }),
    el('p.muted', { text: 'The catalog keeps one row per table: the location of its current metadata file. Give a PostgreSQL URI and floe reaches it first (a typo or a server that is not there changes nothing), then stops the catalog — commits stall as when it is taken down —, moves every row (namespaces, tables, views) in one transaction, removes them from the old store, and starts the catalog on the new one. A table the new store already holds at another metadata file is refused: that would be another history of it.' }),
    current,
    el('label.row', {}, 'PostgreSQL', uri),
    el('div.row', {}, switchButton, sqliteButton),
    note, last);
  return {
    node,
    update(snapshot) {
      const store = snapshot?.catalog_store;
      if (!store) return;
      current.textContent = `Now: ${kindName(store.kind)} — ${store.backend}`;
      current.dataset.kind = store.kind;
      last.textContent = `Last switch: ${switchText(store.last_switch)}`;
    },
  };
}
