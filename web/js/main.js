// The console's entry: a hash router over the pages and the connection indicator.
import { clear } from './dom.js';
import { startPolling, store, subscribe } from './store.js';
import * as map from './map.js';
import * as boxes from './boxes.js';
import * as sql from './sql.js';
import * as orders from './orders.js';
import * as playground from './playground.js';

const routes = [
  [/^#\/map$/, map.render, 'map'],
  [/^#\/box\/([\w-]+)$/, boxes.render, 'map'],
  [/^#\/sql$/, sql.render, 'sql'],
  [/^#\/orders$/, orders.render, 'orders'],
  [/^#\/playground$/, playground.render, 'playground'],
];

let current = null;

function route() {
  const hash = location.hash || '#/map';
  const page = document.getElementById('page');
  if (current?.dispose) current.dispose();
  current = null;
  clear(page);
  for (const [pattern, render, nav] of routes) {
    const match = pattern.exec(hash);
    if (!match) continue;
    for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', a.dataset.nav === nav);
    current = render(page, ...match.slice(1)) || null;
    return;
  }
  location.replace('#/map');
}

function showLink() {
  const node = document.getElementById('link-state');
  if (store.pipelineError && !store.noPipeline) {
    node.textContent = 'floe is not answering';
    node.className = 'link-state bad';
  } else if (store.noPipeline) {
    node.textContent = 'query server only (no floe up)';
    node.className = 'link-state warn';
  } else {
    node.textContent = 'live';
    node.className = 'link-state good';
  }
}

window.addEventListener('hashchange', route);
subscribe(showLink);
route();
startPolling();
