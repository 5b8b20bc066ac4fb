#include "serve/session_properties.h"

#include <cctype>
#include <string>

#include "base/time_zone.h"
#include "base/units.h"

namespace floe::serve {
namespace {

std::string Canonical(std::string_view name) {
  std::string out;
  for (char c : name) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (out.starts_with("floe.")) out.erase(0, 5);
  return out;
}

const std::string* Find(const SessionState& session, std::string_view name) {
  for (const auto& [key, value] : session.properties) {
    if (Canonical(key) == name) return &value;
  }
  return nullptr;
}

}  // namespace

Status CheckSessionProperty(std::string_view name, std::string_view value) {
  std::string key = Canonical(name);
  if (key == "freshness") {
    if (auto parsed = sql::ParseFreshness(value); !parsed) return std::unexpected(parsed.error());
  }
  if (key == "timezone" || key == "time zone") {
    if (auto zone = TimeZone::Find(value); !zone) {
      return CodedError(ErrorCode::kInvalidParameterValue, "invalid value for parameter \"TimeZone\": \"{}\" ({})",
                        value, zone.error().message());
    }
  }
  if (key == "live_tail_max_bytes") {
    if (auto parsed = ParseDataSize(value); !parsed) return std::unexpected(parsed.error());
  }
  return OkStatus();
}

sql::QueryOptions QueryOptionsFor(const SessionState& session, const std::atomic<bool>* cancel) {
  sql::QueryOptions options;
  options.cancel = cancel;
  if (const std::string* v = Find(session, "freshness")) {
    if (auto parsed = sql::ParseFreshness(*v)) options.freshness = *parsed;
  }
  if (const std::string* v = Find(session, "live_tail_max_bytes")) {
    if (auto parsed = ParseDataSize(*v)) options.live_tail_max_bytes = *parsed;
  }
  return options;
}

}  // namespace floe::serve
