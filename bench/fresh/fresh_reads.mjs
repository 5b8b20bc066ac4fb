// Fresh reads, end to end: `floe up --trigger 30s` with the generator at a fixed rate; a probe
// producer (kafkajs, acks=all) sends marker orders and a PostgreSQL client (pg) polls until
// each is visible. The time from the broker's acknowledgement to the first query that counts
// the marker is measured with freshness = live and beside it with freshness = snapshot, by a
// point lookup of the markers' ids and by a dashboard aggregate over the whole table (count by
// region). A marker never seen within the limit counts as infinitely late in the percentiles.
// Usage: node fresh_reads.mjs FLOE_BIN RATE LIVE_SAMPLES SNAPSHOT_SAMPLES AGGREGATE_SAMPLES
import { require, sleep, startFloeUp } from '../support/floe_up.mjs';

const { Kafka, logLevel } = require('kafkajs');

const [floe, rateArg, liveArg, snapshotArg, aggregateArg] = process.argv.slice(2);
const rate = Number(rateArg ?? 50000);
const liveSamples = Number(liveArg ?? 1000);
const snapshotSamples = Number(snapshotArg ?? 20);
const aggregateSamples = Number(aggregateArg ?? 100);

const percentile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };

const up = await startFloeUp(floe, { rate, trigger: '30s' });
const client = up.client;
const kafka = new Kafka({ brokers: up.brokers, logLevel: logLevel.NOTHING });
const producer = kafka.producer({ allowAutoTopicCreation: false });
try {
  await producer.connect();
  // Let the pipeline reach a steady state: the generator running, a first commit behind it.
  await sleep(5000);

  // A point-lookup marker has region 'bench'; an aggregate marker a region of its own, which
  // the dashboard query finds among its groups.
  const marker = (id, region) => JSON.stringify({ event_id: id, ts: new Date().toISOString(), type: 'created', order_id: 1,
    customer_id: 1, region, items: 1, amount: 1.5, currency: 'EUR' });
  const lookup = async (ids) => {
    const list = ids.map((id) => `'${id}'`).join(', ');
    const r = await client.query(`SELECT event_id FROM shop.orders WHERE region = 'bench' AND event_id IN (${list})`);
    return new Set(r.rows.map((row) => row.event_id));
  };
  const dashboard = async () => {
    const r = await client.query('SELECT region, count(*) FROM shop.orders GROUP BY region');
    return new Set(r.rows.map((row) => row.region));
  };
  // Sends `count` markers `spacing` ms apart and polls until each is visible (or `limit` ms).
  async function measure(mode, count, spacing, limit, aggregate = false) {
    await client.query(`SET freshness = '${mode}'`);
    const acked = new Map();
    const seen = new Map();
    let sendError;
    const sending = (async () => {
      for (let i = 0; i < count; ++i) {
        const id = `bench-${mode}-${aggregate ? 'agg' : 'get'}-${i}-${Date.now()}`;
        await producer.send({ topic: 'orders', acks: -1, messages: [{ key: id, value: marker(id, aggregate ? id : 'bench') }] });
        acked.set(id, performance.now());
        await sleep(spacing);
      }
    })().catch((e) => { sendError = e; });
    const started = performance.now();
    while ((seen.size < count || acked.size < count) && performance.now() - started < limit) {
      const waiting = [...acked.keys()].filter((id) => !seen.has(id));
      if (waiting.length > 0) {
        const found = aggregate ? new Set([...(await dashboard())].filter((region) => acked.has(region))) : await lookup(waiting);
        const now = performance.now();
        for (const id of found) seen.set(id, now - acked.get(id));
      } else {
        await sleep(5);
      }
    }
    await sending;
    if (sendError) throw sendError;
    // A marker never seen is infinitely late: it stays in the percentiles rather than dropping out.
    const latencies = [...seen.values(), ...Array(count - seen.size).fill(Infinity)];
    return { samples: seen.size, missing: count - seen.size,
             p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: Math.max(...latencies) };
  }
  const hw = async () => {
    const admin = kafka.admin(); await admin.connect();
    const offsets = await admin.fetchTopicOffsets('orders'); await admin.disconnect();
    return offsets.reduce((s, o) => s + Number(o.high), 0);
  };
  const before = await hw(); const t0 = performance.now();
  const live = await measure('live', liveSamples, 50, 180000);
  const liveAggregate = await measure('live', aggregateSamples, 200, 120000, true);
  const snapshot = await measure('snapshot', snapshotSamples, 3000, 180000);
  const achieved = ((await hw()) - before) / ((performance.now() - t0) / 1000);
  const fmt = (r) => `p50 ${r.p50?.toFixed(0)} ms, p99 ${r.p99?.toFixed(0)} ms, max ${r.max?.toFixed(0)} ms (${r.samples} markers, ${r.missing} not seen)`;
  console.log(`generator asked ${rate} ev/s, broker took ${achieved.toFixed(0)} ev/s during the run`);
  console.log(`ack -> visible, freshness live, point lookup:        ${fmt(live)}`);
  console.log(`ack -> visible, freshness live, dashboard aggregate: ${fmt(liveAggregate)}`);
  console.log(`ack -> visible, freshness snapshot, point lookup:    ${fmt(snapshot)}`);
  console.log(`live/snapshot p99 ratio: ${(live.p99 / snapshot.p99).toFixed(3)} (target: live p99 <= 1000 ms)`);
} finally {
  await producer.disconnect().catch(() => {});
  await up.stop();
}
