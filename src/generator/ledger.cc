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

PartitionLedger TotalOf(const TopicLedger& partitions) {
  PartitionLedger total;
  for (const auto& [partition, p] : partitions) Add(total, p);
  return total;
}

// {"partitions": {...}, "total": {...}} without the braces around it.
std::string TopicBodyJson(const TopicLedger& partitions) {
  std::string out = R"("partitions":{)";
  bool first = true;
  for (const auto& [partition, p] : partitions) {
    out += fmt::format(R"({}"{}":{})", first ? "" : ",", partition, PartitionJson(p));
    first = false;
  }
  out += fmt::format(R"(}},"total":{})", PartitionJson(TotalOf(partitions)));
  return out;
}

Result<TopicLedger> TopicFromJson(const nlohmann::json& json) {
  if (!json.contains("partitions") || !json["partitions"].is_object()) return Corruption("no 'partitions' object");
  TopicLedger partitions;
  for (const auto& [key, value] : json["partitions"].items()) {
    int32_t partition = -1;
    auto [end, parse_error] = std::from_chars(key.data(), key.data() + key.size(), partition);
    if (parse_error != std::errc() || end != key.data() + key.size() || partition < 0) {
      return Corruption("'{}' is not a partition number", key);
    }
    auto entry = PartitionFromJson(value);
    if (!entry) return Corruption("partition {}: {}", partition, entry.error().message());
    partitions[partition] = *entry;
  }
  return partitions;
}

}  // namespace

uint64_t EventIdHash(std::string_view event_id) { return XXH64(event_id.data(), event_id.size(), 0); }

TopicLedger& Ledger::EntryFor(std::string_view topic) {
  auto it = topics_.find(topic);
  if (it == topics_.end()) it = topics_.emplace(std::string(topic), TopicLedger()).first;
  return it->second;
}

void Ledger::RecordAcked(std::string_view topic, int32_t partition, std::string_view value, bool valid,
                         std::string_view event_id) {
  uint64_t value_hash = XXH64(value.data(), value.size(), 0);
  uint64_t id_hash = valid ? EventIdHash(event_id) : 0;
  std::lock_guard lock(mutex_);
  PartitionLedger& p = EntryFor(topic)[partition];
  ++p.acked;
  ++(valid ? p.acked_valid : p.acked_malformed);
  p.value_hash_sum += value_hash;
  p.event_id_hash_sum += id_hash;
}

void Ledger::RecordFailed(std::string_view topic, int32_t partition) {
  std::lock_guard lock(mutex_);
  ++EntryFor(topic)[partition].failed;
}

TopicLedger Ledger::Snapshot(std::string_view topic) const {
  std::lock_guard lock(mutex_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? TopicLedger() : it->second;
}

PartitionLedger Ledger::Total(std::string_view topic) const { return TotalOf(Snapshot(topic)); }

std::vector<std::string> Ledger::Topics() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [name, partitions] : topics_) names.push_back(name);
  return names;
}

std::string Ledger::ToJson(std::string_view main_topic) const {
  std::map<std::string, TopicLedger, std::less<>> topics;
  {
    std::lock_guard lock(mutex_);
    topics = topics_;
  }
  auto main = topics.find(main_topic);
  std::string out = fmt::format(R"({{"topic":"{}",{})", main_topic,
                                TopicBodyJson(main == topics.end() ? TopicLedger() : main->second));
  if (main != topics.end()) topics.erase(main);
  // Only when there are other topics, so a single-topic ledger reads exactly as before.
  if (!topics.empty()) {
    out += R"(,"topics":{)";
    bool first = true;
    for (const auto& [name, partitions] : topics) {
      out += fmt::format(R"({}"{}":{{{}}})", first ? "" : ",", name, TopicBodyJson(partitions));
      first = false;
    }
    out += "}";
  }
  out += "}";
  return out;
}

Status Ledger::WriteFile(const std::string& path, std::string_view main_topic) const {
  std::string json = ToJson(main_topic) + "\n";
  std::string temp = path + ".tmp";
  FILE* f = std::fopen(temp.c_str(), "w");
  if (f == nullptr) return ErrnoError(errno, "open", temp);
  bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) return ErrnoError(errno, "write", temp);
  if (std::rename(temp.c_str(), path.c_str()) != 0) return ErrnoError(errno, "rename", path);
  return OkStatus();
}

Status Ledger::Resume(const std::string& path, std::string_view main_topic) {
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
  if (!json.contains("topic") || json["topic"] != main_topic) {
    return InvalidArgument("ledger {} is for topic {}, not {}", path, json.value("topic", nlohmann::json()).dump(),
                           main_topic);
  }
  std::map<std::string, TopicLedger, std::less<>> topics;
  auto main = TopicFromJson(json);
  if (!main) return Corruption("ledger {}: {}", path, main.error().message());
  topics[std::string(main_topic)] = std::move(*main);
  if (json.contains("topics")) {
    if (!json["topics"].is_object()) return Corruption("ledger {}: 'topics' is not an object", path);
    for (const auto& [name, entry] : json["topics"].items()) {
      if (name == main_topic || !entry.is_object()) {
        return Corruption("ledger {}: topic '{}' is not a further topic's entry", path, name);
      }
      auto partitions = TopicFromJson(entry);
      if (!partitions) return Corruption("ledger {}: topic {}: {}", path, name, partitions.error().message());
      topics[name] = std::move(*partitions);
    }
  }
  std::lock_guard lock(mutex_);
  topics_ = std::move(topics);
  return OkStatus();
}

}  // namespace floe::generator
