// The state of one aggregate call for every group of one hash table, updated a chunk at a time
// (each row carries its group id) and merged across worker threads. count, sum, avg, min, max,
// count_if, min_by/max_by, arbitrary, bool_and/bool_or/every, stddev/variance,
// approx_distinct (exact for small sets, then HyperLogLog) and approx_percentile; DISTINCT
// wraps any of them. One thread per state; Merge reads another finished state.
#pragma once

#include <memory>
#include <vector>

#include "base/result.h"
#include "sql/planner/logical_plan.h"
#include "sql/execution/vector.h"

namespace floe::sql {

// Whether row i of an Update takes part: `mask` is null (every row does) or nonzero at i.
inline bool MaskTakesRow(const uint8_t* mask, int64_t i) { return mask == nullptr || mask[i] != 0; }

class AggregateState {
 public:
  virtual ~AggregateState() = default;

  // Makes room for groups [0, groups).
  virtual void Resize(size_t groups) = 0;
  // Adds rows: row i belongs to group groups[i]; `mask` (may be null) skips rows where it is 0.
  virtual Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) = 0;
  // Folds `other` (the same function) into this state: other's group g goes to mapping[g].
  virtual Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) = 0;
  // One value per group [0, groups).
  virtual Result<VectorPtr> Finalize(size_t groups) = 0;
  // Approximate bytes held.
  virtual int64_t Bytes() const = 0;
};

// array_agg and map_agg (nested_aggregates.cc); array_agg's `arg_types` end with its ORDER BY keys'.
Result<std::unique_ptr<AggregateState>> MakeNestedAggregateState(const AggregateCall& call,
                                                                 const std::vector<SqlType>& arg_types);

// A fresh state for `call`, whose argument types are `arg_types`.
Result<std::unique_ptr<AggregateState>> MakeAggregateState(const AggregateCall& call, const std::vector<SqlType>& arg_types);

}  // namespace floe::sql
