// A test folder served over loopback HTTP with byte ranges, so readers that fetch (icebird,
// hyparquet) can read tables whose locations are file:// URIs: while it runs, fetch() of a
// file:// URI under the folder is redirected to it. close() stops it and restores fetch.
import { createServer } from 'node:http';
import { statSync, createReadStream, existsSync } from 'node:fs';

export async function serveFolder(root) {
  const realFetch = globalThis.fetch;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(root) || path.includes('..') || !existsSync(path)) return res.writeHead(404).end();
    const size = statSync(path).size;
    const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Number(range[2]) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'content-length': end - start + 1,
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(path, { start, end }).pipe(res);
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  globalThis.fetch = (url, init) => {
    const s = String(url);
    return realFetch(s.startsWith('file://') ? base + s.slice('file://'.length) : s, init);
  };
  return {
    base,
    // The HTTP URL of a file:// location.
    url: location => base + location.slice('file://'.length),
    close: async () => {
      globalThis.fetch = realFetch;
      await new Promise(resolve => server.close(resolve));
    },
  };
}
