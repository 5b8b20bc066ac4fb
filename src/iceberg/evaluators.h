// The evaluators scan planning runs over a bound filter (format/spec.md, "Scan Planning"):
//
// - ProjectInclusive: the filter as a predicate on a spec's partition tuple, such that a row
//   matching the filter always has a partition matching the projection.
// - ManifestMightMatch: the projection against a manifest list's partition summaries.
// - PartitionMatches: the projection against one file's partition tuple.
// - FileMightMatch: the filter against a file's column metrics (bounds, null/value/NaN counts).
// - FileAllRowsMatch: the strict counterpart of FileMightMatch: true only when the metrics
//   prove every row of the file matches (a delete may then drop the file unread).
// - Residual: what is left of the filter for rows of one partition (constant parts removed).
//
// All are pure functions of immutable inputs; any thread.
#pragma once

#include <vector>

#include "iceberg/expression.h"
#include "iceberg/manifest.h"
#include "iceberg/partition_spec.h"

namespace floe::iceberg {

// A bound predicate on partition fields: field ids are partition field ids, types are the
// transforms' result types.
ExprPtr ProjectInclusive(const ExprPtr& bound, const PartitionSpec& spec, const Schema& schema);

// `partition_type` is the spec's partition struct (PartitionSpec::PartitionType).
bool ManifestMightMatch(const ExprPtr& projected, const ManifestFile& manifest, const Type& partition_type);
bool PartitionMatches(const ExprPtr& projected, const std::vector<Literal>& partition, const Type& partition_type);
bool FileMightMatch(const ExprPtr& bound, const DataFile& file, const Schema& schema);
bool FileAllRowsMatch(const ExprPtr& bound, const DataFile& file, const Schema& schema);
ExprPtr Residual(const ExprPtr& bound, const PartitionSpec& spec, const std::vector<Literal>& partition);

}  // namespace floe::iceberg
