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
  // Row groups whose statistics allow rows matching all `predicates`.
  std::vector<int> SelectRowGroups(const std::vector<ColumnPredicate>& predicates) const;

 private:
  FileReader(std::unique_ptr<io::InputFile> file, ReaderOptions options) : file_(std::move(file)), options_(options) {}
  Status Init();
  bool MayMatch(int row_group, const ColumnPredicate& p) const;

  std::unique_ptr<io::InputFile> file_;
  ReaderOptions options_;
  FileMetaData metadata_;
  Schema schema_;
};

}  // namespace floe::parquet
