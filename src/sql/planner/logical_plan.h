// The logical plan: a tree of relational operators over column ids, produced by the binder,
// rewritten by the optimizer, printed by EXPLAIN and (later) turned into a physical plan.
// A node owns its children. Plans are built and rewritten by one thread, then immutable.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sql/binder/bound_expr.h"
#include "sql/catalog/catalog.h"
#include "sql/planner/scan_predicate.h"

namespace floe::sql {

enum class LogicalKind {
  kScan,       // table, scan_columns, pushed, version, metadata_table
  kValues,     // rows (constant expressions), output
  kFilter,     // predicate
  kProject,    // expressions (one per output column)
  kAggregate,  // groups (first outputs), aggregates (after them)
  kWindow,     // windows; output = child's output + one column per window call
  kJoin,       // join_type, condition
  kSort,       // order
  kLimit,      // limit, offset
  kTopN,       // order, limit, offset
  kDistinct,
  kSetOp,         // set_op, set_all; output ids are new, children map by position
  kEmpty,         // no rows (a contradiction was proven)
  kUnnest,        // expressions (arrays and maps), ordinality, join_type; output = child's + elements
  kRecursiveCte,  // WITH RECURSIVE: children anchor, step; set_all; working_table
  kWorkingTable,  // the rows the step of the kRecursiveCte with the same working_table reads
  kLateralJoin,   // children left, right (reads `correlated` of left's columns); join_type; output = left's + right's
};

struct OutputColumn {
  ColumnId id;
  std::string name;
  SqlType type;
};

struct SortKey {
  BoundExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
};

struct AggregateCall {
  std::string function;      // count, sum, approx_distinct, ...
  std::vector<BoundExprPtr> args;
  bool star = false;         // count(*)
  bool distinct = false;
  BoundExprPtr filter;       // FILTER (WHERE ...); null when absent
  std::vector<SortKey> order;  // WITHIN GROUP (ORDER BY ...) or an ordered aggregate
  SqlType type;

  std::string ToString() const;
};

enum class FrameMode { kRange, kRows, kGroups };
struct WindowFrameBound {
  enum class Kind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  BoundExprPtr offset;
};

struct WindowCall {
  std::string function;  // row_number, rank, lag, sum, ...
  std::vector<BoundExprPtr> args;
  bool star = false;
  bool distinct = false;
  BoundExprPtr filter;
  std::vector<BoundExprPtr> partition_by;
  std::vector<SortKey> order_by;
  FrameMode frame_mode = FrameMode::kRange;
  WindowFrameBound frame_start{WindowFrameBound::Kind::kUnboundedPreceding, nullptr};
  WindowFrameBound frame_end{WindowFrameBound::Kind::kCurrentRow, nullptr};
  SqlType type;

  std::string ToString() const;
};

// kSemi/kAnti pass on the left rows with (without) a match. kRightSemi/kRightAnti are the same
// with the sides swapped, chosen by the optimizer when the left (preserved) side is the smaller:
// the hash table is built on it and the larger side probes, marking what matched.
enum class LogicalJoinType { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti, kRightSemi, kRightAnti };
enum class LogicalSetOp { kUnion, kIntersect, kExcept };

// Whether a join passes on nothing for a probe (left) row without a match: inner, right, semi,
// right semi and right anti joins (so an empty build side makes the whole join empty, and the
// build side's key ranges may filter the probe side).
bool DropsUnmatchedProbeRows(LogicalJoinType type);

// The conjuncts `a = b` of `condition` between a plain column of `left`'s output and one of
// `right`'s, as (left column, right column) pairs: what join estimates and dynamic filters
// can reason about.
std::vector<std::pair<ColumnId, ColumnId>> ColumnEqualities(const BoundExpr* condition, const LogicalOperator& left,
                                                            const LogicalOperator& right);

// A column the scan reads: the table column's position and the id it is produced under.
struct ScanColumn {
  ColumnId id;
  int table_column = 0;  // table->ColumnAt's index (or into the metadata table's columns).
};

struct LogicalOperator;
using LogicalPtr = std::unique_ptr<LogicalOperator>;

struct LogicalOperator {
  explicit LogicalOperator(LogicalKind k) : kind(k) {}

