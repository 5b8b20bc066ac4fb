// What the transaction coordinator knows about one transactional id (KIP-98), and the record
// that carries it in the transaction log. Each state change writes the whole metadata as one
// record, so replay keeps the last record per transactional id.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "base/result.h"
#include "broker/group/offset_store.h"

namespace floe::broker {

// KIP-98's coordinator states. Complete* keep the last outcome so that a retried EndTxn is
// answered the same way.
enum class TxnState : uint8_t {
  kEmpty = 0,
  kOngoing = 1,
  kPrepareCommit = 2,
  kPrepareAbort = 3,
  kCompleteCommit = 4,
  kCompleteAbort = 5,
  // Only in the log: the transactional id expired and is forgotten on replay.
  kDead = 6,
};
std::string_view TxnStateName(TxnState state);

struct TxnPartition {
  std::string topic;
  int32_t partition = 0;
  auto operator<=>(const TxnPartition&) const = default;
};

struct TransactionMetadata {
  std::string transactional_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t timeout_ms = 0;
  TxnState state = TxnState::kEmpty;
  int64_t started_ms = -1;  // When the transaction became Ongoing (wall clock), for its timeout.
  int64_t updated_ms = -1;  // The last state change (wall clock), for the id's expiration.
  std::set<TxnPartition> partitions;
  std::set<std::string> groups;  // Groups added by AddOffsetsToTxn.
  // Offsets of TxnOffsetCommit, made visible to the groups only when the transaction commits.
  std::map<OffsetStore::Key, CommittedOffset> offsets;

  bool operator==(const TransactionMetadata&) const;
};

// Record body (big-endian): u8 version (1) | u16 len, transactional id | i64 producer id |
// i16 epoch | i32 timeout ms | u8 state | i64 started ms | i64 updated ms | u32 n, n x (u16 len, topic | i32
// partition) | u32 n, n x (u16 len, group) | u32 n, n x (u16 len, group | u16 len, topic |
// i32 partition | i64 offset | i32 len (-1 null), metadata). Names longer than 65535 bytes are
// refused before they are ever recorded.
std::string EncodeTransactionRecord(const TransactionMetadata& txn);
// Decodes one record body; anything malformed or with trailing bytes is a Corruption error.
Result<TransactionMetadata> DecodeTransactionRecord(std::string_view body);

}  // namespace floe::broker
