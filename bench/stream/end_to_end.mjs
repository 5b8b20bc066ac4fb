// End to end under `floe up`: the generator at RATE events/s into the broker, the stream job
// into shop.orders. Every 5 s: the events the broker holds (high watermarks, kafkajs) and the
// rows committed to the table (PostgreSQL wire, freshness snapshot). Prints the rates and the
// lag (held - committed) at the start and the end of the window: a lag that does not grow means
// the job keeps up.   node end_to_end.mjs FLOE_BIN RATE SECONDS
import { require, sleep, startFloeUp } from '../support/floe_up.mjs';

const { Kafka, logLevel } = require('kafkajs');

const [floe, rateArg, secondsArg] = process.argv.slice(2);
const rate = Number(rateArg ?? 200000);
const seconds = Number(secondsArg ?? 40);
const up = await startFloeUp(floe, { rate, trigger: '5s' });
const client = up.client;
const kafka = new Kafka({ brokers: up.brokers, logLevel: logLevel.NOTHING });
const admin = kafka.admin();
try {
  await client.query("SET freshness = 'snapshot'");
  await admin.connect();
  const sample = async () => {
    const offsets = await admin.fetchTopicOffsets('orders');
    const held = offsets.reduce((s, o) => s + Number(o.high), 0);
    const r = await client.query('SELECT count(*) AS n FROM shop.orders');
    return { t: performance.now() / 1000, held, committed: Number(r.rows[0].n) };
  };
  await sleep(10000);  // Warm up: the generator at speed, a first commit behind it.
  const samples = [await sample()];
  // Sampled every second: the lag saws by a whole batch at each commit, and samples as far
  // apart as a few commits alias that sawtooth into a trend that is not there.
  while (samples.at(-1).t - samples[0].t < seconds) {
    await sleep(1000);
    samples.push(await sample());
  }
  const [a, b] = [samples[0], samples.at(-1)];
  const span = b.t - a.t;
  const lags = samples.map((s) => s.held - s.committed);
  console.log(`end to end, generator asked ${rate} ev/s for ${span.toFixed(0)} s: broker took ${((b.held - a.held) / span).toFixed(0)} ev/s, ` +
              `table gained ${((b.committed - a.committed) / span).toFixed(0)} rows/s`);
  // The lag saws with each commit; its trend is the least-squares slope over the window.
  const ts = samples.map((x) => x.t);
  const mt = ts.reduce((x, y) => x + y, 0) / ts.length;
  const ml = lags.reduce((x, y) => x + y, 0) / lags.length;
  const slope = ts.reduce((acc, t, i) => acc + (t - mt) * (lags[i] - ml), 0) / ts.reduce((acc, t) => acc + (t - mt) ** 2, 0);
  const every5 = lags.filter((_, i) => i % 5 === 0);
  console.log(`  lag (held - committed) every 5 s: ${every5.join(' ')}; max ${Math.max(...lags)}; trend ${slope.toFixed(0)} ev/s ` +
              `(${slope < 0.01 * rate ? 'not growing' : 'GROWING'}: under 1% of the rate counts as steady)`);
} finally {
  await admin.disconnect().catch(() => {});
  await up.stop();
}
