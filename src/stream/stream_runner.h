// RunStream: everything `floe stream` does, so `floe up` can run the same job in-process.
//
// Opens the catalog, creates the table (from a schema and partition fields) and its dead-letter
// table `<name>_dlq` when missing, records the source in the table's properties (fresh reads
// decode the log tail the same way), and runs the StreamJob until stopped.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "base/metrics.h"
#include "base/result.h"
#include "stream/maintenance.h"
#include "stream/stream_job.h"

namespace floe::stream {

struct StreamConfig {
  std::string brokers;
  std::string topic;
  std::string table;  // NS.NAME; when routing, NS or NS.PREFIX* (route.h)
  // Routing (docs/stream.md, "Routing"): on when any of these is given. `topics` is a regex of
  // topic names (instead of `topic`); `table_from` is topic or field:NAME; `route_text` is the
  // route file's contents (`route_file` its name, for errors); `dead_letter_table` defaults to
  // NS.<PREFIX>dlq.
  std::string topics;
  std::string table_from;
  std::string route_file;
  std::string route_text;
  std::string dead_letter_table;
  std::string catalog;     // sqlite:PATH | postgresql://... | http(s)://...
  std::string warehouse;   // file:///abs | s3://bucket/prefix, for tables it creates
  std::string schema_json; // The table's Iceberg schema (JSON text), needed to create it; with a
                           // transform, the events' schema (the table's is the transform's output).
  std::string transform;   // SELECT ... FROM events [WHERE ...]; empty: events are the rows.
  bool evolve = false;     // Unknown top-level event keys become new optional columns.
  // How record values decode: json, avro (Confluent-framed, writer schemas from `registry`) or
  // auto (per record by Confluent's magic byte). With avro or auto and no schema, a missing
  // table is made from the writer's schema of the topic's first record.
  std::string format = "json";
  std::string registry;    // Schema Registry URL: http://host:port
  // Adds (to a new or existing table) and fills the Kafka metadata columns (kafka_columns.h).
  bool with_kafka_columns = false;
  // Upsert mode (docs/upserts.md): the key columns (the table's identifier fields); empty:
  // append mode. A table created in upsert mode has them required and as identifier fields.
  std::vector<std::string> key_columns;
  std::string envelope = "none";  // none | debezium (upsert mode only)
  std::vector<std::string> partition;  // "hour(ts)", ...
  // An existing table whose default spec is not `partition` gets it as its new default spec
  // (Iceberg partition evolution: files already written keep theirs). Append mode only.
  bool evolve_partition_spec = false;
  // The Iceberg format version of a table the job creates (2 or 3); 0: the default (2). An
  // existing table of a lower version is refused rather than upgraded behind its readers' back.
  int format_version = 0;
  std::string timestamp_unit = "ms";
  std::string group;       // Default: floe-stream-<NS.NAME>.
  TriggerOptions trigger;
  int64_t target_file_size_bytes = int64_t{128} << 20;
  // What compaction writes; 0: target_file_size_bytes. Apart from it so the playground can show
  // small appends folded into larger files without changing what each batch writes.
  int64_t compaction_target_file_size_bytes = 0;
  std::map<std::string, std::string> consumer_config;  // Extra librdkafka settings.
  MaintenanceOptions maintenance;                      // Its target file size is set from the two above.
};

// Runs until `*stop` becomes true (checked between batches and while polling), or until the
// trigger's own limits end it. `stop` may be null (run until the trigger's limits).
Status RunStream(const StreamConfig& config, MetricsRegistry& metrics, const std::atomic<bool>* stop = nullptr);

}  // namespace floe::stream
