// RoutingCommitter: the BatchCommitter of a stream job that writes many tables (`floe stream
// --topics REGEX --table-from ... [--route FILE]`, docs/stream.md "Routing").
//
// Each batch is split by route (route.h): every table it touches gets one commit with its
// records, made on first sight when missing (from --schema, or the schema of the first record
// routed to it). Records without a route, and records a table cannot decode, go to the job's
// dead-letter table with the reason.
//
// Recovery rests on two kinds of offsets (docs/stream.md, "Routing: the recovery rule"):
// - each table's snapshot summary holds, per topic, `floe.offsets.<topic>`: every record of
//   that topic below these offsets that routes to the table is in it. A table's commit moves
//   them to the batch's end for the partitions it had records of, and is refused unless they
//   are still what this commit read; records below them are dropped from the table's share, so
//   a table never gets a record twice however often the batch is read;
// - the dead-letter table also holds the job's checkpoint, `floe.offsets.job:<topic>`,
//   committed last in every batch (no files): every table holds every record of the topic
//   below it. The job reads from the checkpoint; a crash between two tables' commits leaves the
//   checkpoint at the batch's start, the batch is read again, and the tables that had committed
//   it drop their records by their own offsets.
// The order in a batch is: stage every table's files, commit the dead letters, commit each
// table, commit the checkpoint. Used through a SerializedCommitter: one call at a time.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "catalog/catalog.h"
#include "stream/batch_committer.h"
#include "stream/dead_letter_table.h"
#include "stream/iceberg_committer.h"
#include "stream/route.h"
#include "stream/topic_partitions.h"

namespace floe::stream {

struct RoutingOptions {
  std::shared_ptr<catalog::Catalog> catalog;
  std::shared_ptr<TopicPartitionIds> partitions;
  std::shared_ptr<const Router> router;
  // Each table's committer options (format, registry, Kafka columns, evolve, sizes); `topic`
  // and `partitions` are the job's.
  IcebergSinkOptions sink;
  std::string schema_json;             // A new table's schema; empty: its first record's.
  std::vector<std::string> partition;  // A new table's partition fields.
  int format_version = 0;              // A new table's (0: the default).
  // Recorded in each table's properties (the source: brokers, format, registry, route).
  std::map<std::string, std::string> properties;
  std::vector<std::string> unset_properties;
};

class RoutingCommitter final : public BatchCommitter {
 public:
  static Result<std::unique_ptr<RoutingCommitter>> Open(RoutingOptions options,
                                                        std::unique_ptr<iceberg::Table> dead_letters);

  // The job's checkpoint (numbered by the job's partitions).
  Result<SourceOffsets> CommittedOffsets() override;
  // `expected` and `next` are the checkpoint's.
  Result<CommitReport> Commit(const MicroBatch& batch, const SourceOffsets& expected,
                              const SourceOffsets& next) override;

  // The tables written so far (for maintenance and logs). Thread-safe: maintenance asks while
  // a batch commits.
  std::vector<catalog::TableIdentifier> Tables() const;

 private:
  explicit RoutingCommitter(RoutingOptions options)
      : options_(std::move(options)), reader_(options_.router->source()) {}

  // The committer of `id`, opened (and created, from `first`'s value when there is no --schema)
  // on first sight.
  Result<IcebergCommitter*> TableFor(const catalog::TableIdentifier& id, const MicroBatch& batch,
                                     const SourceRecord& first);

  RoutingOptions options_;
  RouteValueReader reader_;
  std::unique_ptr<DeadLetterTable> dead_letters_;
  // Added to on the commit thread only; tables_mutex_ keeps Tables() apart from that.
  mutable std::mutex tables_mutex_;
  std::map<catalog::TableIdentifier, std::unique_ptr<IcebergCommitter>> tables_;
};

}  // namespace floe::stream
