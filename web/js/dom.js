// Small helpers to build DOM nodes and format numbers: the console's only "framework".

// el('div.box#id', {onclick}, child, ...): a tag with optional classes/id, attributes, children.
export function el(spec, attrs = {}, ...children) {
  const match = /^([a-z0-9]+)((?:[.#][\w-]+)*)$/i.exec(spec);
  const node = document.createElement(match ? match[1] : 'div');
  if (match) {
    for (const part of match[2].match(/[.#][\w-]+/g) || []) {
      if (part[0] === '.') node.classList.add(part.slice(1));
      else node.id = part.slice(1);
    }
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'text') node.textContent = value;
    else if (key === 'html') node.innerHTML = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// Replaces a node's children (nested arrays flattened, null/false skipped).
export function fill(node, ...children) {
  clear(node);
  append(node, children);
  return node;
}

export function num(value, digits = 0) {
  if (value === null || value === undefined || value === '') return '–';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function bytes(value) {
  if (value === null || value === undefined) return '–';
  let n = Number(value);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${n.toLocaleString('en-US', { maximumFractionDigits: unit ? 1 : 0 })} ${units[unit]}`;
}

export function ago(millis, now = Date.now()) {
  if (!millis) return 'never';
  const s = Math.max(0, Math.round((now - millis) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s ago`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m ago`;
}

export function time(millis) {
  if (!millis) return '–';
  return new Date(millis).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

// A key/value list: [['rows', '1,234'], ...].
export function facts(pairs) {
  return el('dl.facts', {}, pairs.map(([k, v, id]) => [el('dt', { text: k }), el('dd', id ? { 'data-fact': id } : {}, v)]));
}

// A table from column names and rows of cells (strings or nodes).
export function table(columns, rows, attrs = {}) {
  return el('table.grid', attrs,
    el('thead', {}, el('tr', {}, columns.map((c) => el('th', { text: c })))),
    el('tbody', {}, rows.map((row) => el('tr', {}, row.map((cell) => el('td', {}, cell ?? ''))))));
}
