#include "broker/log/topic_registry.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/logging.h"

namespace floe::broker {
namespace {

constexpr int32_t kMaxPartitions = 10000;

Status WriteFileDurably(const std::string& path, const std::string& contents) {
  std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", tmp);
  std::string_view rest = contents;
  while (!rest.empty()) {
    ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return ErrnoError(err, "write", tmp);
    }
    rest.remove_prefix(static_cast<size_t>(n));
  }
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoError(err, "fsync", tmp);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return ErrnoError(errno, "rename", tmp);
  std::string dir = std::filesystem::path(path).parent_path().string();
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return OkStatus();
}

}  // namespace

Status ValidateTopicName(std::string_view name) {
  if (name.empty() || name.size() > 249) return InvalidArgument("topic name must have 1 to 249 characters");
  if (name == "." || name == "..") return InvalidArgument("topic name '{}' is not allowed", name);
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-';
    if (!ok) return InvalidArgument("topic name '{}' has a character outside [a-zA-Z0-9._-]", name);
  }
  return OkStatus();
}

std::string TopicRegistry::TopicDir(std::string_view name) const {
  return fmt::format("{}/topics/{}", data_dir_, name);
}

Result<std::unique_ptr<TopicRegistry>> TopicRegistry::Open(std::string data_dir, LogConfig defaults, Clock& clock,
                                                           Flusher* flusher) {
  std::unique_ptr<TopicRegistry> registry(new TopicRegistry(std::move(data_dir), defaults, clock, flusher));
  std::string root = registry->data_dir_ + "/topics";
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec) return IoError("create {}: {}", root, ec.message());
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    std::string name = entry.path().filename().string();
    if (!entry.is_directory() || !ValidateTopicName(name)) continue;
    if (!std::filesystem::exists(entry.path() / "topic.json")) continue;
    FLOE_ASSIGN_OR_RETURN(auto topic, registry->Load(name));
    registry->topics_.emplace(name, std::move(topic));
  }
  if (ec) return IoError("list {}: {}", root, ec.message());
  return registry;
}

Result<std::unique_ptr<Topic>> TopicRegistry::Load(const std::string& name) {
  std::string path = TopicDir(name) + "/topic.json";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto json = nlohmann::json::parse(text.str(), nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("partitions") || !json["partitions"].is_number_integer()) {
    return Corruption("{}: not a topic description", path);
  }
  auto topic = std::make_unique<Topic>();
  topic->name = name;
  int64_t partitions = json["partitions"].get<int64_t>();
  if (partitions < 1 || partitions > kMaxPartitions) return Corruption("{}: {} partitions", path, partitions);
  if (json.contains("configs") && json["configs"].is_object()) {
    for (auto& [key, value] : json["configs"].items()) {
      if (value.is_string()) topic->overrides[key] = value.get<std::string>();
    }
  }
  topic->config = defaults_;
  FLOE_RETURN_IF_ERROR_CTX(topic->config.Apply(topic->overrides), path);
  for (int64_t p = 0; p < partitions; ++p) {
    FLOE_ASSIGN_OR_RETURN(auto log, PartitionLog::Open(fmt::format("{}/{}", TopicDir(name), p), topic->config, clock_, flusher_));
    topic->partitions.push_back(std::move(log));
  }
  return topic;
}

Topic* TopicRegistry::Find(std::string_view name) {
  auto it = topics_.find(name);
  return it == topics_.end() ? nullptr : it->second.get();
}

