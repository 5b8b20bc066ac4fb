#include "broker/txn/transaction_metadata.h"

#include "base/bytes.h"

namespace floe::broker {
namespace {

constexpr uint8_t kRecordVersion = 1;

void PutString(ByteWriter& w, std::string_view s) {
  w.AppendBig<uint16_t>(static_cast<uint16_t>(s.size()));
  w.AppendBytes(s);
}

Result<std::string> GetString(ByteReader& r, std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(uint16_t length, r.ReadBig<uint16_t>(what));
  FLOE_ASSIGN_OR_RETURN(std::string_view bytes, r.ReadBytes(length, what));
  return std::string(bytes);
}

// A count read from the record, checked against the bytes left (each element takes at least
// `min_size` bytes) so garbage cannot make replay allocate.
Result<uint32_t> GetCount(ByteReader& r, std::string_view what, size_t min_size) {
  FLOE_ASSIGN_OR_RETURN(uint32_t count, r.ReadBig<uint32_t>(what));
  if (static_cast<uint64_t>(count) * min_size > r.remaining()) {
    return Corruption("transaction record: {} count {} exceeds the {} bytes left", what, count, r.remaining());
  }
  return count;
}

}  // namespace

std::string_view TxnStateName(TxnState state) {
  switch (state) {
    case TxnState::kEmpty: return "Empty";
    case TxnState::kOngoing: return "Ongoing";
    case TxnState::kPrepareCommit: return "PrepareCommit";
    case TxnState::kPrepareAbort: return "PrepareAbort";
    case TxnState::kCompleteCommit: return "CompleteCommit";
    case TxnState::kCompleteAbort: return "CompleteAbort";
    case TxnState::kDead: return "Dead";
  }
  return "Unknown";
}

bool TransactionMetadata::operator==(const TransactionMetadata& o) const {
  auto same_offsets = [&] {
    if (offsets.size() != o.offsets.size()) return false;
    for (auto a = offsets.begin(), b = o.offsets.begin(); a != offsets.end(); ++a, ++b) {
      if (a->first != b->first || a->second.offset != b->second.offset || a->second.metadata != b->second.metadata) {
        return false;
      }
    }
    return true;
  };
  return transactional_id == o.transactional_id && producer_id == o.producer_id &&
         producer_epoch == o.producer_epoch && timeout_ms == o.timeout_ms && state == o.state &&
         started_ms == o.started_ms && updated_ms == o.updated_ms && partitions == o.partitions && groups == o.groups && same_offsets();
}

std::string EncodeTransactionRecord(const TransactionMetadata& txn) {
  std::string out;
  ByteWriter w(&out);
  w.AppendBig<uint8_t>(kRecordVersion);
  PutString(w, txn.transactional_id);
  w.AppendBig<int64_t>(txn.producer_id);
  w.AppendBig<int16_t>(txn.producer_epoch);
  w.AppendBig<int32_t>(txn.timeout_ms);
  w.AppendBig<uint8_t>(static_cast<uint8_t>(txn.state));
  w.AppendBig<int64_t>(txn.started_ms);
  w.AppendBig<int64_t>(txn.updated_ms);
  w.AppendBig<uint32_t>(static_cast<uint32_t>(txn.partitions.size()));
  for (const TxnPartition& p : txn.partitions) {
    PutString(w, p.topic);
    w.AppendBig<int32_t>(p.partition);
  }
  w.AppendBig<uint32_t>(static_cast<uint32_t>(txn.groups.size()));
  for (const std::string& group : txn.groups) PutString(w, group);
  w.AppendBig<uint32_t>(static_cast<uint32_t>(txn.offsets.size()));
  for (const auto& [key, value] : txn.offsets) {
    const auto& [group, topic, partition] = key;
    PutString(w, group);
    PutString(w, topic);
    w.AppendBig<int32_t>(partition);
    w.AppendBig<int64_t>(value.offset);
    w.AppendBig<int32_t>(value.metadata ? static_cast<int32_t>(value.metadata->size()) : -1);
    if (value.metadata) w.AppendBytes(*value.metadata);
  }
  return out;
}

Result<TransactionMetadata> DecodeTransactionRecord(std::string_view body) {
  ByteReader r(body.data(), body.size());
  TransactionMetadata txn;
  FLOE_ASSIGN_OR_RETURN(uint8_t version, r.ReadBig<uint8_t>("version"));
  if (version != kRecordVersion) return Corruption("transaction record version {}", version);
  FLOE_ASSIGN_OR_RETURN(txn.transactional_id, GetString(r, "transactional id"));
  FLOE_ASSIGN_OR_RETURN(txn.producer_id, r.ReadBig<int64_t>("producer id"));
  FLOE_ASSIGN_OR_RETURN(txn.producer_epoch, r.ReadBig<int16_t>("producer epoch"));
  FLOE_ASSIGN_OR_RETURN(txn.timeout_ms, r.ReadBig<int32_t>("timeout"));
  FLOE_ASSIGN_OR_RETURN(uint8_t state, r.ReadBig<uint8_t>("state"));
  if (state > static_cast<uint8_t>(TxnState::kDead)) return Corruption("transaction record: state {}", state);
  txn.state = static_cast<TxnState>(state);
  FLOE_ASSIGN_OR_RETURN(txn.started_ms, r.ReadBig<int64_t>("started"));
  FLOE_ASSIGN_OR_RETURN(txn.updated_ms, r.ReadBig<int64_t>("updated"));
  if (txn.transactional_id.empty() || txn.producer_id < 0 || txn.producer_epoch < 0 || txn.timeout_ms <= 0) {
    return Corruption("transaction record for '{}': producer {} epoch {} timeout {}", txn.transactional_id,
                      txn.producer_id, txn.producer_epoch, txn.timeout_ms);
  }
  FLOE_ASSIGN_OR_RETURN(uint32_t partitions, GetCount(r, "partitions", 6));
  for (uint32_t i = 0; i < partitions; ++i) {
    TxnPartition p;
    FLOE_ASSIGN_OR_RETURN(p.topic, GetString(r, "topic"));
    FLOE_ASSIGN_OR_RETURN(p.partition, r.ReadBig<int32_t>("partition"));
    txn.partitions.insert(std::move(p));
  }
  FLOE_ASSIGN_OR_RETURN(uint32_t groups, GetCount(r, "groups", 2));
  for (uint32_t i = 0; i < groups; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string group, GetString(r, "group"));
    txn.groups.insert(std::move(group));
  }
  FLOE_ASSIGN_OR_RETURN(uint32_t offsets, GetCount(r, "offsets", 20));
  for (uint32_t i = 0; i < offsets; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string group, GetString(r, "offset group"));
    FLOE_ASSIGN_OR_RETURN(std::string topic, GetString(r, "offset topic"));
    FLOE_ASSIGN_OR_RETURN(int32_t partition, r.ReadBig<int32_t>("offset partition"));
    CommittedOffset value;
    FLOE_ASSIGN_OR_RETURN(value.offset, r.ReadBig<int64_t>("offset"));
    FLOE_ASSIGN_OR_RETURN(int32_t meta_length, r.ReadBig<int32_t>("offset metadata length"));
    if (meta_length < -1) return Corruption("transaction record: metadata length {}", meta_length);
    if (meta_length >= 0) {
      FLOE_ASSIGN_OR_RETURN(std::string_view meta, r.ReadBytes(static_cast<size_t>(meta_length), "offset metadata"));
      value.metadata = std::string(meta);
    }
    txn.offsets[OffsetStore::Key{std::move(group), std::move(topic), partition}] = std::move(value);
  }
  if (!r.empty()) return Corruption("transaction record: {} trailing bytes", r.remaining());
  return txn;
}

}  // namespace floe::broker
