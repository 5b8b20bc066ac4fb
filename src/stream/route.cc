#include "stream/route.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>

namespace floe::stream {
namespace {

constexpr size_t kMaxRouteFileBytes = 64 << 10;
constexpr size_t kMaxRules = 1000;
constexpr size_t kMaxPatternBytes = 1000;
constexpr size_t kMaxNameBytes = 200;  // Of a name made from a route value (prefix included).

bool IsNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// A value as it may appear in a dead letter's reason: bounded and without control bytes.
std::string Shown(std::string_view value) {
  std::string out;
  for (char c : value.substr(0, 64)) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  if (value.size() > 64) out += "...";
  return out;
}

}  // namespace

Result<RouteValueSource> ParseTableFrom(std::string_view text) {
  if (text == "topic") return RouteValueSource{};
  if (text.starts_with("field:")) {
    std::string_view field = text.substr(6);
    if (field.empty() || field.size() > 255) {
      return InvalidArgument("--table-from '{}': the field name must have 1 to 255 bytes", Shown(text));
    }
    for (unsigned char c : field) {
      if (c < 0x20 || c == 0x7f) return InvalidArgument("--table-from: the field name contains a control character");
    }
    return RouteValueSource{.kind = RouteValueSource::Kind::kField, .field = std::string(field)};
  }
  return InvalidArgument("--table-from '{}': expected topic or field:NAME", Shown(text));
}

Result<RoutedTableName> ParseRoutedTable(std::string_view text) {
  RoutedTableName names;
  std::string_view ns_text = text;
  if (text.ends_with('*')) {
    size_t dot = text.rfind('.');
    if (dot == std::string_view::npos) {
      return InvalidArgument("--table '{}': a prefix needs a namespace, NS.PREFIX*", Shown(text));
    }
    ns_text = text.substr(0, dot);
    names.prefix = std::string(text.substr(dot + 1, text.size() - dot - 2));
    if (names.prefix.find('*') != std::string::npos) {
      return InvalidArgument("--table '{}': '*' may only end the prefix", Shown(text));
    }
    if (!std::all_of(names.prefix.begin(), names.prefix.end(), IsNameByte)) {
      return InvalidArgument("--table '{}': a prefix has letters, digits, '_' and '-' only", Shown(text));
    }
  }
  if (ns_text.empty()) return InvalidArgument("--table: routed tables need a namespace (--table NS or NS.PREFIX*)");
  FLOE_ASSIGN_OR_RETURN_CTX(names.ns, catalog::NamespaceFromString(ns_text), "--table");
  return names;
}

Result<std::vector<RouteRule>> ParseRouteFile(std::string_view text, std::string_view file_name,
                                              const RoutedTableName& defaults) {
  if (text.size() > kMaxRouteFileBytes) {
    return InvalidArgument("route file {}: {} bytes, more than the {} a route file may have", file_name, text.size(),
                           kMaxRouteFileBytes);
  }
  // Control bytes first, over the whole file: a binary file is named as one at its first such
  // byte, not at whatever line happens to fail to parse before it.
  {
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      auto c = static_cast<unsigned char>(text[i]);
      if (c == '\n') {
        ++line;
        line_start = i + 1;
      } else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
        return InvalidArgument("route file {} line {}, column {}: control byte (not a text file?)", file_name, line,
                               i - line_start + 1);
      }
    }
  }
  std::vector<RouteRule> rules;
  int line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    auto fail = [&](size_t column, std::string message) -> Result<std::vector<RouteRule>> {
      return InvalidArgument("route file {} line {}, column {}: {}", file_name, line_number, column + 1, message);
    };
    std::string_view content = Trim(line);
    if (content.empty() || content.front() == '#') continue;
    const size_t content_column = static_cast<size_t>(content.data() - line.data());
    size_t arrow = content.rfind("->");
    if (arrow == std::string_view::npos) return fail(content_column, "expected 'REGEX -> TABLE'");
    std::string_view pattern = Trim(content.substr(0, arrow));
    std::string_view target = Trim(content.substr(arrow + 2));
    const size_t target_column = static_cast<size_t>(target.data() - line.data());
    if (pattern.empty()) return fail(content_column, "the regular expression before '->' is empty");
    if (pattern.size() > kMaxPatternBytes) {
      return fail(content_column,
                  fmt::format("the regular expression has {} bytes, more than {}", pattern.size(), kMaxPatternBytes));
    }
    if (target.empty()) return fail(static_cast<size_t>(content_column + arrow + 2), "no table after '->'");
    if (rules.size() == kMaxRules) return fail(content_column, fmt::format("more than {} routes", kMaxRules));
    RouteRule rule;
    rule.pattern = std::string(pattern);
    rule.line = line_number;
    try {
      rule.regex = std::regex(rule.pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      return fail(content_column, fmt::format("bad regular expression '{}': {}", Shown(pattern), error.what()));
    }
    if (target.find('.') == std::string_view::npos) {
      rule.table.ns = defaults.ns;
      rule.table.name = std::string(target);
      if (auto valid = catalog::ValidateTableName(rule.table.name); !valid) {
        return fail(target_column, valid.error().message());
      }
    } else {
      auto id = catalog::IdentifierFromString(target);
      if (!id) return fail(target_column, id.error().message());
      rule.table = std::move(*id);
    }
    if (rule.table.ns.empty()) return fail(target_column, "the table needs a namespace (NS.NAME or --table NS)");
    rules.push_back(std::move(rule));
  }
  if (rules.empty()) return InvalidArgument("route file {} has no routes ('REGEX -> TABLE' lines)", file_name);
  return rules;
}

