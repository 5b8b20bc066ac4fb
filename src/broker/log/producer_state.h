// Idempotent-producer bookkeeping for one partition: per producer id, its epoch and the last
// few batches' sequence ranges, so a retried batch is recognised as a duplicate (and answered
// with its original offset) and a batch after a gap is rejected (KIP-98 semantics).
//
// Owned by a PartitionLog; I/O thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>

#include "broker/protocol/error_code.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker {

class ProducerState {
 public:
  struct Verdict {
    ErrorCode error = ErrorCode::kNone;
    // For a duplicate: the offset the original batch was stored at.
    std::optional<int64_t> duplicate_of;
  };

  // Checks a batch before it is appended. Batches without a producer id always pass.
  Verdict Check(const BatchHeader& batch) const;
  // Records a batch after it was appended at `base_offset`.
  void Record(const BatchHeader& batch, int64_t base_offset);

 private:
  struct Entry {
    int64_t base_offset;
    int32_t first_sequence;
    int32_t last_sequence;
  };
  struct Producer {
    int16_t epoch = -1;
    std::deque<Entry> recent;  // The last kRemembered batches, oldest first.
  };
  static constexpr size_t kRemembered = 5;

  std::unordered_map<int64_t, Producer> producers_;
};

}  // namespace floe::broker