  LogicalKind kind;
  std::vector<LogicalPtr> children;
  std::vector<OutputColumn> output;
  double estimated_rows = -1;  // Set by the optimizer's cardinality estimate (-1 unknown).

  // kScan
  std::shared_ptr<const CatalogTable> table;
  std::string metadata_table;      // "snapshots", "files", ... (empty: the data itself)
  std::string virtual_table;       // information_schema.tables, system.jdbc...: the rows come from the catalog
  TableVersion version;
  std::vector<ScanColumn> scan_columns;
  ScanPredicate pushed;

  // kValues
  std::vector<std::vector<BoundExprPtr>> rows;

  // kFilter
  BoundExprPtr predicate;

  // kProject
  std::vector<BoundExprPtr> expressions;

  // kAggregate: outputs are the group keys (in order) then the aggregates.
  std::vector<BoundExprPtr> groups;
  std::vector<AggregateCall> aggregates;
  // GROUPING SETS: the numbers of the empty sets, their number being the last group key. Each
  // gives one row (NULL keys, aggregates of nothing) even when the input is empty, as a global
  // aggregation does; so no filter may move below such an aggregation.
  std::vector<int64_t> global_grouping_sets;

  // kWindow
  std::vector<WindowCall> windows;

  // kJoin
  LogicalJoinType join_type = LogicalJoinType::kInner;
  BoundExprPtr condition;  // Null for cross joins.

  // kSort, kTopN
  std::vector<SortKey> order;

  // kLimit, kTopN
  std::optional<int64_t> limit;
  int64_t offset = 0;

  // kSetOp (and kRecursiveCte: UNION or UNION ALL)
  LogicalSetOp set_op = LogicalSetOp::kUnion;
  bool set_all = false;

  // kRecursiveCte, kWorkingTable: pairs a recursive CTE with the references its step makes to
  // the rows of the previous round (unique within a statement).
  int32_t working_table = 0;

  // kUnnest: each child row once per element of `expressions` (arrays and maps over the child's
  // columns, zipped: as many rows as the longest, the shorter ones' columns NULL past their end).
  // The output is the child's columns, then each expression's columns (an element; a row
  // element's fields; a map's key and value), then the element's 1-based position when
  // `ordinality`. join_type kCross drops a row whose arrays are all empty or NULL; kLeft keeps
  // it once with NULL elements.
  bool ordinality = false;

  // kLateralJoin: the right child runs once per left row (per distinct values of `correlated`,
  // the left columns it reads), as a correlated subquery does; each left row is paired with
  // every row it gives. join_type kCross drops a left row that gets none; kLeft keeps it once
  // with NULLs.
  std::vector<ColumnId> correlated;

  // Deep copy (subquery plans are shared, not copied).
  LogicalPtr Clone() const;
  // The ids of `output`.
  std::set<ColumnId> OutputIds() const;
};

// Whether `op` is an inner or cross join: the joins whose conditions' terms may move between
// them and the filters above.
bool IsInnerJoin(const LogicalOperator& op);

// Every expression slot of one node (not its children).
void ForEachExpression(LogicalOperator& op, const std::function<void(BoundExprPtr&)>& visit);
void ForEachExpression(const LogicalOperator& op, const std::function<void(const BoundExpr&)>& visit);
// Every subquery plan inside an expression.
void ForEachSubquery(const BoundExpr& e, const std::function<void(const LogicalOperator&)>& visit);
// The largest column id anywhere in a plan, subquery plans included: new ids start above it.
int32_t MaxColumnId(const LogicalOperator& op);

// EXPLAIN's text: one node per line, children indented under their parent. `annotate` (if
// set) appends text to a node's line (EXPLAIN ANALYZE's actual figures).
using ExplainAnnotator = std::function<std::string(const LogicalOperator&)>;
std::string ExplainPlan(const LogicalOperator& plan, const ExplainAnnotator& annotate = {});

}  // namespace floe::sql
