// SplitByPartition: which rows of a batch go to which partition of a spec, the fanout writer's
// routing step. Partition tuples are computed only where a row's partition source values leave
// the previous row's transform bucket (events mostly arrive in time order, so hour(ts) changes
// a few times per batch); the other rows join the previous row's partition.
//
// Stateless; any thread.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/column_batch.h"
#include "iceberg/literal.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

struct PartitionRows {
  std::vector<Literal> partition;  // The partition tuple, one value per spec field.
  std::vector<uint32_t> rows;      // The batch's rows in it, ascending.
};

// Splits the rows of `batch` by `spec`. `columns[i]` is the batch column holding schema column
// i (-1: missing, read as null). Partitions are listed in the order their first row appears.
std::vector<PartitionRows> SplitByPartition(const Schema& schema, const PartitionSpec& spec, const formats::ColumnBatch& batch,
                                            const std::vector<int>& columns);

}  // namespace floe::iceberg
