// Data files of a table: writing rows as Parquet data files (fanned out by the default spec's
// partition, cut at a target size, with Iceberg column metrics from the writer), and reading a
// scan task's file back with the table schema's columns matched by field id.
//
// Functions run on the caller's thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "formats/column_batch.h"
#include "iceberg/data_file_writer.h"
#include "iceberg/scan.h"
#include "iceberg/table.h"

namespace floe::iceberg {

// Writes rows to new Parquet files under the table's data/ folder and returns them (not yet
// committed), through a DataFileWriter (data_file_writer.h).
Result<std::vector<DataFile>> WriteDataFiles(Table& table, const std::vector<formats::ColumnBatch>& batches,
                                             const DataWriteOptions& options = {});

// Reads every row group of a Parquet file.
Result<std::vector<formats::ColumnBatch>> ReadParquetFile(std::unique_ptr<io::InputFile> file);

struct EqualityDeleteKeys;  // The keys of one equality delete file, as ReadTask looks them up.

// Equality delete files read once for many tasks: in an upsert table the newest delete files
// apply to nearly every data file, and loading their keys costs more than reading the rows.
// Holds the keys of every file read through it (for one scan, one schema). Any thread; a file
// wanted by two threads at once is loaded by the first while the second waits for it.
class EqualityDeleteCache {
 public:
  using Loader = std::function<Result<std::shared_ptr<const EqualityDeleteKeys>>()>;
  EqualityDeleteCache();
  ~EqualityDeleteCache();
  // The keys of `path`, calling `load` unless they are held already (a failure is not kept).
  // With `wait` false, returns null instead of waiting while another thread loads them, so
  // the caller can load another file meanwhile.
  Result<std::shared_ptr<const EqualityDeleteKeys>> FindOrLoad(const std::string& path, const Loader& load,
                                                               bool wait = true);

 private:
  struct Entry {
    std::mutex mutex;  // Held while the file loads.
    std::shared_ptr<const EqualityDeleteKeys> keys;  // Guarded by mutex.
  };
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Entry>> entries_;  // Guarded by mutex_.
};

// Reads a task's data file with its delete files applied. `fn` gets each batch (deleted rows
// already removed; its columns are the callee's to move out) and, for each column of `schema`, the index of the batch column holding it
// (-1 when the file predates the column: its values are null).
using TaskBatchFn = std::function<Status(formats::ColumnBatch& batch, const std::vector<int>& columns)>;
// `cache`, when given, keeps the equality delete files' keys for the next tasks.
Status ReadTask(Table& table, const FileScanTask& task, const Schema& schema, const TaskBatchFn& fn,
                EqualityDeleteCache* cache = nullptr);

// As ReadTask, but batches keep every row of the file (row positions stay the file's) and
// `deleted` flags the deleted ones (empty: none): for writers of position deletes.
using TaskRowsFn = std::function<Status(formats::ColumnBatch& batch, const std::vector<int>& columns,
                                        const std::vector<uint8_t>& deleted)>;
Status ReadTaskRows(Table& table, const FileScanTask& task, const Schema& schema, const TaskRowsFn& fn,
                    EqualityDeleteCache* cache = nullptr);

// Field ids of position delete files' columns (format/spec.md, "Position Delete Files").
inline constexpr int32_t kDeleteFilePathId = 2147483546;
inline constexpr int32_t kDeletePosId = 2147483545;

// The positions of the data file `data_path` that the position delete file `delete_file`
// (Parquet: file_path, pos) deletes, ascending.
Result<std::vector<int64_t>> ReadPositionDeletes(Table& table, const DataFile& delete_file, std::string_view data_path);

// Every data file the position delete file `delete_file` names.
Result<std::set<std::string>> PositionDeletePaths(Table& table, const DataFile& delete_file);

// Writes one position delete file for rows of data files (path -> positions) in the partition
// `partition` of the default spec. The file is not committed (Table::AddDeleteFiles).
Result<DataFile> WritePositionDeletes(Table& table, const std::map<std::string, std::vector<int64_t>>& positions,
                                      const std::vector<Literal>& partition);

}  // namespace floe::iceberg
