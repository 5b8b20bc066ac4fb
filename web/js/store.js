// What every page reads: the last /api/pipeline snapshot (polled once a second), a short
// history of its numbers for sparklines, and the recent queries (for the query engine's box).
import { api } from './api.js';

const HISTORY = 90;

export const store = {
  pipeline: null,       // The last snapshot, or null.
  pipelineError: null,  // Why the last poll failed.
  noPipeline: false,    // `floe query` alone: no /api/pipeline.
  queries: null,        // The last /api/queries answer.
  history: { eventsPerSecond: [], lag: [], rows: [], queryMillis: [], files: [], planningMillis: [],
    commitAgeSeconds: [], unacknowledged: [], linkedFiles: {} },
  listeners: new Set(),
};

export function subscribe(listener) {
  store.listeners.add(listener);
  return () => store.listeners.delete(listener);
}

function push(list, value) {
  list.push(value);
  if (list.length > HISTORY) list.shift();
}

function notify() {
  for (const listener of [...store.listeners]) {
    try {
      listener(store);
    } catch (e) {
      // A page that cannot draw one update must not stop the others.
      console.warn('console page update failed', e);
    }
  }
}

// Mean elapsed time of the recent finished queries, in ms.
export function recentQueryMillis(queries) {
  const done = (queries?.queries || []).filter((q) => q.state === 'FINISHED').slice(0, 20);
  if (done.length === 0) return null;
  return done.reduce((sum, q) => sum + (q.elapsedMillis || 0), 0) / done.length;
}

async function pollPipeline() {
  const snapshot = await api.pipeline();
  if (snapshot.error) {
    store.pipelineError = snapshot.error.message;
    store.noPipeline = snapshot.httpStatus === 404;
  } else {
    store.pipeline = snapshot;
    store.pipelineError = null;
    store.noPipeline = false;
    push(store.history.eventsPerSecond, snapshot.broker?.events_per_second || 0);
    push(store.history.lag, snapshot.stream?.consumer_lag || 0);
    push(store.history.rows, snapshot.table?.rows || 0);
    push(store.history.files, snapshot.table?.files || 0);
    push(store.history.planningMillis, snapshot.table?.scan?.planning_ms || 0);
    for (const linked of snapshot.linked || []) {
      store.history.linkedFiles[linked.topic] ||= [];
      push(store.history.linkedFiles[linked.topic], linked.files || 0);
    }
    const lastCommit = snapshot.stream?.last_commit_ms;
    push(store.history.commitAgeSeconds, lastCommit ? Math.max(0, (snapshot.time_ms - lastCommit) / 1000) : 0);
    push(store.history.unacknowledged, Math.max(0, (snapshot.generator?.sent || 0) - (snapshot.generator?.acknowledged || 0)));
  }
  notify();
  setTimeout(pollPipeline, store.noPipeline ? 30000 : 1000);
}

async function pollQueries() {
  const queries = await api.queries();
  if (!queries.error) {
    store.queries = queries;
    const millis = recentQueryMillis(queries);
    if (millis !== null) push(store.history.queryMillis, millis);
  }
  setTimeout(pollQueries, 3000);
}

export function startPolling() {
  pollPipeline();
  pollQueries();
}

export function pollNow() {
  return api.pipeline().then((snapshot) => {
    if (!snapshot.error) store.pipeline = snapshot;
    notify();
  });
}
