#include "stream/routing_committer.h"

#include <fmt/format.h>

#include <unordered_map>

#include "base/logging.h"
#include "iceberg/schema_json.h"
#include "stream/offsets_commit.h"
#include "stream/source/confluent_frame.h"
#include "stream/table_setup.h"

namespace floe::stream {
namespace {

// Whether an error making or opening a table is the catalog's or the store's trouble (the batch
// is tried again) rather than its records' (they become dead letters).
bool IsRetryable(const Error& error) {
  switch (error.kind()) {
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kNotFound:
    case ErrorKind::kCorruption:
    case ErrorKind::kNotImplemented:
      return false;
    default:
      return true;
  }
}

// How many of a new table's records are tried, in turn, for the schema to make it with.
constexpr size_t kSchemaCandidates = 16;

}  // namespace

Result<std::unique_ptr<RoutingCommitter>> RoutingCommitter::Open(RoutingOptions options,
                                                                 std::unique_ptr<iceberg::Table> dead_letters) {
  if (!options.catalog || !options.partitions || !options.router)
    return Internal("routing needs its catalog and router");
  // A routed table's commits are appends (Stage and Publish); a transform runs inside Stage.
  if (!options.sink.key_columns.empty()) return InvalidArgument("routing cannot be combined with --mode upsert");
  options.sink.partitions = options.partitions;
  std::unique_ptr<RoutingCommitter> committer(new RoutingCommitter(std::move(options)));
  FLOE_ASSIGN_OR_RETURN(committer->dead_letters_,
                        DeadLetterTable::Open(std::move(dead_letters), committer->options_.partitions,
                                              committer->options_.sink.target_file_size_bytes));
  return committer;
}

Result<SourceOffsets> RoutingCommitter::CommittedOffsets() {
  iceberg::Table& table = dead_letters_->table();
  FLOE_RETURN_IF_ERROR(table.Refresh());
  return CurrentOffsets(table.metadata(), *options_.partitions, kJobOffsetsPrefix);
}

std::vector<catalog::TableIdentifier> RoutingCommitter::Tables() const {
  std::lock_guard lock(tables_mutex_);
  std::vector<catalog::TableIdentifier> ids;
  for (const auto& [id, committer] : tables_) ids.push_back(id);
  return ids;
}

Result<IcebergCommitter*> RoutingCommitter::TableFor(const catalog::TableIdentifier& id, const MicroBatch& batch,
                                                     const SourceRecord& first) {
  if (auto it = tables_.find(id); it != tables_.end()) return it->second.get();
  const std::string name = catalog::IdentifierToString(id);
  catalog::Catalog& catalog = *options_.catalog;
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.TableExists(id));
  if (!exists) {
    std::string schema_json = options_.schema_json;
    if (schema_json.empty()) {
      const TopicPartition where = options_.partitions->Lookup(first.partition);
      const std::string what = fmt::format("record {}[{}]@{}", where.topic, where.partition, first.offset);
      if (first.value_null) return InvalidArgument("{} has a null value: no schema to make table {} with", what, name);
      const std::string_view value = batch.value(first);
      iceberg::Schema schema;
      if (options_.sink.format != SourceFormat::kJson && LooksConfluentFramed(value)) {
        if (!options_.sink.registry) return InvalidArgument("{} is Confluent-framed but there is no --registry", what);
        FLOE_ASSIGN_OR_RETURN(schema, SchemaOfFramedValue(value, *options_.sink.registry, what));
      } else if (options_.sink.format == SourceFormat::kJson || options_.sink.format == SourceFormat::kAuto) {
        FLOE_ASSIGN_OR_RETURN_CTX(schema, SchemaOfJsonValue(value, options_.sink.timestamp_unit), what);
      } else {
        return InvalidArgument("{} is not Confluent-framed (magic byte 0 and a schema id)", what);
      }
      schema_json = iceberg::SchemaToJson(schema);
    }
    std::map<std::string, std::string> creation = options_.properties;
    if (options_.format_version != 0) creation["format-version"] = std::to_string(options_.format_version);
    FLOE_ASSIGN_OR_RETURN(bool created, EnsureTable(catalog, id, schema_json, options_.partition, creation));
    if (created) Logger("stream")->info("created table {} (first sight of its route)", name);
  }
  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(options_.catalog, id));
  FLOE_RETURN_IF_ERROR(RecordSource(*table, options_.properties, options_.unset_properties));
  if (options_.sink.with_kafka_columns) FLOE_RETURN_IF_ERROR(AddKafkaColumns(*table, name));
  FLOE_ASSIGN_OR_RETURN_CTX(auto committer, IcebergCommitter::Open(std::move(table), nullptr, options_.sink),
                            fmt::format("table {}", name));
  IcebergCommitter* opened = committer.get();
  std::lock_guard lock(tables_mutex_);
  tables_.emplace(id, std::move(committer));
  return opened;
}

