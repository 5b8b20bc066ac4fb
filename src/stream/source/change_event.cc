#include "stream/source/change_event.h"

#include <fmt/format.h>
#include <simdjson.h>

namespace floe::stream {
namespace {

std::string_view Trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

void AppendJsonString(std::string* out, std::string_view text) {
  *out += '"';
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += static_cast<char>(c);
    } else if (c < 0x20) {
      *out += fmt::format("\\u{:04x}", c);
    } else {
      *out += static_cast<char>(c);
    }
  }
  *out += '"';
}

std::string ColumnList(const std::vector<std::string>& columns) {
  std::string out;
  for (const std::string& c : columns) out += (out.empty() ? "" : ", ") + c;
  return out;
}

}  // namespace

struct ChangeEventParser::JsonParser {
  simdjson::dom::parser parser;
};

Result<Envelope> ParseEnvelope(std::string_view name) {
  if (name == "none" || name.empty()) return Envelope::kNone;
  if (name == "debezium") return Envelope::kDebezium;
  return InvalidArgument("--envelope '{}': expected none or debezium", name);
}

ChangeEventParser::ChangeEventParser(Envelope envelope, std::vector<std::string> key_columns, bool single_key_is_string)
    : envelope_(envelope),
      key_columns_(std::move(key_columns)),
      single_key_is_string_(single_key_is_string),
      json_(std::make_unique<JsonParser>()) {}

ChangeEventParser::~ChangeEventParser() = default;

Result<ChangeEvent> ChangeEventParser::Parse(std::string_view key, bool key_null, std::string_view value,
                                             bool value_null) {
  if (value_null) return DeleteByMessageKey(key, key_null);
  if (envelope_ == Envelope::kDebezium) return ParseDebezium(key, key_null, value);
  ChangeEvent event;
  event.kind = ChangeEvent::Kind::kUpsert;
  event.view = value;
  return event;
}

Result<ChangeEvent> ChangeEventParser::DeleteByMessageKey(std::string_view key, bool key_null) const {
  if (key_null) return InvalidArgument("a tombstone (null value) without a message key: no key to delete");
  std::string_view text = Trim(key);
  if (text.empty()) return InvalidArgument("a tombstone (null value) with an empty message key: no key to delete");
  ChangeEvent event;
  event.kind = ChangeEvent::Kind::kDelete;
  if (text.front() == '{') {
    event.view = text;  // The key decoder checks it holds the key columns.
    return event;
  }
  if (key_columns_.size() != 1) {
    return InvalidArgument("the message key of a tombstone must be a JSON object with the key columns ({}), not {}",
                           ColumnList(key_columns_), text.substr(0, 64));
  }
  event.owned = "{";
  AppendJsonString(&event.owned, key_columns_[0]);
  event.owned += ':';
  if (single_key_is_string_ && text.front() != '"') {
    AppendJsonString(&event.owned, text);  // Unquoted text: the string itself.
  } else {
    event.owned += text;
  }
  event.owned += '}';
  event.is_owned = true;
  return event;
}

Result<ChangeEvent> ChangeEventParser::ParseDebezium(std::string_view key, bool key_null, std::string_view value) {
  simdjson::dom::element root;
  if (auto error = json_->parser.parse(value.data(), value.size(), /*realloc_if_needed=*/true).get(root)) {
    return InvalidArgument("not a Debezium change event: {}", simdjson::error_message(error));
  }
  simdjson::dom::object event;
  if (root.get_object().get(event)) return InvalidArgument("not a Debezium change event: not a JSON object");
  // The {"schema", "payload"} wrapper of the JSON converter with schemas enabled.
  simdjson::dom::element payload;
  if (!event["payload"].get(payload) && event["op"].error() == simdjson::NO_SUCH_FIELD) {
    if (payload.is_null()) return DeleteByMessageKey(key, key_null);
    if (payload.get_object().get(event))
      return InvalidArgument("not a Debezium change event: payload is not an object");
  }
  std::string_view op;
  if (event["op"].get_string().get(op)) {
    return InvalidArgument("not a Debezium change event: no \"op\" string (c, u, d or r)");
  }
  ChangeEvent out;
  if (op == "c" || op == "u" || op == "r") {
    simdjson::dom::object after;
    if (event["after"].get_object().get(after)) {
      return InvalidArgument("Debezium event with op \"{}\" has no \"after\" object", op);
    }
    out.kind = ChangeEvent::Kind::kUpsert;
    out.owned = simdjson::minify(after);
  } else if (op == "d") {
    simdjson::dom::element before;
    if (event["before"].get(before) || before.is_null()) return DeleteByMessageKey(key, key_null);
    simdjson::dom::object before_object;
    if (before.get_object().get(before_object)) {
      return InvalidArgument("Debezium event with op \"d\" has a \"before\" that is not an object");
    }
    out.kind = ChangeEvent::Kind::kDelete;
    out.owned = simdjson::minify(before_object);
  } else {
    return InvalidArgument("Debezium op \"{}\" is not supported (c, u, d and r are)", op.substr(0, 16));
  }
  out.is_owned = true;
  return out;
}

}  // namespace floe::stream
