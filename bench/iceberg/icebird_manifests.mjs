// The peer of iceberg_plan_bench: icebird (npm) reading every manifest of the table at
// argv[2] (served over loopback HTTP), median of 5 runs in ms. icebird has no filter pushdown,
// so this is what "planning" costs a reader that does not prune.
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
// Bench scripts live outside tests/interop, so resolve the package from there explicitly.
const { icebergMetadata, icebergManifests } =
  await import(new URL('../../tests/interop/node_modules/icebird/src/index.js', import.meta.url));

const folder = process.argv[2];
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (!path.startsWith(folder) || !existsSync(path)) return res.writeHead(404).end();
  const body = readFileSync(path);
  res.writeHead(200, { 'content-length': body.length }).end(body);
});
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const realFetch = globalThis.fetch;
globalThis.fetch = (url, init) => {
  const s = String(url);
  return realFetch(s.startsWith('file://') ? base + s.slice('file://'.length) : s, init);
};
const metadata = await icebergMetadata({ tableUrl: base + folder });
const times = [];
let files = 0;
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  const manifests = await icebergManifests(metadata);
  times.push(performance.now() - start);
  files = manifests.reduce((n, m) => n + m.entries.length, 0);
}
if (files !== 10000) throw new Error(`icebird saw ${files} entries`);
times.sort((a, b) => a - b);
console.log(times[2].toFixed(2));
server.close();
