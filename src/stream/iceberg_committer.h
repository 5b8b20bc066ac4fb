// IcebergCommitter: the stream job's BatchCommitter for Iceberg tables.
//
// Decodes each record's JSON into the table's schema (the same decoder as `floe parquet
// write`), writes Parquet data files through the partitioned fanout writer, and fast-appends
// them as one snapshot whose summary carries the offsets the batch reaches, merged into the
// offsets of the snapshot it is built on. The commit is refused (Conflict, files deleted) if
// that base no longer has the offsets the batch started from, so a batch lands at most once.
// Records that cannot be decoded go to the dead-letter table with the reason, committed first
// and de-duplicated by the same offsets, so they are never lost and never doubled. With a
// `--transform`, decoded events go through the SQL engine first (sql/iceberg/batch_transform.h).
// Used from the stream job's loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/thread_pool.h"
#include "formats/json/event_decoder.h"
#include "iceberg/table.h"
#include "sql/iceberg/batch_transform.h"
#include "stream/batch_committer.h"
#include "stream/dead_letter_table.h"
#include "stream/source/change_decoder.h"
#include "stream/source/record_decoder.h"
#include "stream/source/upsert_batch.h"

namespace floe::stream {

struct IcebergSinkOptions {
  std::string topic;
  // How the batch's partitions are numbered (topic_partitions.h): a routed table's records may
  // come from many topics. Null: `topic`'s partition numbers.
  std::shared_ptr<TopicPartitionIds> partitions;
  // How record values decode (record_decoder.h); avro and auto fetch writer schemas from
  // `registry`. Upsert mode reads JSON change events only.
  SourceFormat format = SourceFormat::kJson;
  std::shared_ptr<SchemaRegistryClient> registry;
  // The table's Kafka metadata columns (kafka_columns.h) are filled from each row's record;
  // the decoders fill the others. Append mode, without a transform.
  bool with_kafka_columns = false;
  formats::EpochUnit timestamp_unit = formats::EpochUnit::kMillis;
  int64_t target_file_size_bytes = int64_t{128} << 20;
  // With a transform, events decode into `event_schema` and the transform's rows are the
  // table's (their columns must be the table's, by name and type, in order); rows it rejects
  // are dead letters with reasons starting "transform: ".
  std::shared_ptr<sql::iceberg_sql::BatchTransform> transform;
  std::optional<iceberg::Schema> event_schema;
  // Unknown top-level keys (JSON: string, long, double or boolean; Avro: a new writer field, of
  // its mapped Iceberg type) become new optional columns in a schema change committed before the
  // batch, instead of being ignored. Not with a transform.
  bool evolve = false;
  // Records are decoded this many at a time: JSON lines for a whole micro-batch (up to 96 MiB
  // of values) would be one more full copy of it, in fresh memory.
  size_t decode_chunk_records = 64 << 10;
  // Threads decoding chunks side by side while the calling thread writes the decoded rows:
  // decoding and writing are a commit's work, and the consumer is idle meanwhile. 1 with
  // evolve, whose decoder notes unknown keys across the whole batch.
  size_t decode_threads = 2;
  // Upsert mode (docs/upserts.md): the table's identifier fields are its key; each batch keeps
  // the last change per key and commits its rows with equality deletes of the keys it touched
  // (one `overwrite` snapshot). Empty: append mode. Not with a transform or evolve.
  std::vector<std::string> key_columns;
  Envelope envelope = Envelope::kNone;  // Upsert mode only.
};

// The offsets of `topic` recorded by the newest snapshot in the current snapshot's ancestry
// that has them (maintenance commits such as compaction may not); empty when none has.
Result<SourceOffsets> OffsetsInAncestry(const iceberg::TableMetadata& metadata, std::string_view topic);

class IcebergCommitter final : public BatchCommitter {
 public:
  // `dead_letters` may be null for a routed table (append mode only), whose dead letters the
  // routing committer writes: then only Stage and Publish may be used.
  static Result<std::unique_ptr<IcebergCommitter>> Open(std::unique_ptr<iceberg::Table> table,
                                                        std::unique_ptr<iceberg::Table> dead_letters,
                                                        IcebergSinkOptions options);