struct RouteValueReader::JsonParser {
  simdjson::dom::parser parser;
};

RouteValueReader::RouteValueReader(RouteValueSource source)
    : source_(std::move(source)), json_(std::make_unique<JsonParser>()) {}

RouteValueReader::~RouteValueReader() = default;

Result<std::string> RouteValueReader::Read(std::string_view topic, std::string_view value, bool value_null) {
  if (source_.kind == RouteValueSource::Kind::kTopic) return std::string(topic);
  const std::string& field = source_.field;
  if (value_null) return InvalidArgument("route: a null value has no field '{}'", field);
  simdjson::dom::element root;
  if (auto error = json_->parser.parse(value.data(), value.size(), /*realloc_if_needed=*/true).get(root)) {
    return InvalidArgument("route: the value is not JSON ({}), so it has no field '{}'", simdjson::error_message(error),
                           field);
  }
  simdjson::dom::object object;
  if (root.get_object().get(object)) return InvalidArgument("route: the value is not a JSON object");
  simdjson::dom::element element;
  if (object[field].get(element)) return InvalidArgument("route: the value has no field '{}'", field);
  std::string_view text;
  if (!element.get_string().get(text)) return std::string(text);
  int64_t number = 0;
  if (!element.get_int64().get(number)) return std::to_string(number);
  return InvalidArgument("route: field '{}' is {}", field,
                         element.is_null() ? "null, not a string" : "not a string or an integer");
}

RouteResult Router::Resolve(std::string_view value) const {
  RouteResult result;
  if (value.size() > kMaxValueBytes) {
    result.reason =
        fmt::format("route: the value '{}' has {} bytes, more than {}", Shown(value), value.size(), kMaxValueBytes);
    return result;
  }
  if (!rules_.empty()) {
    for (const RouteRule& rule : rules_) {
      if (!std::regex_match(value.begin(), value.end(), rule.regex)) continue;
      if (std::find(result.tables.begin(), result.tables.end(), rule.table) == result.tables.end()) {
        result.tables.push_back(rule.table);
      }
    }
    if (result.tables.empty()) result.reason = fmt::format("route: no route matches '{}'", Shown(value));
  } else {
    if (value.empty() || !std::all_of(value.begin(), value.end(), IsNameByte) ||
        names_.prefix.size() + value.size() > kMaxNameBytes) {
      result.reason = fmt::format(
          "route: '{}' is not a table name (1 to {} letters, digits, '_' or '-'; map other values with --route)",
          Shown(value), kMaxNameBytes - names_.prefix.size());
      return result;
    }
    result.tables.push_back({names_.ns, names_.prefix + std::string(value)});
  }
  for (const catalog::TableIdentifier& table : result.tables) {
    if (table == dead_letters_) {
      result.tables.clear();
      result.reason = fmt::format("route: '{}' names the dead-letter table {}", Shown(value),
                                  catalog::IdentifierToString(dead_letters_));
      break;
    }
  }
  return result;
}

}  // namespace floe::stream
