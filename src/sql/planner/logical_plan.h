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

#include "base/kind_cast.h"
#include "sql/binder/bound_expr.h"
#include "sql/catalog/catalog.h"
#include "sql/planner/scan_predicate.h"

namespace floe::sql {

// A node's kind; each has its own class below (kScan: LogicalScan, ...), holding only what
// that kind means.
enum class LogicalKind {
  kScan,
  kValues,
  kFilter,
  kProject,
  kAggregate,
  kWindow,
  kJoin,
  kSort,
  kLimit,
  kTopN,
  kDistinct,
  kSetOp,
  kEmpty,
  kUnnest,
  kRecursiveCte,
  kWorkingTable,
  kLateralJoin,
};

// "Scan", "Join", ...: for messages.
const char* LogicalKindName(LogicalKind kind);

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
enum class LogicalSetOpType { kUnion, kIntersect, kExcept };

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

// What every node has. The rest is its kind's: a node is made as its kind's class
// (std::make_unique<LogicalFilter>()) and read as it with As<LogicalFilter>(), which checks the
// kind, so no code reads a field another kind would have had.
struct LogicalOperator : KindCast<LogicalOperator> {
  virtual ~LogicalOperator() = default;
  LogicalOperator(const LogicalOperator&) = delete;
  LogicalOperator& operator=(const LogicalOperator&) = delete;

  const LogicalKind kind;
  std::vector<LogicalPtr> children;
  std::vector<OutputColumn> output;
  double estimated_rows = -1;  // Set by the optimizer's cardinality estimate (-1 unknown).

  // Deep copy (subquery plans are shared, not copied).
  LogicalPtr Clone() const;
  // The ids of `output`.
  std::set<ColumnId> OutputIds() const;

 protected:
  explicit LogicalOperator(LogicalKind k) : kind(k) {}

 private:
  friend class KindCast<LogicalOperator>;  // Calls KindMismatch.
  [[noreturn]] void KindMismatch(LogicalKind wanted) const;
};

// The base of each kind's class: fixes the kind, and names it for As<T>().
template <LogicalKind K>
struct LogicalNode : LogicalOperator {
  static constexpr LogicalKind kKind = K;
  LogicalNode() : LogicalOperator(K) {}
};

// Reads a table's columns (or a metadata table's: snapshots, files, ...).
struct LogicalScan final : LogicalNode<LogicalKind::kScan> {
  std::shared_ptr<const CatalogTable> table;
  std::string metadata_table;  // "snapshots", "files", ... (empty: the data itself)
  TableVersion version;
  std::vector<ScanColumn> scan_columns;
  ScanPredicate pushed;
};

// Constant rows: VALUES, and the tables the catalog answers itself (information_schema...).
struct LogicalValues final : LogicalNode<LogicalKind::kValues> {
  std::vector<std::vector<BoundExprPtr>> rows;
  std::string virtual_table;  // information_schema.tables, system.jdbc...: empty for VALUES
};

struct LogicalFilter final : LogicalNode<LogicalKind::kFilter> {
  BoundExprPtr predicate;
};

struct LogicalProject final : LogicalNode<LogicalKind::kProject> {
  std::vector<BoundExprPtr> expressions;  // One per output column.
};

// Outputs are the group keys (in order) then the aggregates.
struct LogicalAggregate final : LogicalNode<LogicalKind::kAggregate> {
  std::vector<BoundExprPtr> groups;
  std::vector<AggregateCall> aggregates;
  // GROUPING SETS: the numbers of the empty sets, their number being the last group key. Each
  // gives one row (NULL keys, aggregates of nothing) even when the input is empty, as a global
  // aggregation does; so no filter may move below such an aggregation.
  std::vector<int64_t> global_grouping_sets;
};

// The output is the child's, then one column per window call.
struct LogicalWindow final : LogicalNode<LogicalKind::kWindow> {
  std::vector<WindowCall> windows;
};

struct LogicalJoin final : LogicalNode<LogicalKind::kJoin> {
  LogicalJoinType join_type = LogicalJoinType::kInner;
  BoundExprPtr condition;  // Null for cross joins.
};

struct LogicalSort final : LogicalNode<LogicalKind::kSort> {
  std::vector<SortKey> order;
};

struct LogicalLimit final : LogicalNode<LogicalKind::kLimit> {
  std::optional<int64_t> limit;  // Unset: LIMIT ALL (an OFFSET alone).
  int64_t offset = 0;
};

// A sort that keeps only the first offset + limit rows (the optimizer's fusion of the two).
struct LogicalTopN final : LogicalNode<LogicalKind::kTopN> {
  std::vector<SortKey> order;
  std::optional<int64_t> limit;
  int64_t offset = 0;
};

struct LogicalDistinct final : LogicalNode<LogicalKind::kDistinct> {};

// UNION, INTERSECT, EXCEPT: the output ids are new, the children's columns map to them by
// position.
struct LogicalSetOp final : LogicalNode<LogicalKind::kSetOp> {
  LogicalSetOpType set_op = LogicalSetOpType::kUnion;
  bool set_all = false;
};

// No rows (a contradiction was proven).
struct LogicalEmpty final : LogicalNode<LogicalKind::kEmpty> {};

// Each child row once per element of `expressions` (arrays and maps over the child's columns,
// zipped: as many rows as the longest, the shorter ones' columns NULL past their end). The output
// is the child's columns, then each expression's columns (an element; a row element's fields; a
// map's key and value), then the element's 1-based position when `ordinality`. join_type kCross
// drops a row whose arrays are all empty or NULL; kLeft keeps it once with NULL elements.
struct LogicalUnnest final : LogicalNode<LogicalKind::kUnnest> {
  std::vector<BoundExprPtr> expressions;
  bool ordinality = false;
  LogicalJoinType join_type = LogicalJoinType::kCross;
};

// WITH RECURSIVE: children anchor, then step; the step reads the previous round's rows through
// the LogicalWorkingTable with the same `working_table` (unique within a statement).
struct LogicalRecursiveCte final : LogicalNode<LogicalKind::kRecursiveCte> {
  bool set_all = false;  // UNION ALL (else UNION: rows seen before are dropped)
  int32_t working_table = 0;
};

struct LogicalWorkingTable final : LogicalNode<LogicalKind::kWorkingTable> {
  int32_t working_table = 0;
};

// Children left, right: the right child runs once per left row (per distinct values of
// `correlated`, the left columns it reads), as a correlated subquery does; each left row is
// paired with every row it gives. The output is the left's columns, then the right's. join_type
// kCross drops a left row that gets none; kLeft keeps it once with NULLs.
struct LogicalLateralJoin final : LogicalNode<LogicalKind::kLateralJoin> {
  LogicalJoinType join_type = LogicalJoinType::kCross;
  std::vector<ColumnId> correlated;
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
