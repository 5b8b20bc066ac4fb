// Ledger: what the broker acknowledged, per topic and partition, so reconciliation can be exact.
//
// For every acknowledged message it counts the message and adds a 64-bit hash of its value to an
// order-independent sum; for valid events it also sums a hash of the event's id (`event_id`,
// `payment_id`, `shipment_id`: the first field the generator writes), which a reader of the table
// can recompute from the rows it finds (see EventIdHash). One file holds every topic: the main
// topic (the orders) at the top level, as ledgers were before there were more topics, and the
// others under "topics" (docs/orders.md). Updated by the producer's delivery callbacks, read by
// status pages: thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

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

using TopicLedger = std::map<int32_t, PartitionLedger>;  // By partition.

class Ledger {
 public:
  void RecordAcked(std::string_view topic, int32_t partition, std::string_view value, bool valid,
                   std::string_view event_id);
  void RecordFailed(std::string_view topic, int32_t partition);

  TopicLedger Snapshot(std::string_view topic) const;
  PartitionLedger Total(std::string_view topic) const;
  std::vector<std::string> Topics() const;  // Every topic with an entry, sorted.

  // {"topic": main, "partitions": {"0": {...}, ...}, "total": {...}}, and when other topics have
  // entries, "topics": {"payments": {"partitions": {...}, "total": {...}}, ...}.
  std::string ToJson(std::string_view main_topic) const;
  // Writes ToJson atomically (temp file + rename) so a reader never sees half a ledger.
  Status WriteFile(const std::string& path, std::string_view main_topic) const;
  // Continues the ledger a previous run wrote to `path` for `main_topic` (a missing file is a
  // fresh start), with every other topic it holds, so counts stay comparable with tables that
  // kept everything. A file that is not a ledger of that main topic is refused rather than
  // overwritten. Call before recording.
  Status Resume(const std::string& path, std::string_view main_topic);

 private:
  // `topic`'s entry, made on first use (a lookup, not a string copy, on every later report).
  // Requires mutex_.
  TopicLedger& EntryFor(std::string_view topic);

  mutable std::mutex mutex_;
  std::map<std::string, TopicLedger, std::less<>> topics_;  // Guarded by mutex_.
};

}  // namespace floe::generator
