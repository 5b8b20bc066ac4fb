// Each box page's "Configuration" (what this floe up runs that box with) and "At scale" (what
// would replace it in the picture floe answers — Kafka, Spark, S3, Trino — with the exact
// settings that point the replacement at this pipeline's topics and tables). The property
// names are the projects' own: Kafka's client configs, Spark's Kafka source options, Iceberg's
// Spark catalog and S3FileIO properties, Trino's Iceberg connector and S3 file system.
import { el, num } from './dom.js';

// A code block with a caption; `lines` joined by newlines.
function block(caption, lines, id) {
  return el('figure.scale-settings', { 'data-settings': id },
    el('figcaption', { text: caption }), el('pre', {}, el('code', { text: lines.join('\n') })));
}

function seconds(ms) {
  return `${num((ms || 0) / 1000, 1)}`;
}

// [label, value] pairs of what this pipeline runs the box with.
export function configurationFacts(id, s) {
  const e = s.endpoints || {};
  const g = s.generator || {};
  const st = s.stream?.settings || {};
  switch (id) {
    case 'generator':
      return [['topic', e.topic], ['bootstrap servers', e.brokers], ['producer', 'librdkafka, acks=all, enable.idempotence=true'],
        ['target rate', g.paused ? 'paused' : `${num(g.rate)} events/s`], ['ledger', g.ledger_path]];
    case 'broker':
      return [['listener (Kafka protocol)', e.brokers], ['partitions of new topics', num(e.partitions)],
        ['schema registry', e.registry], ['authentication', e.authentication ? 'SASL SCRAM-SHA-256' : 'none (loopback)'],
        ['TLS', e.tls ? 'on' : 'off']];
    case 'stream':
      return [['reads', `topic ${e.topic} at ${e.brokers}`], ['writes', `${e.table} through ${e.catalog}`],
        ['trigger', `${seconds(st.trigger_ms)} s`], ['target file size', `${num(st.target_file_size_mb)} MB`],
        ['compaction', st.compaction ? `on, to ${num(st.compaction_target_mb)} MB` : 'off'],
        ['maintenance every', `${seconds(st.maintenance_interval_ms)} s`],
        ['exactly once by', 'floe.offsets.orders in each snapshot summary']];
    case 'storage':
      return [['warehouse', e.warehouse], ['object store', (e.warehouse || '').startsWith('s3://') ? 'S3' : 'local files']];
    case 'table':
      return [['REST catalog', e.catalog], ['backing store', e.catalog_backend], ['warehouse', e.warehouse],
        ['table', e.table], ['dead letters', `${e.table}_dlq`]];
    case 'payments':
    case 'shipments': {
      const l = (s.linked || []).find((x) => x.topic === id) || {};
      const ls = l.settings || {};
      return [['reads', `topic ${id} at ${e.brokers}`], ['writes', `${l.table} through ${e.catalog}`],
        ['trigger', `${seconds(ls.trigger_ms)} s`], ['target file size', `${num(ls.target_file_size_mb)} MB`],
        ['compaction', ls.compaction ? `on, to ${num(ls.compaction_target_mb)} MB` : 'off'],
        ['partitioned by', (ls.partition || []).join(', ') || 'nothing'],
        ['exactly once by', `floe.offsets.${id} in each snapshot summary`]];
    }
    case 'query':
      return [['Trino protocol and HTTP API', e.query_http], ['PostgreSQL wire', e.postgres],
        ['catalog it reads', e.catalog], ['freshness', 'live by default (snapshot + broker tail); SET SESSION freshness = \'snapshot\'']];
    default:
      return [];
  }
}

