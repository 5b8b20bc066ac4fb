// Control batches (KIP-98): the transaction markers a coordinator writes into each partition a
// transaction touched. A control batch has attributes bits 4 (transactional) and 5 (control),
// the transaction's producer id and epoch, no sequence (-1), and exactly one record whose
// key is `int16 version (0) | int16 type` (0 abort, 1 commit) and whose value is
// `int16 version (0) | int32 coordinator epoch`. Consumers never hand these records to the
// application; read_committed consumers use them to close a transaction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::broker {

enum class ControlType : int16_t { kAbort = 0, kCommit = 1 };

struct ControlMarker {
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  ControlType type = ControlType::kAbort;
  int32_t coordinator_epoch = 0;
  int64_t timestamp_ms = 0;
};

// A complete control batch (base offset 0, to be stamped by the log), CRC included.
std::string BuildControlBatch(const ControlMarker& marker);

// The marker type in a whole control batch (header included). A batch that is not a
// well-formed control batch is a Corruption error naming what is wrong.
Result<ControlType> ParseControlType(std::string_view batch);

}  // namespace floe::broker
