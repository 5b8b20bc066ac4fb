// The query server's JSON API (docs/http-api.md); every call resolves, never throws: failures
// come back as {error: {message}} so pages can show them in place.

async function call(method, path, body) {
  try {
    const response = await fetch(path, {
      method,
      // The server refuses state-changing calls without this type (it proves the caller is not a
      // cross-site form, which cannot send it); GETs need none.
      headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = { error: { message: `${response.status}: ${text.slice(0, 200)}` } };
    }
    if (!response.ok && !json.error) json.error = { message: `HTTP ${response.status}` };
    json.httpStatus = response.status;
    return json;
  } catch (e) {
    return { error: { message: `floe is not answering (${e.message})` }, httpStatus: 0 };
  }
}

export const api = {
  // `session`: properties for this query alone, e.g. {freshness: 'snapshot'}.
  query: (sql, session) => call('POST', '/api/query', session ? { sql, session } : { sql }),
  queries: () => call('GET', '/api/queries'),
  tables: () => call('GET', '/api/tables'),
  table: (schema, name) => call('GET', `/api/tables/${encodeURIComponent(schema)}/${encodeURIComponent(name)}`),
  pipeline: () => call('GET', '/api/pipeline'),
  reconciliation: () => call('GET', '/api/reconciliation'),
  traffic: (eventsPerSecond) => call('POST', '/api/playground/traffic', { events_per_second: eventsPerSecond }),
  burst: (events) => call('POST', '/api/playground/burst', { events }),
  takeDown: (role) => call('POST', '/api/playground/take-down', { role }),
  bringUp: (role) => call('POST', '/api/playground/bring-up', { role }),
  storageFaults: (faults) => call('POST', '/api/playground/storage-faults', faults),
  rewireStream: (settings) => call('POST', '/api/playground/stream', settings),
  catalogBackend: (backend) => call('POST', '/api/playground/catalog-backend', { backend }),
  freshnessProbe: () => call('POST', '/api/playground/freshness-probe', {}),
  logs: (box, lines) => call('GET', `/api/logs/${encodeURIComponent(box)}?lines=${lines}`),
};