// floe's own flags and PyIceberg's SqlCatalog (a SQLAlchemy URL) pointed at the catalog's
// backing store; the password, if any, stays hidden.
export function backingStoreLines(backend, warehouse) {
  if (!backend) return ['unknown'];
  const sqlite = backend.startsWith('sqlite:');
  const sqlalchemy = sqlite ? `sqlite:///${backend.slice('sqlite:'.length).replace(/^\/+/, '/')}`
    : backend.replace(/^postgres(ql)?:\/\//, 'postgresql+psycopg2://');
  return [`# ${sqlite ? 'SQLite' : 'PostgreSQL'}: ${backend}`,
    `floe up --catalog-backend ${backend}`,
    `floe catalog --backend ${backend} --warehouse ${warehouse}`,
    '# PyIceberg',
    `SqlCatalog("default", uri="${sqlalchemy}", warehouse="${warehouse}")`];
}

// The replacement and its settings, as nodes.
export function atScale(id, s) {
  const e = s.endpoints || {};
  const st = s.stream?.settings || {};
  const sparkCatalog = [
    'spark.sql.extensions=org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions',
    'spark.sql.catalog.floe=org.apache.iceberg.spark.SparkCatalog',
    'spark.sql.catalog.floe.type=rest',
    `spark.sql.catalog.floe.uri=${e.catalog}`,
  ];
  const trinoCatalog = [
    '# etc/catalog/floe.properties',
    'connector.name=iceberg',
    'iceberg.catalog.type=rest',
    `iceberg.rest-catalog.uri=${e.catalog}`,
  ];
  const auth = e.authentication
    ? el('p.muted', { text: 'This pipeline requires users (--auth-file): add each client\'s credentials — SASL SCRAM-SHA-256 for Kafka clients, the catalog\'s OAuth2 client credentials or basic auth for Spark and Trino.' })
    : null;
  const loopback = el('p.muted', { text: 'Addresses are where this floe up listens; from another machine use a host name it is reachable by (start floe up with --broker-listen, --catalog-listen, --query-listen on a routable address).' });
  switch (id) {
    case 'generator':
      return [el('p', { text: 'Your order services, with any Kafka client: produce the order events (docs/orders.md) as JSON, keyed by order id, to the orders topic.' }),
        block('Kafka client settings (Java client; librdkafka takes the same names)', [
          `bootstrap.servers=${e.brokers}`, 'acks=all', 'enable.idempotence=true',
        ], 'kafka-producer'), auth, loopback];
    case 'broker':
      return [el('p', { text: 'A Kafka cluster. Create the topic with the partitions this one has, then point the stream job (and your producers) at the cluster instead of floe\'s broker.' }),
        block('the topic, with Kafka\'s tools', [
          `kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic ${e.topic} --partitions ${e.partitions} --replication-factor 3`,
        ], 'kafka-topic'),
        block('floe\'s stream job reading from Kafka', [
          `floe stream --brokers kafka-1:9092 --topic ${e.topic} --table ${e.table} --catalog ${e.catalog} --trigger ${seconds(st.trigger_ms)}s`,
        ], 'floe-stream-kafka'), auth, loopback];
    case 'stream':
      return [el('p', { text: 'Spark Structured Streaming, reading the same topic and appending to an Iceberg table through floe\'s REST catalog. Spark keeps its offsets in its checkpoint, not in a snapshot\'s floe.offsets.orders as floe\'s job does, so give it a table of its own: in a table floe\'s job made (it carries floe.source.topic), floe\'s live reads would add the broker\'s tail past the last offsets floe recorded, counting Spark\'s rows twice. Read Spark\'s table with freshness = \'snapshot\'.' }),
        block('spark-submit --conf … (the catalog)', sparkCatalog, 'spark-catalog'),
        block('the job (PySpark)', [
          'events = (spark.readStream.format("kafka")',
          `    .option("kafka.bootstrap.servers", "${e.brokers}")`,
          `    .option("subscribe", "${e.topic}")`,
          '    .option("startingOffsets", "earliest")',
          '    .load())',
          '# parse value with from_json(value, <the columns of floe.shop.orders>); with',
          '# floe.shop.orders_spark created first (same columns), append each micro-batch:',
          '(rows.writeStream.format("iceberg")',
          '    .outputMode("append")',
          `    .trigger(processingTime="${seconds(st.trigger_ms)} seconds")`,
          '    .option("checkpointLocation", "s3://bucket/checkpoints/orders")',
          '    .toTable("floe.shop.orders_spark"))',
        ], 'spark-job'),
        block('compaction, which floe\'s job does itself (Spark SQL)', [
          'CALL floe.system.rewrite_data_files(table => \'shop.orders_spark\')',
        ], 'spark-compaction'), auth, loopback];
    case 'payments':
    case 'shipments': {
      const l = (s.linked || []).find((x) => x.topic === id) || {};
      return [el('p', { text: `Spark Structured Streaming, as for the orders: the topic ${id} into a table of its own (Spark keeps its offsets in its checkpoint, floe's job in floe.offsets.${id}).` }),
        block('spark-submit --conf … (the catalog)', sparkCatalog, 'spark-catalog'),
        block('the job (PySpark)', [
          'rows = (spark.readStream.format("kafka")',
          `    .option("kafka.bootstrap.servers", "${e.brokers}")`,
          `    .option("subscribe", "${id}")`,
          '    .option("startingOffsets", "earliest")',
          '    .load())  # then from_json(value, <its columns>)',
          '(rows.writeStream.format("iceberg")',
          '    .outputMode("append")',
          `    .trigger(processingTime="${seconds(l.settings?.trigger_ms)} seconds")`,
          `    .option("checkpointLocation", "s3://bucket/checkpoints/${id}")`,
          `    .toTable("floe.${l.table || `shop.${id}`}_spark"))`,
        ], 'spark-job'), auth, loopback];
    }
    case 'storage':
      return [el('p', { text: 'S3 (or any S3-compatible store). floe\'s catalog and job take an s3:// warehouse with the standard AWS variables; Spark and Trino then read and write the same objects.' }),
        block('floe', [
          'AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… AWS_REGION=us-east-1 AWS_ENDPOINT_URL=https://s3.example.com \\',
          '  floe catalog --warehouse s3://bucket/warehouse …',
        ], 'floe-s3'),
        block('Spark (added to the catalog settings)', [
          'spark.sql.catalog.floe.io-impl=org.apache.iceberg.aws.s3.S3FileIO',
          'spark.sql.catalog.floe.s3.endpoint=https://s3.example.com',
          'spark.sql.catalog.floe.s3.path-style-access=true',
        ], 'spark-s3'),
        block('Trino (added to etc/catalog/floe.properties)', [
          'fs.native-s3.enabled=true', 's3.endpoint=https://s3.example.com', 's3.region=us-east-1',
          's3.path-style-access=true', 's3.aws-access-key=…', 's3.aws-secret-key=…',
        ], 'trino-s3')];
    case 'table':
      return [el('p', { text: 'floe\'s catalog speaks the Iceberg REST protocol, so Spark and Trino use it as they would Polaris or any REST catalog; a REST catalog of yours can replace it the same way (floe stream --catalog https://…).' }),
        block('Trino', trinoCatalog, 'trino-catalog'),
        block('Spark', sparkCatalog, 'spark-catalog'),
        el('p', { text: 'Behind the REST catalog, its backing store holds one row per table (the location of its current metadata file), in the tables of Iceberg\'s JDBC catalog and PyIceberg\'s SqlCatalog under the catalog name "default". At scale that is a PostgreSQL of yours, with its own replication; the playground moves the rows there and back while the pipeline runs.' }),
        block('the backing store', backingStoreLines(e.catalog_backend, e.warehouse), 'catalog-backend'), auth, loopback];
    case 'query':
      return [el('p', { text: 'Trino, with the Iceberg connector on floe\'s REST catalog. floe\'s query server speaks Trino\'s client protocol too, so the Trino CLI and drivers connect to either.' }),
        block('Trino', trinoCatalog, 'trino-catalog'),
        block('the Trino CLI against floe\'s query server', [
          `trino --server ${e.query_http}`, `trino> USE floe.shop;`, 'trino> SELECT count(*) FROM orders;',
        ], 'trino-cli'), auth, loopback];
    default:
      return [];
  }
}