Result<CommitReport> RoutingCommitter::Commit(const MicroBatch& batch, const SourceOffsets& expected,
                                              const SourceOffsets& next) {
  const std::vector<SourceRecord>& records = batch.records();
  TopicPartitionIds& ids = *options_.partitions;
  const Router& router = *options_.router;
  DeadLetters bad;

  // 1. Each record's tables. Topic routes are resolved once per partition, field routes once per value.
  std::map<catalog::TableIdentifier, std::vector<size_t>> routed;
  std::unordered_map<int32_t, RouteResult> by_partition;
  std::unordered_map<std::string, RouteResult> by_value;
  for (size_t i = 0; i < records.size(); ++i) {
    const SourceRecord& r = records[i];
    const RouteResult* route = nullptr;
    if (router.routes_by_topic()) {
      auto it = by_partition.find(r.partition);
      if (it == by_partition.end())
        it = by_partition.emplace(r.partition, router.Resolve(ids.Lookup(r.partition).topic)).first;
      route = &it->second;
    } else {
      Result<std::string> value = reader_.Read("", batch.value(r), r.value_null);
      if (!value) {
        bad.emplace_back(i, value.error().message());
        continue;
      }
      auto it = by_value.find(*value);
      if (it == by_value.end()) it = by_value.emplace(*value, router.Resolve(*value)).first;
      route = &it->second;
    }
    if (route->tables.empty()) {
      bad.emplace_back(i, route->reason);
      continue;
    }
    for (const catalog::TableIdentifier& table : route->tables) routed[table].push_back(i);
  }

  // 2. Each table's share: its records past its own offsets, decoded and written.
  struct Share {
    IcebergCommitter* committer;
    IcebergCommitter::Staged staged;
    SourceOffsets expected;
    SourceOffsets next;
  };
  std::vector<Share> shares;
  auto discard_all = [&] {
    for (const Share& share : shares) share.committer->Discard(share.staged);
  };
  for (const auto& [id, indexes] : routed) {
    Result<IcebergCommitter*> opened = std::unexpected(Error(ErrorKind::kInternal, "not tried"));
    for (size_t k = 0; k < indexes.size() && k < kSchemaCandidates; ++k) {
      opened = TableFor(id, batch, records[indexes[k]]);
      if (opened || IsRetryable(opened.error())) break;
    }
    if (!opened) {
      if (IsRetryable(opened.error())) {
        discard_all();
        return std::unexpected(
            opened.error().WithContext(fmt::format("opening table {}", catalog::IdentifierToString(id))));
      }
      const std::string reason =
          fmt::format("route: table {} cannot be made: {}", catalog::IdentifierToString(id), opened.error().message());
      for (size_t i : indexes) bad.emplace_back(i, reason);
      continue;
    }
    IcebergCommitter* committer = *opened;
    auto committed = committer->CommittedOffsets();
    if (!committed) {
      discard_all();
      return std::unexpected(committed.error());
    }
    MicroBatch share;
    std::vector<size_t> batch_index;  // Of each record of the share.
    for (size_t i : indexes) {
      const SourceRecord& r = records[i];
      if (auto it = committed->find(r.partition); it != committed->end() && r.offset < it->second) continue;
      share.AddBorrowed(r);
      batch_index.push_back(i);
    }
    if (share.empty()) continue;  // The table committed this batch before (an earlier try).
    auto staged = committer->Stage(share);
    if (!staged) {
      discard_all();
      return std::unexpected(staged.error().WithContext(fmt::format("table {}", catalog::IdentifierToString(id))));
    }
    for (auto& [index, reason] : staged->bad) bad.emplace_back(batch_index[index], std::move(reason));
    staged->bad.clear();
    Share out{.committer = committer, .staged = std::move(*staged)};
    for (const auto& [partition, start] : share.start_offsets()) {
      if (auto it = committed->find(partition); it != committed->end()) out.expected[partition] = it->second;
      out.next[partition] = next.at(partition);
    }
    shares.push_back(std::move(out));
  }

  // 3. Dead letters, before any table: a table's records below its offsets are never decoded
  // again, so their dead letters must already be in.
  CommitReport report;
  auto dead = dead_letters_->Commit(batch, bad, next);
  if (!dead) {
    discard_all();
    return std::unexpected(dead.error());
  }
  report.dead_letters = *dead;

  // 4. The tables, one commit each.
  for (size_t s = 0; s < shares.size(); ++s) {
    Share& share = shares[s];
    auto published = share.committer->Publish(std::move(share.staged), share.expected, share.next);
    if (!published) {
      for (size_t later = s + 1; later < shares.size(); ++later) shares[later].committer->Discard(shares[later].staged);
      return std::unexpected(published.error());
    }
    report.rows += published->rows;
    report.files += published->files;
    report.bytes += published->bytes;
  }

  // 5. The checkpoint: every table now holds every record of the batch routed to it.
  FLOE_RETURN_IF_ERROR_CTX(AppendWithOffsets(dead_letters_->table(), {}, ids, expected, next, kJobOffsetsPrefix),
                           "committing the job's offsets");
  if (const iceberg::Snapshot* snapshot = dead_letters_->table().metadata().CurrentSnapshot()) {
    report.snapshot_id = snapshot->snapshot_id;
  }
  return report;
}

}  // namespace floe::stream
