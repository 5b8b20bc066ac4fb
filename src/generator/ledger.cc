#include "generator/ledger.h"

#include <cstdio>

#include <fmt/format.h>
#include <xxhash.h>

namespace floe::generator {
namespace {

void Add(PartitionLedger& total, const PartitionLedger& p) {
  total.acked += p.acked;
  total.acked_valid += p.acked_valid;
  total.acked_malformed += p.acked_malformed;
  total.failed += p.failed;
  total.value_hash_sum += p.value_hash_sum;
  total.event_id_hash_sum += p.event_id_hash_sum;
}

std::string PartitionJson(const PartitionLedger& p) {
  return fmt::format(
      R"({{"acked":{},"acked_valid":{},"acked_malformed":{},"failed":{},"value_hash_sum":"{:016x}","event_id_hash_sum":"{:016x}"}})",
      p.acked, p.acked_valid, p.acked_malformed, p.failed, p.value_hash_sum, p.event_id_hash_sum);
}

}  // namespace

uint64_t EventIdHash(std::string_view event_id) { return XXH64(event_id.data(), event_id.size(), 0); }

void Ledger::RecordAcked(int32_t partition, std::string_view value, bool valid, std::string_view event_id) {
  uint64_t value_hash = XXH64(value.data(), value.size(), 0);
  uint64_t id_hash = valid ? EventIdHash(event_id) : 0;
  std::lock_guard lock(mutex_);
  PartitionLedger& p = partitions_[partition];
  ++p.acked;
  ++(valid ? p.acked_valid : p.acked_malformed);
  p.value_hash_sum += value_hash;
  p.event_id_hash_sum += id_hash;
}

void Ledger::RecordFailed(int32_t partition) {
  std::lock_guard lock(mutex_);
  ++partitions_[partition].failed;
}

std::map<int32_t, PartitionLedger> Ledger::Snapshot() const {
  std::lock_guard lock(mutex_);
  return partitions_;
}

PartitionLedger Ledger::Total() const {
  PartitionLedger total;
  for (const auto& [partition, p] : Snapshot()) Add(total, p);
  return total;
}

std::string Ledger::ToJson(std::string_view topic) const {
  auto partitions = Snapshot();
  PartitionLedger total;
  std::string out = fmt::format(R"({{"topic":"{}","partitions":{{)", topic);
  bool first = true;
  for (const auto& [partition, p] : partitions) {
    out += fmt::format(R"({}"{}":{})", first ? "" : ",", partition, PartitionJson(p));
    first = false;
    Add(total, p);
  }
  out += fmt::format(R"(}},"total":{}}})", PartitionJson(total));
  return out;
}

Status Ledger::WriteFile(const std::string& path, std::string_view topic) const {
  std::string json = ToJson(topic) + "\n";
  std::string temp = path + ".tmp";
  FILE* f = std::fopen(temp.c_str(), "w");
  if (f == nullptr) return ErrnoError(errno, "open", temp);
  bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) return ErrnoError(errno, "write", temp);
  if (std::rename(temp.c_str(), path.c_str()) != 0) return ErrnoError(errno, "rename", path);
  return OkStatus();
}

}  // namespace floe::generator
