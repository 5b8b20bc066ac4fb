// Spilling: when a hash join's build side or a hash aggregation's groups pass the query's memory
// limit, the operator's input is written to local disk split into partitions by the hash of its
// keys, and each partition is then joined or aggregated on its own, in memory (a grace hash
// join; a partitioned aggregation). Equal keys land in the same partition, so the partitions'
// results together are the whole answer. A sort past the limit writes sorted runs (one
// partition each) and merges them, reading each run a chunk at a time (external_sort.cc).
//
// Spill files are Parquet, written and read by floe's own codec, in one folder per query under
// QueryOptions::spill_dir; the folder and everything in it is removed when the query ends,
// however it ends (error, cancel, time limit). A full disk fails the query with an error
// naming the folder.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "sql/types/sql_type.h"
#include "sql/execution/vector.h"

namespace floe::parquet {
class FileReader;
class FileWriter;
class RowGroupReader;
}

namespace floe::sql {

// The query's spill folder, made on first use; removed with this object. Thread-safe.
class SpillFolder {
 public:
  explicit SpillFolder(std::string parent) : parent_(std::move(parent)) {}
  ~SpillFolder();
  SpillFolder(const SpillFolder&) = delete;
  SpillFolder& operator=(const SpillFolder&) = delete;

  // A new file name inside the folder (creating the folder when needed).
  Result<std::string> NewFile(std::string_view what);
  // The folder, empty until a file was asked for.
  std::string path() const;

 private:
  std::string parent_;
  mutable std::mutex mutex_;
  std::string path_;
  int next_ = 0;
};

// Rows of one shape split into partitions by a hash, each partition one Parquet file. Add may be
// called from several threads; Finish once after the last Add; then each partition is read back
// as chunks (one per row group, so readers may read them in parallel).
class SpillPartitions {
 public:
  static Result<std::unique_ptr<SpillPartitions>> Create(SpillFolder& folder, std::string_view what, std::vector<SqlType> types,
                                                         int partitions);
  ~SpillPartitions();

  // Appends row i of `chunk` to partition PartitionOf(hashes[i]) (with one partition, the whole
  // chunk in order; `hashes` is not read).
  Status Add(const DataChunk& chunk, const std::vector<uint64_t>& hashes);
  Status Finish();

  int partitions() const { return static_cast<int>(parts_.size()); }
  int64_t rows(int partition) const { return parts_[static_cast<size_t>(partition)]->rows; }
  // The partition's chunks, read back in the order they were written.
  Result<std::vector<DataChunk>> Read(int partition) const;

  // Reads one partition back a chunk at a time, so a merge of many holds one chunk of each.
  class Reader {
   public:
    ~Reader();
    // The next chunk, or nullopt after the last.
    Result<std::optional<DataChunk>> Next();

   private:
    friend class SpillPartitions;
    Reader() = default;
    std::vector<SqlType> types_;
    std::unique_ptr<parquet::FileReader> file_;
    std::unique_ptr<parquet::RowGroupReader> group_;
    int next_group_ = 0;
  };
  Result<std::unique_ptr<Reader>> OpenReader(int partition) const;

  // The partition of a key hash: its top bits, which hash tables do not use for their slots.
  int PartitionOf(uint64_t hash) const { return static_cast<int>((hash >> 40) % parts_.size()); }

 private:
  struct Part {
    std::mutex mutex;
    std::string path;
    std::unique_ptr<parquet::FileWriter> writer;
    int64_t rows = 0;
  };
  SpillPartitions() = default;
  Status Write(Part& target, const DataChunk& rows);

  std::vector<SqlType> types_;
  std::vector<formats::Field> fields_;  // The files' columns: c0, c1, ... of types_.
  std::vector<std::unique_ptr<Part>> parts_;
};

}  // namespace floe::sql
