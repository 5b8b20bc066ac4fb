#include "serve/session_properties.h"

#include <cctype>
#include <charconv>
#include <string>

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

Result<int64_t> ParseDataSize(std::string_view text) {
  std::string_view rest = text;
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  int64_t number = 0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), number);
  if (ec != std::errc() || number < 0) return InvalidArgument("data size '{}' is not a number of bytes such as 256MB", text);
  std::string unit = Canonical(std::string_view(end, static_cast<size_t>(rest.data() + rest.size() - end)));
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  while (!unit.empty() && unit.back() == ' ') unit.pop_back();
  int shift = -1;
  if (unit.empty() || unit == "b" || unit == "bytes") shift = 0;
  if (unit == "kb" || unit == "kib") shift = 10;
  if (unit == "mb" || unit == "mib") shift = 20;
  if (unit == "gb" || unit == "gib") shift = 30;
  if (unit == "tb" || unit == "tib") shift = 40;
  if (shift < 0) return InvalidArgument("data size '{}': unknown unit '{}' (B, kB, MB, GB or TB)", text, unit);
  if (number > (int64_t{1} << (62 - shift))) return InvalidArgument("data size '{}' is too large", text);
  return number << shift;
}

Status CheckSessionProperty(std::string_view name, std::string_view value) {
  std::string key = Canonical(name);
  if (key == "freshness") {
    if (auto parsed = sql::ParseFreshness(value); !parsed) return std::unexpected(parsed.error());
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
