// A node --test reporter beside `spec` (cmake/FloeTargets.cmake): when some tests were skipped
// and none failed, it prints one line naming them, which ctest's SKIP_REGULAR_EXPRESSION turns
// into "Skipped". Never after a failure: ctest's skip match overrides the exit code.
// With FLOE_STRICT_SKIPS=1 a skip that tests/expected_skips.txt does not list fails the run
// instead (see tests/support/test_main.cc).
import { readFileSync } from 'node:fs';

function expectedSkips() {
  const text = readFileSync(new URL('../expected_skips.txt', import.meta.url), 'utf8');
  return new Set(text.split('\n').map((line) => line.split('#')[0].trim()).filter(Boolean));
}

export default async function* skipReporter(source) {
  const skipped = [];
  let failed = 0;
  for await (const event of source) {
    if (event.type === 'test:fail') failed++;
    if (event.type === 'test:pass' && event.data.skip !== undefined) skipped.push(event.data.name);
  }
  if (failed > 0 || skipped.length === 0) return;
  if (process.env.FLOE_STRICT_SKIPS === '1') {
    const expected = expectedSkips();
    const unexpected = skipped.filter((name) => !expected.has(name));
    if (unexpected.length > 0) {
      process.exitCode = 1;
      yield `floe-test: FAILED: skipped, and not listed in tests/expected_skips.txt: ${unexpected.join(', ')}\n`;
      return;
    }
  }
  yield `floe-test: ${skipped.length} tests SKIPPED: ${skipped.join(', ')}\n`;
}
