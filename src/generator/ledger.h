// Ledger: what the broker acknowledged, per partition, so reconciliation can be exact.
//
// For every acknowledged message it counts the message and adds a 64-bit hash of its value to an
// order-independent sum; for valid events it also sums a hash of the event id, which a reader of
// the table can recompute from the rows it finds (see EventIdHash). Updated by the producer's
// delivery callbacks, read by status pages: thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::generator {

struct PartitionLedger {
  uint64_t acked = 0;            // Messages the broker acknowledged.
  uint64_t acked_valid = 0;      // Of which valid events (expected in the table).
  uint64_t acked_malformed = 0;  // Of which malformed (expected in the dead-letter table).
  uint64_t failed = 0;           // Messages whose delivery failed (never acknowledged).
  uint64_t value_hash_sum = 0;   // Sum over acknowledged values of XXH64(value), wrapping.
  uint64_t event_id_hash_sum = 0;  // Sum over acknowledged valid events of EventIdHash(event_id).

  bool operator==(const PartitionLedger&) const = default;
};

uint64_t EventIdHash(std::string_view event_id);

class Ledger {
 public:
  void RecordAcked(int32_t partition, std::string_view value, bool valid, std::string_view event_id);
  void RecordFailed(int32_t partition);

  std::map<int32_t, PartitionLedger> Snapshot() const;
  PartitionLedger Total() const;

  // {"topic": ..., "partitions": {"0": {...}, ...}, "total": {...}}
  std::string ToJson(std::string_view topic) const;
  // Writes ToJson atomically (temp file + rename) so a reader never sees half a ledger.
  Status WriteFile(const std::string& path, std::string_view topic) const;
  // Continues the ledger a previous run wrote to `path` for `topic` (a missing file is a fresh
  // start), so counts stay comparable with a table that kept everything. A file that is not a
  // ledger of that topic is refused rather than overwritten. Call before recording.
  Status Resume(const std::string& path, std::string_view topic);

 private:
  mutable std::mutex mutex_;
  std::map<int32_t, PartitionLedger> partitions_;  // Guarded by mutex_.
};

}  // namespace floe::generator
