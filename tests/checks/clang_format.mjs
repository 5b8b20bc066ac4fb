// `make format`, enforced: every C++ line changed since the commit in `.clang-format-since` must be
// as clang-format (with the repository's .clang-format) writes it. Older lines are formatted as
// they are touched, so the check never asks for a whole-tree reformat that would collide with
// work in flight. Run with node --test (a failure names each file and line range, with
// clang-format's own complaint); `node tests/checks/clang_format.mjs --fix` rewrites those lines.
// Skipped, visibly, outside a git checkout that has the base commit (a tarball, a shallow clone)
// or without clang-format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const CPP_PATHS = ['src', 'tests', 'bench', 'fuzz', 'tools'];

// The hunks of `git diff -U0` as {file, ranges: [[first, last], ...]} in new-file lines; a hunk
// that only deletes lines has no range.
export function changedRanges(diffText) {
  const files = new Map();
  let current = null;
  for (const line of diffText.split('\n')) {
    if (line.startsWith('+++ ')) {
      current = line === '+++ /dev/null' ? null : line.slice('+++ b/'.length);
      if (current && !files.has(current)) files.set(current, []);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const first = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      if (count > 0) files.get(current).push([first, first + count - 1]);
    }
  }
  return [...files].filter(([, ranges]) => ranges.length > 0).map(([file, ranges]) => ({ file, ranges }));
}

function git(args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
}

// Why the check cannot run here, or null.
function unavailable(base) {
  if (spawnSync('clang-format', ['--version']).status !== 0) return 'clang-format is not installed';
  const inside = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root, encoding: 'utf8' });
  if (inside.status !== 0 || inside.stdout.trim() !== 'true') return 'not a git checkout';
  if (spawnSync('git', ['cat-file', '-e', `${base}^{commit}`], { cwd: root }).status !== 0) {
    return `base commit ${base} is not in this clone (shallow?)`;
  }
  return null;
}

function clangFormatArgs(ranges) {
  return ranges.map(([first, last]) => `--lines=${first}:${last}`);
}

// Working tree against the base: committed and uncommitted changes alike.
function changedFiles(base) {
  const pathspecs = CPP_PATHS.flatMap((dir) => [`${dir}/*.cc`, `${dir}/*.h`]);
  return changedRanges(git(['diff', '-U0', '--no-color', '--no-ext-diff', base, '--', ...pathspecs]));
}

const base = readFileSync(join(root, '.clang-format-since'), 'utf8').trim();

if (process.argv.includes('--fix')) {
  const why = unavailable(base);
  if (why) {
    console.error(`clang_format: ${why}`);
    process.exit(2);
  }
  for (const { file, ranges } of changedFiles(base)) {
    execFileSync('clang-format', ['-i', ...clangFormatArgs(ranges), file], { cwd: root });
  }
} else {
  test('changed C++ lines are clang-formatted', (t) => {
    const why = unavailable(base);
    if (why) return t.skip(why);
    const problems = [];
    for (const { file, ranges } of changedFiles(base)) {
      const run = spawnSync('clang-format', ['--dry-run', '-Werror', ...clangFormatArgs(ranges), file], {
        cwd: root,
        encoding: 'utf8',
      });
      if (run.status !== 0) {
        const first = run.stderr.split('\n').slice(0, 6).join('\n');
        problems.push(`${file} (lines ${ranges.map((r) => r.join('-')).join(', ')}):\n${first}`);
      }
    }
    assert.deepEqual(problems, [], `not clang-formatted (run \`make format\`):\n${problems.join('\n')}`);
  });

  test('hunks are read as new-file line ranges', () => {
    const diff = [
      'diff --git a/src/a.cc b/src/a.cc',
      '--- a/src/a.cc',
      '+++ b/src/a.cc',
      '@@ -3 +3 @@ x',
      '@@ -10,2 +10,0 @@',
      '@@ -20,0 +21,4 @@',
      'diff --git a/src/gone.h b/src/gone.h',
      '--- a/src/gone.h',
      '+++ /dev/null',
      '@@ -1,5 +0,0 @@',
    ].join('\n');
    assert.deepEqual(changedRanges(diff), [{ file: 'src/a.cc', ranges: [[3, 3], [21, 24]] }]);
  });
}