Result<Topic*> TopicRegistry::Create(const std::string& name, int32_t partitions,
                                     const std::map<std::string, std::string>& configs) {
  FLOE_RETURN_IF_ERROR(ValidateTopicName(name));
  if (Find(name)) return AlreadyExists("topic '{}' already exists", name);
  if (partitions < 1 || partitions > kMaxPartitions) {
    return InvalidArgument("topic '{}': {} partitions (1 to {})", name, partitions, kMaxPartitions);
  }
  auto topic = std::make_unique<Topic>();
  topic->name = name;
  topic->overrides = configs;
  topic->config = defaults_;
  FLOE_RETURN_IF_ERROR(topic->config.Apply(configs));
  std::string dir = TopicDir(name);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("create {}: {}", dir, ec.message());
  for (int32_t p = 0; p < partitions; ++p) {
    FLOE_ASSIGN_OR_RETURN(auto log, PartitionLog::Open(fmt::format("{}/{}", dir, p), topic->config, clock_, flusher_));
    topic->partitions.push_back(std::move(log));
  }
  nlohmann::json json = {{"name", name}, {"partitions", partitions}, {"configs", configs}};
  // topic.json last: a crash before this leaves a folder that the next start ignores.
  FLOE_RETURN_IF_ERROR(WriteFileDurably(dir + "/topic.json", json.dump(2) + "\n"));
  Logger("broker")->info("created topic {} with {} partitions", name, partitions);
  Topic* raw = topic.get();
  topics_.emplace(name, std::move(topic));
  return raw;
}

Status TopicRegistry::AddPartitions(const std::string& name, int32_t total) {
  Topic* topic = Find(name);
  if (!topic) return NotFound("topic '{}' does not exist", name);
  auto current = static_cast<int32_t>(topic->partitions.size());
  if (total <= current || total > kMaxPartitions) {
    return InvalidArgument("topic '{}' has {} partitions; a new count must be more, up to {}", name, current, kMaxPartitions);
  }
  std::string dir = TopicDir(name);
  std::vector<std::shared_ptr<PartitionLog>> added;
  for (int32_t p = current; p < total; ++p) {
    FLOE_ASSIGN_OR_RETURN(auto log, PartitionLog::Open(fmt::format("{}/{}", dir, p), topic->config, clock_, flusher_));
    added.push_back(std::move(log));
  }
  nlohmann::json json = {{"name", name}, {"partitions", total}, {"configs", topic->overrides}};
  FLOE_RETURN_IF_ERROR(WriteFileDurably(dir + "/topic.json", json.dump(2) + "\n"));
  for (auto& log : added) topic->partitions.push_back(std::move(log));
  Logger("broker")->info("topic {} grew from {} to {} partitions", name, current, total);
  return OkStatus();
}

Status TopicRegistry::ReplaceConfigs(const std::string& name, const std::map<std::string, std::string>& overrides) {
  Topic* topic = Find(name);
  if (!topic) return NotFound("topic '{}' does not exist", name);
  LogConfig config = defaults_;
  FLOE_RETURN_IF_ERROR(config.Apply(overrides));
  nlohmann::json json = {{"name", name}, {"partitions", topic->partitions.size()}, {"configs", overrides}};
  FLOE_RETURN_IF_ERROR(WriteFileDurably(TopicDir(name) + "/topic.json", json.dump(2) + "\n"));
  topic->overrides = overrides;
  topic->config = config;
  for (auto& log : topic->partitions) log->set_config(config);
  Logger("broker")->info("topic {}: configs now {}", name, nlohmann::json(overrides).dump());
  return OkStatus();
}

Status TopicRegistry::Delete(const std::string& name) {
  auto it = topics_.find(name);
  if (it == topics_.end()) return NotFound("topic '{}' does not exist", name);
  std::string dir = TopicDir(name);
  std::string meta = dir + "/topic.json";
  if (::unlink(meta.c_str()) != 0 && errno != ENOENT) return ErrnoError(errno, "unlink", meta);
  for (auto& log : it->second->partitions) FLOE_RETURN_IF_ERROR(log->RemoveFiles());
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  topics_.erase(it);
  Logger("broker")->info("deleted topic {}", name);
  return OkStatus();
}

void TopicRegistry::ApplyRetention() {
  for (auto& [name, topic] : topics_) {
    for (auto& log : topic->partitions) {
      Status status = log->ApplyRetention();
      if (!status) Logger("broker")->error("retention of {}: {}", name, status.error().ToString());
    }
  }
}

}  // namespace floe::broker
