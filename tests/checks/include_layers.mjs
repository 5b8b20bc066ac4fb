// The layering of docs/ARCHITECTURE.md, checked (as Chromium's checkdeps does): every
// `#include "area/..."` in src/ must name a module the including module may depend on, as the
// table "Areas and their dependencies" lists it. The table is the single source: its first
// column names a module (an area such as `sql`, or a folder of one such as `sql/iceberg`), its
// last column the modules it may include, in backticks (`*`: any; those after "tests:" only in
// tests). A file belongs to the
// longest module path that contains it. Tests (`*_test.cc`, `testing/`) may also include test
// helpers of any module (`test_*.h`, `testing/`) and tests/support. Run with node --test; a
// violation fails naming the file, the line and the include.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export function readLayers(markdown) {
  const section = markdown.split('## Areas and their dependencies')[1]?.split('\n## ')[0];
  if (!section) throw new Error('docs/ARCHITECTURE.md has no "Areas and their dependencies" section');
  const layers = new Map();
  for (const line of section.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 3 || !cells[0].startsWith('`')) continue;
    const module = cells[0].replaceAll('`', '');
    const [always, testsOnly = ''] = cells[cells.length - 1].split('tests:');
    const names = (text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    layers.set(module, { always: new Set(names(always)), tests: new Set(names(testsOnly)) });
  }
  return layers;
}

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(h|cc)$/.test(name)) yield path;
  }
}

// The module a path inside src/ (or an included "a/b/c.h") belongs to: the longest listed prefix.
function moduleOf(path, layers) {
  const parts = path.split('/');
  for (let n = parts.length - 1; n >= 1; n--) {
    const candidate = parts.slice(0, n).join('/');
    if (layers.has(candidate)) return candidate;
  }
  return null;
}

export function violations(layers) {
  const found = [];
  const src = join(root, 'src');
  for (const file of sourceFiles(src)) {
    const path = relative(src, file);
    const from = moduleOf(path, layers);
    if (from === null) {
      found.push(`src/${path}: its area is not in docs/ARCHITECTURE.md's table`);
      continue;
    }
    const isTest = /_test\.cc$/.test(path) || path.includes('/testing/');
    const allowed = new Set([...layers.get(from).always, ...(isTest ? layers.get(from).tests : [])]);
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
      if (!m) return;
      const included = m[1];
      if (included.startsWith('support/') && isTest) return;
      const to = moduleOf(included, layers);
      if (to === null || to === from || allowed.has('*') || allowed.has(to)) return;
      if (isTest && /(^|\/)(test_[^/]*\.h|testing\/)/.test(included)) return;
      found.push(`src/${path}:${i + 1}: ${from} may not include "${included}" (${to}); docs/ARCHITECTURE.md lists ${[...allowed].join(', ') || 'nothing'}`);
    });
  }
  return found;
}

test('every #include follows the layering of docs/ARCHITECTURE.md', () => {
  const layers = readLayers(readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8'));
  assert.ok(layers.size > 10, `only ${layers.size} modules read from the table`);
  const found = violations(layers);
  assert.deepEqual(found, [], found.join('\n'));
});

test('a forbidden include is caught', () => {
  const layers = readLayers(readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8'));
  const strict = new Map(layers);
  strict.set('io', { always: new Set(['base']), tests: new Set() });  // io's real use of net becomes a violation.
  assert.ok(violations(strict).some((v) => v.includes('io may not include "net/')), 'io -> net not caught');
});
