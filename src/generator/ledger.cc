#include "generator/ledger.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
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

constexpr uintmax_t kMaxLedgerBytes = 16u << 20;  // A few thousand partitions at most.

Result<uint64_t> Count(const nlohmann::json& p, const char* key) {
  if (!p.contains(key) || !p[key].is_number_unsigned()) return Corruption("'{}' is not a count", key);
  return p[key].get<uint64_t>();
}

Result<uint64_t> HashSum(const nlohmann::json& p, const char* key) {
  if (!p.contains(key) || !p[key].is_string()) return Corruption("'{}' is not a hex sum", key);
  const std::string& text = p[key].get_ref<const std::string&>();
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (text.size() != 16 || error != std::errc() || end != text.data() + text.size()) {
    return Corruption("'{}' is not 16 hex digits", key);
  }
  return value;
}

Result<PartitionLedger> PartitionFromJson(const nlohmann::json& p) {
  if (!p.is_object()) return Corruption("a partition's entry is not an object");
  PartitionLedger out;
  FLOE_ASSIGN_OR_RETURN(out.acked, Count(p, "acked"));
  FLOE_ASSIGN_OR_RETURN(out.acked_valid, Count(p, "acked_valid"));
  FLOE_ASSIGN_OR_RETURN(out.acked_malformed, Count(p, "acked_malformed"));
  FLOE_ASSIGN_OR_RETURN(out.failed, Count(p, "failed"));
  FLOE_ASSIGN_OR_RETURN(out.value_hash_sum, HashSum(p, "value_hash_sum"));
  FLOE_ASSIGN_OR_RETURN(out.event_id_hash_sum, HashSum(p, "event_id_hash_sum"));
  if (out.acked_valid + out.acked_malformed != out.acked) return Corruption("valid + malformed != acked");
  return out;
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

Status Ledger::Resume(const std::string& path, std::string_view topic) {
  std::error_code error;
  uintmax_t size = std::filesystem::file_size(path, error);
  if (error == std::errc::no_such_file_or_directory) return OkStatus();
  if (error) return IoError("ledger {}: {}", path, error.message());
  if (size > kMaxLedgerBytes) return Corruption("ledger {}: {} bytes is too large for a ledger", path, size);
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return IoError("ledger {}: cannot read it", path);
  auto json = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return Corruption("ledger {}: not a JSON object", path);
  if (!json.contains("topic") || json["topic"] != topic) {
    return InvalidArgument("ledger {} is for topic {}, not {}", path, json.value("topic", nlohmann::json()).dump(), topic);
  }
  if (!json.contains("partitions") || !json["partitions"].is_object()) {
    return Corruption("ledger {}: no 'partitions' object", path);
  }
  std::map<int32_t, PartitionLedger> partitions;
  for (const auto& [key, value] : json["partitions"].items()) {
    int32_t partition = -1;
    auto [end, parse_error] = std::from_chars(key.data(), key.data() + key.size(), partition);
    if (parse_error != std::errc() || end != key.data() + key.size() || partition < 0) {
      return Corruption("ledger {}: '{}' is not a partition number", path, key);
    }
    auto entry = PartitionFromJson(value);
    if (!entry) return Corruption("ledger {}: partition {}: {}", path, partition, entry.error().message());
    partitions[partition] = *entry;
  }
  std::lock_guard lock(mutex_);
  partitions_ = std::move(partitions);
  return OkStatus();
}

}  // namespace floe::generator
