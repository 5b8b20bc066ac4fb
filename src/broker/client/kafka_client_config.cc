#include "broker/client/kafka_client_config.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace floe::broker {
namespace {

// A properties file is a few lines of settings; anything bigger is not one.
constexpr size_t kMaxPropertiesBytes = 1 << 20;

std::string_view Trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

}  // namespace

Result<KafkaSettings> ParseKafkaProperties(std::string_view text, std::string_view source) {
  if (text.size() > kMaxPropertiesBytes) {
    return InvalidArgument("{}: {} bytes is not a Kafka client properties file (at most {})", source, text.size(),
                           kMaxPropertiesBytes);
  }
  KafkaSettings settings;
  int line_number = 0;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view line = Trim(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    if (line.find('\0') != std::string_view::npos) {
      return InvalidArgument("{}:{}: a NUL byte; this is not a properties file", source, line_number);
    }
    size_t equals = line.find('=');
    if (equals == std::string_view::npos || Trim(line.substr(0, equals)).empty()) {
      return InvalidArgument("{}:{}: expected key=value, got '{}'", source, line_number,
                             line.substr(0, std::min<size_t>(line.size(), 80)));
    }
    settings.emplace_back(std::string(Trim(line.substr(0, equals))), std::string(Trim(line.substr(equals + 1))));
  }
  return settings;
}

Result<KafkaSettings> KafkaSettingsFromEnvironment() {
  const char* path = std::getenv(std::string(kKafkaClientConfigVariable).c_str());
  if (path == nullptr || *path == '\0') return KafkaSettings{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("{}={}: the file cannot be read", kKafkaClientConfigVariable, path);
  std::ostringstream text;
  text << in.rdbuf();
  return ParseKafkaProperties(text.str(), path);
}

Result<rd_kafka_conf_s*> MakeKafkaConf(const KafkaSettings& defaults, const KafkaSettings& overrides,
                                       std::string_view client) {
  FLOE_ASSIGN_OR_RETURN(KafkaSettings from_file, KafkaSettingsFromEnvironment());
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  for (const KafkaSettings* layer : std::initializer_list<const KafkaSettings*>{&defaults, &from_file, &overrides}) {
    for (const auto& [key, value] : *layer) {
      if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        // The value is left out: it may be a password.
        return InvalidArgument("{}: Kafka client setting {}{}: {}", client, key,
                               layer == &from_file ? fmt::format(" (from {})", kKafkaClientConfigVariable) : "",
                               error);
      }
    }
  }
  return conf;
}

}  // namespace floe::broker
