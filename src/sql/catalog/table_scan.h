// The storage side of the engine: how the executor reads a table's rows and how statements
// change tables. A SqlCatalog plans a scan (pruning files, row groups and pages with the pushed
// predicate) into splits — independent units of work (a file, a row group range) that any
// thread may read — and the executor reads splits in parallel, morsel by morsel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "sql/catalog/catalog.h"
#include "sql/planner/scan_predicate.h"

namespace floe::sql {

// What one scan pruned and read: EXPLAIN ANALYZE prints it; the query server reports it.
struct ScanStats {
  int64_t files_total = 0;
  int64_t files_read = 0;
  int64_t row_groups_total = 0;
  int64_t row_groups_read = 0;
  int64_t pages_total = 0;
  int64_t pages_read = 0;
  int64_t bytes_read = 0;
  int64_t rows_read = 0;
  // Row-level deletes (merge-on-read tables, such as upsert tables): the delete files that
  // applied to the files read, and the rows they removed.
  int64_t delete_files = 0;
  int64_t rows_deleted = 0;

  void Add(const ScanStats& other);
  // "files 3/40, row groups 3/40, pages 12/300, 1.2 MiB, 50000 rows", then, when deletes
  // applied, ", delete files 2, 1200 rows deleted".
  std::string ToString() const;
};

// Which rows of a table fed by a stream job a query reads (session property `freshness`):
// kLive reads the current snapshot plus the records in the source's log past the offsets that
// snapshot recorded, decoded as the stream job decodes them; kSnapshot reads the committed
// snapshot only. Time travel and tables without a recorded source always read snapshots.
enum class Freshness { kLive, kSnapshot };

// "live" or "snapshot" (any case); kInvalidArgument naming the accepted values otherwise.
Result<Freshness> ParseFreshness(std::string_view text);
std::string_view FreshnessName(Freshness freshness);

// What the executor asks of a table: the columns (indexes into table->columns, or into the
// metadata table's columns), the pushed predicate (storage may use it to skip data; it must not
// drop a row the predicate accepts, and the executor applies the predicate again), and the version.
struct ScanRequest {
  std::shared_ptr<const CatalogTable> table;
  TableVersion version;
  std::string metadata_table;  // "snapshots", "files", ...: empty for the table's data.
  std::vector<int> columns;
  const ScanPredicate* predicate = nullptr;  // May be null; outlives the scan.
  Freshness freshness = Freshness::kLive;
  // Past this many bytes of decoded log tail a live scan reads the snapshot only (and warns).
  int64_t live_tail_max_bytes = int64_t{256} << 20;
  // Receives what the client should be told without failing the query (a live read that fell
  // back to the snapshot, say). May be empty.
  std::function<void(std::string)> warn;
};

// A planned scan. Splits are numbered 0..split_count()-1; each is read once, possibly on
// different threads at the same time. Batches carry the requested columns in request order,
// typed by the column's SqlType mapped to formats::TypeId (varchar -> kString, decimal ->
// kDecimal, timestamp -> kTimestamp, ...).
class TableScan {
 public:
  virtual ~TableScan() = default;

  virtual size_t split_count() const = 0;
  // Reads one split, handing each batch to `sink`; stops at the first error of either.
  virtual Status ReadSplit(size_t split, const std::function<Status(formats::ColumnBatch&)>& sink) = 0;
  // Totals so far (planning fills files/row groups totals; reading adds what was read).
  virtual ScanStats stats() const = 0;
  // One line for EXPLAIN: "files 3 of 40 after pruning (partition ts_hour, bounds on amount)".
  virtual std::string Describe() const = 0;
  // What plain EXPLAIN adds to the scan node, when planning decided something the plan alone
  // does not show (the log tail a live scan reads); empty by default.
  virtual std::string PlanDetail() const { return ""; }
};

}  // namespace floe::sql
