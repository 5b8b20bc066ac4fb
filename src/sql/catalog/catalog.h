// What the binder needs to know about tables: the SqlCatalog interface. The real
// implementation wraps Iceberg tables behind a catalog (src/catalog, src/iceberg); tests use
// MemoryCatalog (sql/memory_catalog.h). Implementations must be safe to call from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace floe::sql {

struct ScanRequest;
struct ScanPredicate;
class TableScan;

struct QualifiedTableName {
  std::string catalog;
  std::string schema;
  std::string table;

  std::string ToString() const { return catalog + "." + schema + "." + table; }
  bool operator==(const QualifiedTableName&) const = default;
};

struct TableColumn {
  std::string name;
  SqlType type;
  bool nullable = true;
  int32_t field_id = 0;  // Iceberg field id (0 when the table has none).
};

// Which version of a table a query reads: the current snapshot, or time travel.
struct TableVersion {
  enum class Kind { kCurrent, kSnapshotId, kRef, kTimestamp };
  Kind kind = Kind::kCurrent;
  int64_t snapshot_id = 0;
  std::string ref;                // Branch or tag name.
  int64_t timestamp_micros = 0;   // The latest snapshot at or before this instant (UTC).

  std::string ToString() const;
};

// What the optimizer knows of one column's values. Estimates: they order joins and size hash
// tables, never decide a result.
struct ColumnStatistics {
  // About this many distinct values: counted (a statistics file's theta sketch) where the table
  // has one; otherwise, for integer, date and decimal columns, at most the width of the range
  // between the smallest lower bound and the largest upper bound of the table's files.
  std::optional<double> distinct_count;
  // The smallest and largest value, as positions on the column's number line (integers, days,
  // microseconds, unscaled decimals), from the files' bounds; unknown where a file lacks them.
  std::optional<double> min;
  std::optional<double> max;
};

// One table's shape at one version, as the binder and planner see it. Immutable.
struct CatalogTable {
  QualifiedTableName name;
  std::string location;  // Table location URI; empty when not applicable.
  std::vector<TableColumn> columns;
  std::optional<int64_t> estimated_rows;  // From snapshot summaries; drives join order.
  std::vector<ColumnStatistics> column_statistics;  // Parallel to `columns`, or empty when unknown.
  std::vector<std::string> partition_columns;  // Source columns of identity/temporal transforms.
  std::map<std::string, std::string> properties;  // Table properties (floe.source.* for fresh reads).
  // Hidden columns the storage fills for every row (Iceberg's `_file`, `_pos`, `_row_id`, ...,
  // Trino's "$path"): not in SELECT *, found by name. A scan names them by index past `columns`
  // (columns.size() + i); none shares a name with a column of `columns`.
  std::vector<TableColumn> metadata_columns;

  // The column a scan's index names: one of `columns`, or past them one of `metadata_columns`.
  const TableColumn& ColumnAt(int index) const {
    const auto i = static_cast<size_t>(index);
    return i < columns.size() ? columns[i] : metadata_columns[i - columns.size()];
  }
  bool IsMetadataColumn(int index) const { return static_cast<size_t>(index) >= columns.size(); }
};

// CREATE TABLE's request: columns, the partition spec as Iceberg transform terms ("hour(ts)",
// "bucket(16, id)", "region"), and table properties.
struct TableDefinition {
  QualifiedTableName name;
  std::vector<TableColumn> columns;
  // PRIMARY KEY columns: the Iceberg schema's identifier fields (required, not enforced unique).
  std::vector<std::string> identifier_columns;
  std::vector<std::string> partition_by;
  std::map<std::string, std::string> properties;
};

// A view as the binder sees it (an Iceberg view's current version): the query text of the
// dialect floe reads (`trino`), where its unqualified names resolve, and the columns it was
// created with, which a reading query sees whatever the underlying tables became since.
struct CatalogView {
  QualifiedTableName name;
  std::string sql;  // Empty when the view has no SQL in kViewDialect; `dialects` says which it has.
  std::vector<std::string> dialects;
  std::string default_catalog;
  std::string default_schema;
  std::vector<TableColumn> columns;
  std::optional<std::string> comment;
};

// CREATE [OR REPLACE] VIEW's request.
struct ViewDefinition {
  CatalogView view;
  bool replace = false;  // OR REPLACE: a new current version of an existing view.
};

// The SQL dialect floe writes a view's text in, and the one it reads: Trino's, whose SQL floe
// speaks, so Trino reads the same view from the same catalog.
inline constexpr std::string_view kViewDialect = "trino";