  Result<SourceOffsets> CommittedOffsets() override;
  Result<CommitReport> Commit(const MicroBatch& batch, const SourceOffsets& expected,
                              const SourceOffsets& next) override;

  // A batch's rows written to data files, not yet committed. Append mode only.
  struct Staged {
    std::vector<iceberg::DataFile> files;
    CommitReport report;
    DeadLetters bad;  // Records of the batch that did not decode, with why.
  };
  // Decodes and writes `batch` (evolving the schema first with `evolve`).
  Result<Staged> Stage(const MicroBatch& batch);
  // Commits `staged` with the table's offsets becoming `next` if they are `expected`
  // (offsets_commit.h); a conflict deletes its files.
  Result<CommitReport> Publish(Staged staged, const SourceOffsets& expected, const SourceOffsets& next);
  // Deletes the files of a staged batch that will not be published.
  void Discard(const Staged& staged);

  iceberg::Table& table() { return *table_; }

 private:
  IcebergCommitter() = default;

  // Takes one decoded chunk's rows; `record_of_row` gives each row's record index (for the
  // dead letters it finds itself, such as rows a transform rejects).
  using ChunkSink = std::function<Status(formats::ColumnBatch rows, const std::vector<size_t>& record_of_row)>;
  // Decodes the batch's records, decode_chunk_records at a time on the decode lanes, and hands
  // each chunk to `sink` in order; with evolve, first adds the columns unknown keys call for
  // (then the sink gets the chunks only once the whole batch decoded). `bad` gets each record
  // that failed, by index.
  // `rows_json`, when given, holds per record the JSON to decode in place of its value, or
  // nothing: the record has no row (its line is skipped, and not reported as bad).
  Status DecodeChunks(const MicroBatch& batch, const ChunkSink& sink, std::vector<std::pair<size_t, std::string>>* bad,
                      const std::vector<std::optional<std::string_view>>* rows_json = nullptr);
  // Commit in upsert mode: last change per key wins, rows plus equality deletes (v3: deletion
  // vectors) in one snapshot.
  Result<CommitReport> CommitUpsert(const MicroBatch& batch, const SourceOffsets& expected, const SourceOffsets& next);
  // v3: writes the deletion vectors of the previous rows of every key `upsert` touches, each
  // merged with its data file's current vector, which goes to `replaced_vectors`.
  Result<std::vector<iceberg::DataFile>> DeletionVectorsOfKeys(const UpsertBatch& upsert,
                                                               std::vector<iceberg::DataFile>* replaced_vectors);
  // Checks the key columns against the table and prepares the upsert decoders.
  Status OpenUpsert();

  IcebergSinkOptions options_;
  std::unique_ptr<iceberg::Table> table_;
  std::unique_ptr<DeadLetterTable> dead_letters_;  // Null for a routed table.
  // One decoding thread's state: its decoder and its reused list of the chunk's records.
  struct DecodeLane {
    std::unique_ptr<RecordDecoder> decoder;
    std::vector<EncodedRecord> records;
  };
  // A decoder of the source's format for the table's `fields` (less the Kafka metadata columns).
  Result<std::unique_ptr<RecordDecoder>> MakeDecoder(const std::vector<formats::Field>& fields) const;
  std::vector<formats::Field> table_fields_;  // The rows' columns (the table's, or the events').
  std::vector<DecodeLane> lanes_;     // Each decodes on a thread of pool_.
  std::unique_ptr<ThreadPool> pool_;  // One thread per lane.
  std::vector<int32_t> output_ids_;  // With a transform: the table's field id of each output column.
  // Upsert mode: the key columns' field ids, and the reader of each record's change.
  std::vector<int32_t> key_ids_;
  std::unique_ptr<ChangeDecoder> change_decoder_;
};

}  // namespace floe::stream
