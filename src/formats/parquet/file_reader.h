// FileReader: reads a Parquet file through an io::InputFile by byte ranges (the footer, then
// one range per projected column chunk), so the same code reads local files and S3 objects.
// Row groups come back as column batches; statistics prune row groups before any data is read.
//
// Opening parses and validates the footer once; afterwards the reader is immutable and any
// number of threads may call ReadRowGroup concurrently (the InputFile must allow that).
// Errors name the file, column, row group and page.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/parquet/column_reader.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema.h"
#include "io/object_store.h"

namespace floe::parquet {

// A comparison of a primitive top-level column against a constant, for row group pruning.
struct ColumnPredicate {
  enum class Op : uint8_t { kEq, kLt, kLe, kGt, kGe, kIsNull, kNotNull };
  std::string column;
  Op op = Op::kEq;
  // int64 for integers, dates, times, timestamps (microseconds) and booleans; double for
  // floats; string for strings and binary.
  std::variant<int64_t, double, std::string> value;
};

// Rows [begin, end) of a row group.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const RowRange&) const = default;
};

// Clears match[i] for each row of `column` (a batch of a primitive column) whose value cannot
// satisfy `p`; rows it cannot judge (NaN, decimals, types the constant does not fit) stay set.
void NarrowMatches(const formats::ColumnVector& column, const ColumnPredicate& p, uint8_t* match);

class FileReader;

// Reads one row group as a series of batches. Flat columns stream page by page, so memory
// stays near one page per column; a projection with a nested column comes back as a single
// batch of the whole row group. Created by FileReader::OpenRowGroup; one thread.
class RowGroupReader {
 public:
  ~RowGroupReader();
  // The next batch of at most `max_rows` rows (all inside one selected range), or nullopt
  // after the last.
  Result<std::optional<formats::ColumnBatch>> Next(int64_t max_rows);
  // Data pages decoded and stepped over so far, over every projected column.
  int64_t pages_decoded() const;
  int64_t pages_skipped() const;
  // Late materialization: predicates (a conjunction) on projected primitive columns. Each
  // batch decodes their columns first; a batch where no row can satisfy them all is never
  // returned and the other columns step over it. Rows of returned batches are not filtered.
  void SetFilter(std::vector<ColumnPredicate> predicates);
  // Rows stepped over because no row of their batch could match the filter.
  int64_t rows_filtered() const { return rows_filtered_; }

 private:
  friend class FileReader;
  RowGroupReader() = default;
  const FileReader* file_ = nullptr;
  int row_group_ = 0;
  int64_t rows_ = 0, done_ = 0;
  std::vector<int> fields_;
  std::vector<RowRange> ranges_;  // The rows to read; a nested projection reads them all.
  size_t next_range_ = 0;
  struct Filter {
    size_t field;  // Index into fields_.
    ColumnPredicate predicate;
  };
  std::vector<Filter> filter_;
  int64_t rows_filtered_ = 0;
  static constexpr int kBatchesBeforeGivingUp = 4;
  int batches_passed_ = 0;  // Batches in a row with a possible match.

  std::vector<int64_t> pending_skip_;  // Per leaf: rows to step over before its next read.

  std::string Where(size_t leaf) const;
  Status SkipColumn(size_t leaf, int64_t rows);
  Status FlushSkip(size_t leaf);
  // Steps every projected column over the next `rows` rows.
  Status SkipAll(int64_t rows);
  bool whole_ = false;
  std::vector<std::unique_ptr<ColumnChunkStream>> streams_;  // Per leaf (flat projections).
  std::string where_;
};

class FileReader {
 public:
  static Result<std::unique_ptr<FileReader>> Open(std::unique_ptr<io::InputFile> file, ReaderOptions options = {});

  const FileMetaData& metadata() const { return metadata_; }
  const Schema& schema() const { return schema_; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }
  int64_t num_rows() const { return metadata_.num_rows; }
  const std::string& location() const { return file_->location(); }

  // Indices of the top-level fields named in `names`, in that order; NotFound for unknown names.
  Result<std::vector<int>> ResolveColumns(const std::vector<std::string>& names) const;
  // Reads row group `row_group`, projected to top-level `fields` (all when empty).
  Result<formats::ColumnBatch> ReadRowGroup(int row_group, const std::vector<int>& fields = {}) const;
  // Streams row group `row_group` projected to `fields` (all when empty) in batches.
  Result<std::unique_ptr<RowGroupReader>> OpenRowGroup(int row_group, const std::vector<int>& fields = {}) const;
  // The same, reading only the rows in `ranges` (sorted, disjoint, non-empty): columns step
  // over the rows between them, whole pages without decompressing. A projection with a nested
  // column reads the whole row group.
  Result<std::unique_ptr<RowGroupReader>> OpenRowGroup(int row_group, const std::vector<int>& fields, std::vector<RowRange> ranges) const;
  // Row groups whose statistics allow rows matching all `predicates`.
  std::vector<int> SelectRowGroups(const std::vector<ColumnPredicate>& predicates) const;
  // The rows of `row_group` that may match all `predicates` by the page index (ColumnIndex
  // bounds and null counts, OffsetIndex row positions) of the predicates' columns; columns
  // without a page index select every row. Empty when no page can match. A page index that
  // contradicts itself or the footer is a corruption error naming the file, column and row group.
  Result<std::vector<RowRange>> SelectRows(int row_group, const std::vector<ColumnPredicate>& predicates) const;

 private:
  FileReader(std::unique_ptr<io::InputFile> file, ReaderOptions options) : file_(std::move(file)), options_(options) {}
  Status Init();
  bool MayMatch(int row_group, const ColumnPredicate& p) const;
  friend class RowGroupReader;
  Result<std::string> ReadChunk(int row_group, size_t leaf, std::string* where) const;
  formats::Field BatchField(int field) const;

  std::unique_ptr<io::InputFile> file_;
  ReaderOptions options_;
  FileMetaData metadata_;
  Schema schema_;
};

}  // namespace floe::parquet
