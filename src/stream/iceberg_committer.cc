#include "stream/iceberg_committer.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

#include "base/clock.h"
#include "base/logging.h"
#include "formats/json/iceberg_fields.h"
#include "iceberg/data_files.h"
#include "iceberg/deletion_vector_file.h"
#include "iceberg/equality_deletes.h"
#include "iceberg/key_rows.h"
#include "stream/offsets_commit.h"
#include "stream/source/kafka_columns.h"
#include "stream/source/upsert_batch.h"

namespace floe::stream {

Result<SourceOffsets> OffsetsInAncestry(const iceberg::TableMetadata& metadata, std::string_view topic) {
  return OffsetsInAncestryOf(metadata, metadata.CurrentSnapshot(), topic);
}

Result<std::unique_ptr<IcebergCommitter>> IcebergCommitter::Open(std::unique_ptr<iceberg::Table> table,
                                                                  std::unique_ptr<iceberg::Table> dead_letters,
                                                                  IcebergSinkOptions options) {
  std::unique_ptr<IcebergCommitter> committer(new IcebergCommitter());
  committer->options_ = std::move(options);
  if (!committer->options_.partitions) {
    committer->options_.partitions = TopicPartitionIds::ForTopic(committer->options_.topic);
  }
  const iceberg::Schema& table_schema = table->metadata().CurrentSchema();
  const iceberg::Schema* decoded = &table_schema;
  if (committer->options_.transform) {
    if (!committer->options_.event_schema) return InvalidArgument("a transform needs the events' schema");
    decoded = &*committer->options_.event_schema;
    // The transform's rows are written as the table's: same columns, same types, same order.
    const iceberg::Schema& output = committer->options_.transform->output_schema();
    std::string mismatch;
    if (output.fields().size() != table_schema.fields().size()) {
      // Name both column lists: the count alone does not say which column to add or drop.
      auto columns = [](const iceberg::Schema& schema) {
        std::string text;
        for (const iceberg::NestedField& field : schema.fields()) {
          text += fmt::format("{}{} {}", text.empty() ? "" : ", ", field.name, field.type->ToString());
        }
        return text;
      };
      mismatch = fmt::format("the table has {} columns ({}) but the transform gives {} ({})", table_schema.fields().size(),
                             columns(table_schema), output.fields().size(), columns(output));
    }
    for (size_t i = 0; mismatch.empty() && i < output.fields().size(); ++i) {
      const iceberg::NestedField& out = output.fields()[i];
      const iceberg::NestedField& column = table_schema.fields()[i];
      if (out.name != column.name || out.type->ToString() != column.type->ToString()) {
        mismatch = fmt::format("column {} is {} {} in the table but {} {} from the transform", i + 1, column.name,
                               column.type->ToString(), out.name, out.type->ToString());
      }
      committer->output_ids_.push_back(column.id);
    }
    if (!mismatch.empty()) {
      return InvalidArgument("table {} does not match --transform: {}", table->metadata().location, mismatch);
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto fields, formats::BatchFieldsFromSchema(*decoded));
  if (committer->options_.evolve && committer->options_.transform) {
    return InvalidArgument("--evolve cannot be combined with --transform");
  }
  const size_t lanes = committer->options_.evolve ? 1 : std::max<size_t>(1, committer->options_.decode_threads);
  if (committer->options_.with_kafka_columns &&
      (committer->options_.transform || !committer->options_.key_columns.empty())) {
    return InvalidArgument("--with-kafka-columns cannot be combined with --transform or --mode upsert");
  }
  committer->table_fields_ = fields;
  if (committer->options_.format != SourceFormat::kJson &&
      (committer->options_.transform || !committer->options_.key_columns.empty())) {
    return InvalidArgument("--format {} cannot be combined with --transform or --mode upsert (JSON only, for now)",
                           SourceFormatName(committer->options_.format));
  }
  for (size_t i = 0; i < lanes; ++i) {
    DecodeLane lane;
    FLOE_ASSIGN_OR_RETURN(lane.decoder, committer->MakeDecoder(fields));
    lane.decoder->set_collect_unknown_fields(committer->options_.evolve);
    committer->lanes_.push_back(std::move(lane));
  }
  committer->pool_ = std::make_unique<ThreadPool>(lanes);
  if (dead_letters) {
    FLOE_ASSIGN_OR_RETURN(committer->dead_letters_,
                          DeadLetterTable::Open(std::move(dead_letters), committer->options_.partitions,
                                                committer->options_.target_file_size_bytes));
  } else if (!committer->options_.key_columns.empty()) {
    return InvalidArgument("a table without a dead-letter table is committed in append mode only");
  }
  committer->table_ = std::move(table);
  if (!committer->options_.key_columns.empty()) FLOE_RETURN_IF_ERROR(committer->OpenUpsert());
  return committer;
}

Result<std::unique_ptr<RecordDecoder>> IcebergCommitter::MakeDecoder(const std::vector<formats::Field>& fields) const {
  return MakeRecordDecoder({.format = options_.format,
                            .fields = options_.with_kafka_columns ? DecodedFields(fields) : fields,
                            .timestamp_unit = options_.timestamp_unit,
                            .registry = options_.registry});
}

Status IcebergCommitter::OpenUpsert() {
  if (options_.transform) return InvalidArgument("--mode upsert cannot be combined with --transform");
  if (options_.evolve) return InvalidArgument("--mode upsert cannot be combined with --evolve");
  const iceberg::Schema& schema = table_->metadata().CurrentSchema();
  std::vector<iceberg::NestedField> key_fields;
  for (const std::string& name : options_.key_columns) {
    const iceberg::NestedField* field = nullptr;
    for (const iceberg::NestedField& f : schema.fields()) {
      if (f.name == name) field = &f;
    }
    if (!field) return InvalidArgument("--key {}: the table has no top-level column '{}'", name, name);
    key_ids_.push_back(field->id);
    key_fields.push_back(*field);
  }
  std::vector<int32_t> identifiers = schema.identifier_field_ids();
  std::vector<int32_t> wanted = key_ids_;
  std::sort(identifiers.begin(), identifiers.end());
  std::sort(wanted.begin(), wanted.end());
  if (identifiers != wanted) {
    std::string names;
    for (int32_t id : schema.identifier_field_ids()) names += (names.empty() ? "" : ", ") + schema.FindColumnName(id);
    return InvalidArgument("table {} has identifier fields [{}], not the --key columns", table_->metadata().location,
                           names);
  }
  FLOE_RETURN_IF_ERROR(iceberg::CheckPartitionedByKeys(table_->metadata(), key_ids_));
  FLOE_ASSIGN_OR_RETURN(auto fields, formats::BatchFieldsFromSchema(iceberg::Schema(0, key_fields)));
  FLOE_ASSIGN_OR_RETURN(change_decoder_, ChangeDecoder::Make(options_.envelope, std::move(fields), options_.timestamp_unit));
  return OkStatus();
}

Result<CommitReport> IcebergCommitter::CommitUpsert(const MicroBatch& batch, const SourceOffsets& expected,
                                                    const SourceOffsets& next) {
  CommitReport report;
  const std::vector<SourceRecord>& records = batch.records();
  // Each record's change: the row to decode, or a key to delete.
  std::vector<KeyedRecord> keyed;
  keyed.reserve(records.size());
  for (const SourceRecord& r : records) keyed.push_back({batch.key(r), r.key == nullptr, batch.value(r), r.value_null});
  SortedChanges changes = change_decoder_->Sort(keyed);
  FLOE_ASSIGN_OR_RETURN(UpsertBatch upsert, UpsertBatch::Make(table_->metadata().CurrentSchema(), key_ids_));
  std::vector<std::pair<size_t, std::string>> decode_bad;
  FLOE_RETURN_IF_ERROR(DecodeChunks(
      batch,
      [&](formats::ColumnBatch rows, const std::vector<size_t>& record_of_row) {
        return upsert.AddRows(std::move(rows), record_of_row, &changes.bad);
      },
      &decode_bad, &changes.rows_json));
  FLOE_ASSIGN_OR_RETURN(DeletedKeys deleted, change_decoder_->DecodeDeletedKeys(changes));
  FLOE_RETURN_IF_ERROR(upsert.AddDeletes(std::move(deleted.keys), deleted.record_of_key, &changes.bad));
  std::vector<std::pair<size_t, std::string>> bad = std::move(changes.bad);
  bad.insert(bad.end(), decode_bad.begin(), decode_bad.end());
  std::sort(bad.begin(), bad.end());
  std::vector<iceberg::DataFile> files, deletes;
  auto discard = [&] {
    DeleteFiles(*table_, files);
    DeleteFiles(*table_, deletes);
  };
  {
    FLOE_ASSIGN_OR_RETURN(auto writer, iceberg::DataFileWriter::Open(
                                           *table_, {.target_file_size_bytes = options_.target_file_size_bytes}));
    for (const formats::ColumnBatch& rows : upsert.WinningRows()) {
      report.rows += static_cast<uint64_t>(rows.num_rows);
      if (Status st = writer->Write(rows); !st) {
        if (auto partial = writer->Finish()) DeleteFiles(*table_, *partial);  // Never to be committed.
        return std::unexpected(st.error());
      }
    }
    FLOE_ASSIGN_OR_RETURN(files, writer->Finish());
  }
  // v2: one equality delete of every touched key. v3: deletion vectors of the keys' previous
  // rows, found in the data files and merged with each file's current vector.
  std::vector<iceberg::DataFile> replaced_vectors;
  auto written = table_->metadata().format_version >= 3 ? DeletionVectorsOfKeys(upsert, &replaced_vectors)
                                                        : iceberg::WriteEqualityDeletes(*table_, key_ids_, upsert.TouchedKeys());
  if (!written) {
    discard();
    return std::unexpected(written.error());
  }
  deletes = std::move(*written);
  if (!bad.empty()) {
    auto dead = dead_letters_->Commit(batch, bad, next);
    if (!dead) {
      discard();
      return std::unexpected(dead.error());
    }
    report.dead_letters = *dead;
  }
  report.files = files.size() + deletes.size();
  for (const auto& file : files) report.bytes += static_cast<uint64_t>(file.file_size_in_bytes);
  for (const auto& file : deletes) report.bytes += static_cast<uint64_t>(file.file_size_in_bytes);
  table_->set_summary_function(OffsetsSummary(*options_.partitions, expected, next));
  Status status = table_->CommitRowDelta(files, deletes, replaced_vectors);
  if (!status) {
    if (status.error().kind() == ErrorKind::kConflict) discard();
    return std::unexpected(status.error());
  }
  if (const iceberg::Snapshot* snapshot = table_->metadata().CurrentSnapshot()) {
    report.snapshot_id = snapshot->snapshot_id;
  }
  return report;
}

Result<std::vector<iceberg::DataFile>> IcebergCommitter::DeletionVectorsOfKeys(
    const UpsertBatch& upsert, std::vector<iceberg::DataFile>* replaced_vectors) {
  // The rows are looked up in the newest snapshot: a vector planned on an older one would be
  // refused at commit if a concurrent compaction had replaced its file.
  FLOE_RETURN_IF_ERROR(table_->Refresh());
  FLOE_ASSIGN_OR_RETURN(std::vector<iceberg::KeyRowsInFile> found,
                        iceberg::FindKeyRows(*table_, key_ids_, upsert.TouchedKeys()));
  std::vector<iceberg::DeletionVectorUpdate> updates;
  for (iceberg::KeyRowsInFile& rows : found) {
    iceberg::DeletionVectorUpdate update{rows.data_file, std::move(rows.positions)};
    if (rows.deletion_vector) {
      FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> earlier,
                            iceberg::ReadDeletionVector(*table_, *rows.deletion_vector, rows.data_file));
      update.positions.insert(update.positions.end(), earlier.begin(), earlier.end());
      replaced_vectors->push_back(*rows.deletion_vector);
    } else if (!rows.position_delete_files.empty()) {
      // A table upgraded from v2: the file's first vector takes its position deletes over.
      FLOE_ASSIGN_OR_RETURN(
          std::vector<int64_t> earlier,
          iceberg::PositionDeletesForVector(*table_, rows.data_file, rows.position_delete_files, replaced_vectors));
      update.positions.insert(update.positions.end(), earlier.begin(), earlier.end());
    }
    updates.push_back(std::move(update));
  }
  return iceberg::WriteDeletionVectors(*table_, updates);
}

Result<SourceOffsets> IcebergCommitter::CommittedOffsets() {
  FLOE_RETURN_IF_ERROR(table_->Refresh());
  return CurrentOffsets(table_->metadata(), *options_.partitions);
}

Status IcebergCommitter::DecodeChunks(const MicroBatch& batch, const ChunkSink& sink,
                                      std::vector<std::pair<size_t, std::string>>* bad,
                                      const std::vector<std::optional<std::string_view>>* rows_json) {
  const std::vector<SourceRecord>& records = batch.records();
  const size_t chunk = std::max<size_t>(1, options_.decode_chunk_records);
  const size_t chunks = (records.size() + chunk - 1) / chunk;
  struct Decoded {
    DecodedRecords result;
    bool ready = false;  // Guarded by `mutex`.
  };
  for (int round = 0;; ++round) {
    // Lane k decodes chunks k, k + lanes, ... on the pool while this thread hands the chunks,
    // in order, to the sink (the writer) as soon as each is ready.
    std::vector<Decoded> decoded(chunks);
    std::mutex mutex;
    std::condition_variable chunk_ready;
    std::atomic<bool> cancelled = false;
    auto run_lane = [&](size_t k) {
      DecodeLane& lane = lanes_[k];
      for (size_t c = k; c < chunks && !cancelled.load(); c += lanes_.size()) {
        const size_t start = c * chunk, end = std::min(records.size(), start + chunk);
        lane.records.clear();
        for (size_t i = start; i < end; ++i) {
          if (rows_json == nullptr) {
            lane.records.push_back({batch.value(records[i]), records[i].value_null});
          } else {
            const std::optional<std::string_view>& row = (*rows_json)[i];
            lane.records.push_back({row.value_or(std::string_view()), !row.has_value()});
          }
        }
        DecodedRecords result = lane.decoder->Decode(lane.records);
        std::lock_guard lock(mutex);
        decoded[c].result = std::move(result);
        decoded[c].ready = true;
        chunk_ready.notify_all();
      }
    };
    for (size_t k = 0; k < lanes_.size(); ++k) pool_->Submit([&run_lane, k] { run_lane(k); });
    // With evolve the rows wait until the whole batch is decoded: unknown keys anywhere in it
    // change the schema they are written with.
    const bool stream_rows = !options_.evolve;
    Status status = OkStatus();
    bad->clear();
    // Hands a chunk's batches to the sink, each with the records its rows came from.
    auto hand_over = [&](DecodedRecords& result, const std::vector<size_t>& record_of_row) -> Status {
      size_t row = 0;
      for (formats::ColumnBatch& rows : result.batches) {
        const size_t n = static_cast<size_t>(rows.num_rows);
        std::vector<size_t> of_rows(record_of_row.begin() + static_cast<std::ptrdiff_t>(row),
                                    record_of_row.begin() + static_cast<std::ptrdiff_t>(row + n));
        row += n;
        if (options_.with_kafka_columns) {
          std::vector<KafkaRecordMeta> meta;
          meta.reserve(n);
          TopicPartitionIds& ids = *options_.partitions;
          std::map<int32_t, TopicPartition> where;  // Of the rows' partitions: their topics outlive `meta`.
          for (size_t i : of_rows) {
            const SourceRecord& r = records[i];
            KafkaRecordMeta m{.partition = r.partition,
                              .offset = r.offset,
                              .timestamp_millis = r.timestamp_millis,
                              .key = batch.key(r),
                              .key_null = r.key == nullptr};
            if (!ids.single_topic()) {
              auto it = where.find(r.partition);
              if (it == where.end()) it = where.emplace(r.partition, ids.Lookup(r.partition)).first;
              m.partition = it->second.partition;
              m.topic = it->second.topic;
            }
            meta.push_back(m);
          }
          FLOE_ASSIGN_OR_RETURN(rows, WithKafkaColumns(std::move(rows), table_fields_, options_.topic, meta));
        }
        FLOE_RETURN_IF_ERROR(sink(std::move(rows), of_rows));
      }
      return OkStatus();
    };
    std::vector<std::vector<size_t>> record_of_rows(chunks);
    for (size_t c = 0; c < chunks; ++c) {
      {
        std::unique_lock lock(mutex);
        chunk_ready.wait(lock, [&] { return decoded[c].ready; });
      }
      const size_t start = c * chunk, end = std::min(records.size(), start + chunk);
      // The records whose rows the chunk holds: those that decoded, in order.
      std::vector<size_t>& record_of_row = record_of_rows[c];
      size_t next_error = 0;
      const std::vector<RecordFailure>& failures = decoded[c].result.failures;
      for (size_t i = start; i < end; ++i) {
        if (next_error < failures.size() && failures[next_error].index + start == i) {
          // A record without a row decodes `null`, an error that is no dead letter.
          if (rows_json == nullptr || (*rows_json)[i].has_value()) bad->emplace_back(i, failures[next_error].reason);
          ++next_error;
          continue;
        }
        record_of_row.push_back(i);
      }
      if (stream_rows) {
        status = hand_over(decoded[c].result, record_of_row);
        if (!status) {
          cancelled = true;
          break;
        }
      }
    }
    pool_->Wait();
    FLOE_RETURN_IF_ERROR(status);
    std::map<std::string, iceberg::TypePtr> unknown;
    for (DecodeLane& lane : lanes_) unknown.merge(lane.decoder->TakeUnknownFields());
    if (stream_rows || unknown.empty() || round > 0) {
      if (!stream_rows) {
        for (size_t c = 0; c < chunks; ++c) FLOE_RETURN_IF_ERROR(hand_over(decoded[c].result, record_of_rows[c]));
      }
      return OkStatus();
    }
    // New keys: add them as optional columns (a schema commit of its own, before the batch's),
    // then decode the batch again so its rows carry them.
    std::vector<iceberg::SchemaChange> changes;
    for (const auto& [name, type] : unknown) {
      changes.push_back({.kind = iceberg::SchemaChange::Kind::kAddColumn, .column = name, .type = type,
                         .doc = "added by floe stream --evolve"});
    }
    FLOE_RETURN_IF_ERROR(table_->Refresh());
    const iceberg::Schema& current = table_->metadata().CurrentSchema();
    std::erase_if(changes, [&](const iceberg::SchemaChange& c) { return current.FindFieldByName(c.column) != nullptr; });
    if (!changes.empty()) {
      FLOE_RETURN_IF_ERROR_CTX(table_->UpdateSchema(changes), "adding columns for new event fields (--evolve)");
      std::string names;
      for (const auto& c : changes) names += (names.empty() ? "" : ", ") + c.column;
      Logger("stream")->info("evolved {}: added column(s) {}", table_->metadata().location, names);
    }
    FLOE_ASSIGN_OR_RETURN(table_fields_, formats::BatchFieldsFromSchema(table_->metadata().CurrentSchema()));
    FLOE_ASSIGN_OR_RETURN(lanes_[0].decoder, MakeDecoder(table_fields_));
    lanes_[0].decoder->set_collect_unknown_fields(true);
  }
}

Result<CommitReport> IcebergCommitter::Commit(const MicroBatch& batch, const SourceOffsets& expected,
                                              const SourceOffsets& next) {
  if (!dead_letters_) return Internal("a routed table's committer commits through its routing committer");
  if (!key_ids_.empty()) return CommitUpsert(batch, expected, next);
  FLOE_ASSIGN_OR_RETURN(Staged staged, Stage(batch));
  // Dead letters first: if the main commit then fails, the batch is read again and the dead
  // letters already committed are recognised by their offsets.
  if (!staged.bad.empty()) {
    auto dead = dead_letters_->Commit(batch, staged.bad, next);
    if (!dead) {
      Discard(staged);
      return std::unexpected(dead.error());
    }
    staged.report.dead_letters = *dead;
  }
  return Publish(std::move(staged), expected, next);
}

Result<IcebergCommitter::Staged> IcebergCommitter::Stage(const MicroBatch& batch) {
  if (!key_ids_.empty()) return Internal("upsert batches are not staged");
  Staged staged;
  CommitReport& report = staged.report;
  DeadLetters& bad = staged.bad;
  // Opened at the first rows, after any schema change evolve makes.
  std::unique_ptr<iceberg::DataFileWriter> writer;
  auto write = [&](formats::ColumnBatch rows, const std::vector<size_t>& record_of_row) -> Status {
    std::vector<formats::ColumnBatch> out;
    if (options_.transform) {
      std::vector<sql::iceberg_sql::RowFailure> failures;
      FLOE_ASSIGN_OR_RETURN(out, options_.transform->Apply(rows, &failures));
      for (const auto& failure : failures) {
        bad.emplace_back(record_of_row[static_cast<size_t>(failure.row)], "transform: " + failure.message);
      }
      for (formats::ColumnBatch& b : out) {
        for (size_t c = 0; c < b.fields.size() && c < output_ids_.size(); ++c) b.fields[c].id = output_ids_[c];
      }
    } else {
      out.push_back(std::move(rows));
    }
    if (!writer) {
      FLOE_ASSIGN_OR_RETURN(writer, iceberg::DataFileWriter::Open(*table_, {.target_file_size_bytes = options_.target_file_size_bytes}));
    }
    for (const formats::ColumnBatch& b : out) {
      report.rows += static_cast<uint64_t>(b.num_rows);
      FLOE_RETURN_IF_ERROR(writer->Write(b));
    }
    return OkStatus();
  };
  DeadLetters decode_bad;
  FLOE_RETURN_IF_ERROR(DecodeChunks(batch, write, &decode_bad));
  bad.insert(bad.end(), decode_bad.begin(), decode_bad.end());
  if (writer) {
    FLOE_ASSIGN_OR_RETURN(staged.files, writer->Finish());
  }
  report.files = staged.files.size();
  for (const auto& file : staged.files) report.bytes += static_cast<uint64_t>(file.file_size_in_bytes);
  return staged;
}

Result<CommitReport> IcebergCommitter::Publish(Staged staged, const SourceOffsets& expected,
                                               const SourceOffsets& next) {
  FLOE_RETURN_IF_ERROR(AppendWithOffsets(*table_, staged.files, *options_.partitions, expected, next));
  if (const iceberg::Snapshot* snapshot = table_->metadata().CurrentSnapshot()) {
    staged.report.snapshot_id = snapshot->snapshot_id;
  }
  return staged.report;
}

void IcebergCommitter::Discard(const Staged& staged) { DeleteFiles(*table_, staged.files); }

}  // namespace floe::stream