// ALTER TABLE's column changes.
struct TableChange {
  enum class Kind { kAddColumn, kDropColumn, kRenameColumn };
  Kind kind = Kind::kAddColumn;
  TableColumn column;     // kAddColumn
  std::string name;       // kDropColumn, kRenameColumn: the existing column
  std::string new_name;   // kRenameColumn
};

class SqlCatalog {
 public:
  virtual ~SqlCatalog() = default;

  virtual std::vector<std::string> CatalogNames() const = 0;
  virtual Result<std::vector<std::string>> SchemaNames(std::string_view catalog) const = 0;
  virtual Result<std::vector<std::string>> TableNames(std::string_view catalog, std::string_view schema) const = 0;
  // kNotFound when the table (or the requested version) does not exist.
  virtual Result<std::shared_ptr<const CatalogTable>> GetTable(const QualifiedTableName& name,
                                                               const TableVersion& version) const = 0;
  // A table by its location (iceberg_scan('uri')); kNotFound when nothing is there.
  virtual Result<std::shared_ptr<const CatalogTable>> GetTableAt(std::string_view location,
                                                                 const TableVersion& version) const = 0;

  // Views share names with tables (a name is one or the other). ViewNames is empty and GetView
  // kNotFound (kNoSuchView) in catalogs without views.
  virtual Result<std::vector<std::string>> ViewNames(std::string_view catalog, std::string_view schema) const;
  virtual Result<std::shared_ptr<const CatalogView>> GetView(const QualifiedTableName& name) const;

  // Storage. Catalogs without storage (planning only) answer kNotImplemented.
  // Plans a scan of a table's data or of one of its metadata tables (sql/table_scan.h).
  virtual Result<std::unique_ptr<TableScan>> OpenScan(const ScanRequest& request) const;

  // Writes; each is one atomic catalog commit. Read-only catalogs answer kNotImplemented.
  virtual Status CreateSchema(std::string_view catalog, std::string_view schema);
  virtual Status DropSchema(std::string_view catalog, std::string_view schema);
  virtual Status CreateTable(const TableDefinition& definition);
  virtual Status DropTable(const QualifiedTableName& name);
  virtual Status AlterTable(const QualifiedTableName& name, const TableChange& change);
  // kAlreadyExists when the name is taken (by a table, or by a view unless `replace`).
  virtual Status CreateView(const ViewDefinition& definition);
  virtual Status DropView(const QualifiedTableName& name);  // kNotFound (kNoSuchView).
  // Appends rows (batches typed like the table's columns, in column order) as one snapshot;
  // returns the number of rows written.
  virtual Result<int64_t> AppendRows(const QualifiedTableName& name, std::vector<formats::ColumnBatch> batches);
  // DELETE: removes the rows `select` flags, as one commit, and returns how many. `select` gets
  // batches of every table column in order, typed by StorageDataType (a column a file lacks is
  // null), and answers one flag per row. `pushed` holds terms the WHERE implies, for skipping
  // files; when `pushed_is_exact` (the WHERE is exactly their conjunction) storage may also drop
  // files whose statistics prove every row matches without reading them.
  using RowSelector = std::function<Result<std::vector<uint8_t>>(const formats::ColumnBatch& batch)>;
  virtual Result<int64_t> DeleteRows(const QualifiedTableName& name, const ScanPredicate& pushed, bool pushed_is_exact,
                                     const RowSelector& select);
  // UPDATE and MERGE: changes rows as one commit. `rewrite` sees batches of the table's rows,
  // typed as `select`'s are, and answers which rows to remove and the rows to write in their
  // place (every table column in order, typed by StorageDataType); `append` (may be empty) is
  // called once after every row was seen and answers rows to add. `pushed` holds terms every
  // row `rewrite` changes satisfies (files without such rows are skipped). `operation` names
  // the statement ("update", "merge"): Iceberg's write.<operation>.isolation-level applies.
  struct RowChanges {
    std::vector<uint8_t> remove;  // One flag per row of the batch.
    std::vector<formats::ColumnBatch> added;
  };
  using RowRewriter = std::function<Result<RowChanges>(const formats::ColumnBatch& batch)>;
  using RowAppender = std::function<Result<std::vector<formats::ColumnBatch>>()>;
  virtual Status RewriteRows(const QualifiedTableName& name, const ScanPredicate& pushed, std::string_view operation,
                             const RowRewriter& rewrite, const RowAppender& append);
  // ALTER TABLE ... EXECUTE optimize | expire_snapshots | remove_orphan_files, and "analyze"
  // (ANALYZE: column statistics for the planner): a one-line summary.
  virtual Result<std::string> ExecuteProcedure(const QualifiedTableName& name, std::string_view procedure,
                                               const std::map<std::string, Value>& arguments);
};

}  // namespace floe::sql
