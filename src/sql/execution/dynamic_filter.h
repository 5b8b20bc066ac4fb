// Dynamic filtering (Trino's name for it): once a hash join has built its hash table, the range
// of each equi-join key it holds is known, and the scan on the probe side that produces the
// matching key column can skip what lies outside that range: Iceberg files by their column
// bounds, row groups by their statistics, pages by the page index. When the build side holds
// few distinct keys, their set is published too, and the scan drops each row outside it (so an
// aggregation below the join, say, only sees the groups the join keeps). The join still checks
// every row, so a filter only ever saves work; it applies where a probe row without a match is
// dropped anyway (inner, right, semi, right semi and right anti joins).
//
// The executor publishes a join's filters after materializing its build side and before it
// builds the probe pipeline, whose scans then plan with them. Owned by the QueryContext; the
// executor's thread publishes, any thread reads a published predicate.
#pragma once

#include <list>
#include <map>
#include <mutex>
#include <string>

#include "sql/planner/scan_predicate.h"

namespace floe::sql {

struct LogicalOperator;
struct LogicalScan;
struct LogicalJoin;
struct Materialized;
class QueryContext;

class DynamicFilters {
 public:
  // The predicate a scan of `scan` plans with: its pushed predicate plus the published ranges.
  // Valid as long as this object.
  const ScanPredicate* PredicateFor(const LogicalScan& scan);
  // "l_orderkey >= 1 AND l_orderkey <= 600" for EXPLAIN ANALYZE; empty when none.
  std::string Describe(const LogicalOperator& scan) const;

  // Publishes the key ranges of `join`'s build side (`build`, the materialized right child)
  // for the scans that produce its probe keys. Replaces what `join` published before (a join
  // inside a subquery runs again per outer row).
  void Publish(const LogicalJoin& join, const Materialized& build);

 private:
  mutable std::mutex mutex_;
  // scan -> join -> terms.
  std::map<const LogicalOperator*, std::map<const LogicalOperator*, std::vector<ColumnPredicate>>> terms_;
  // Each scan's current combined predicate (made on first request after a publish); the list
  // keeps every one made, since a planned scan holds on to its own.
  std::map<const LogicalOperator*, const ScanPredicate*> current_;
  std::list<ScanPredicate> combined_;
};

}  // namespace floe::sql
