// A node --test reporter beside `spec` (cmake/FloeTargets.cmake): when some tests were skipped
// and none failed, it prints one line naming them, which ctest's SKIP_REGULAR_EXPRESSION turns
// into "Skipped". Never after a failure: ctest's skip match overrides the exit code.
export default async function* skipReporter(source) {
  const skipped = [];
  let failed = 0;
  for await (const event of source) {
    if (event.type === 'test:fail') failed++;
    if (event.type === 'test:pass' && event.data.skip !== undefined) skipped.push(event.data.name);
  }
  if (failed === 0 && skipped.length > 0) yield `floe-test: ${skipped.length} tests SKIPPED: ${skipped.join(', ')}\n`;
}
