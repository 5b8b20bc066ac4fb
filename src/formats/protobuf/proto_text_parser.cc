// ProtoSchema::ParseText: .proto source (protobuf.dev, "Protocol Buffers Version 2/3 Language
// Specification") into the definitions of proto_schema_file.h. A hand-written recursive-descent
// parser over a tokenizer that tracks lines and columns; recursion only into nested messages,
// bounded by kMaxNesting; option values, services and extensions are skipped by counting
// brackets, without recursion.
#include <cctype>
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "formats/protobuf/proto_schema.h"
#include "formats/protobuf/proto_schema_file.h"

namespace floe::protobuf {
namespace {

struct Token {
  enum class Kind { kEnd, kIdent, kInt, kFloat, kString, kSymbol };
  Kind kind = Kind::kEnd;
  std::string_view text;
  std::string value;  // kString: the decoded bytes.
  int line = 1;
  int column = 1;
};

const std::map<std::string_view, ProtoType>& ScalarTypes() {
  static const std::map<std::string_view, ProtoType> types = {
      {"double", ProtoType::kDouble},     {"float", ProtoType::kFloat},       {"int32", ProtoType::kInt32},
      {"int64", ProtoType::kInt64},       {"uint32", ProtoType::kUint32},     {"uint64", ProtoType::kUint64},
      {"sint32", ProtoType::kSint32},     {"sint64", ProtoType::kSint64},     {"fixed32", ProtoType::kFixed32},
      {"fixed64", ProtoType::kFixed64},   {"sfixed32", ProtoType::kSfixed32}, {"sfixed64", ProtoType::kSfixed64},
      {"bool", ProtoType::kBool},         {"string", ProtoType::kString},     {"bytes", ProtoType::kBytes}};
  return types;
}

bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

class TextParser {
 public:
  explicit TextParser(std::string_view text) : text_(text) {}

  Result<std::unique_ptr<ProtoSchema::File>> Parse() {
    auto file = std::make_unique<ProtoSchema::File>();
    FLOE_RETURN_IF_ERROR(Advance());
    bool first = true;
    while (token_.kind != Token::Kind::kEnd) {
      if (IsSymbol(";")) {
        FLOE_RETURN_IF_ERROR(Advance());
        continue;
      }
      if (token_.kind != Token::Kind::kIdent) return Unexpected("a definition");
      const std::string_view word = token_.text;
      if (word == "syntax") {
        if (!first) return Error("the syntax statement must come first");
        FLOE_RETURN_IF_ERROR(Advance());
        FLOE_RETURN_IF_ERROR(ExpectSymbol("="));
        FLOE_ASSIGN_OR_RETURN(file->syntax, ExpectString());
        if (file->syntax != "proto2" && file->syntax != "proto3") {
          return Error(fmt::format("syntax \"{}\": expected proto2 or proto3", file->syntax));
        }
        FLOE_RETURN_IF_ERROR(ExpectSymbol(";"));
      } else if (word == "edition") {
        return NotImplemented("line {}, column {}: editions are not supported (proto2 and proto3 are)", token_.line,
                              token_.column);
      } else if (word == "package") {
        FLOE_RETURN_IF_ERROR(Advance());
        FLOE_ASSIGN_OR_RETURN(std::string name, ExpectIdent("a package name"));
        file->package = std::move(name);
        FLOE_RETURN_IF_ERROR(ExpectSymbol(";"));
      } else if (word == "import") {
        FLOE_RETURN_IF_ERROR(Advance());
        if (IsWord("public") || IsWord("weak")) FLOE_RETURN_IF_ERROR(Advance());
        FLOE_ASSIGN_OR_RETURN(std::string path, ExpectString());
        file->imports.push_back(std::move(path));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(";"));
      } else if (word == "option") {
        FLOE_RETURN_IF_ERROR(SkipStatement());
      } else if (word == "message") {
        FLOE_ASSIGN_OR_RETURN(auto message, ParseMessage(*file, 1));
        file->messages.push_back(std::move(message));
      } else if (word == "enum") {
        FLOE_ASSIGN_OR_RETURN(auto e, ParseEnum());
        file->enums.push_back(std::move(e));
      } else if (word == "service" || word == "extend") {
        FLOE_RETURN_IF_ERROR(SkipBlock());
      } else {
        return Unexpected("syntax, package, import, option, message, enum, service or extend");
      }
      first = false;
    }
    return file;
  }

 private:
  // --- Tokens ---

  Status Advance() {
    FLOE_RETURN_IF_ERROR(SkipSpaceAndComments());
    token_ = Token{};
    token_.line = line_;
    token_.column = column_;
    if (pos_ >= text_.size()) return OkStatus();
    const size_t start = pos_;
    const char c = text_[pos_];
    if (IsIdentStart(c) || (c == '.' && pos_ + 1 < text_.size() && IsIdentStart(text_[pos_ + 1]))) {
      // Identifiers, dotted full names and leading-dot fully qualified type names in one token.
      Step();
      while (pos_ < text_.size() && (IsIdentChar(text_[pos_]) ||
                                     (text_[pos_] == '.' && pos_ + 1 < text_.size() && IsIdentStart(text_[pos_ + 1])))) {
        Step();
      }
      token_.kind = Token::Kind::kIdent;
    } else if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
      bool is_float = false;
      while (pos_ < text_.size() && (IsIdentChar(text_[pos_]) || text_[pos_] == '.' ||
                                     ((text_[pos_] == '+' || text_[pos_] == '-') &&
                                      (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))) {
        if (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E') is_float = true;
        Step();
      }
      std::string_view digits = text_.substr(start, pos_ - start);
      if (digits.starts_with("0x") || digits.starts_with("0X")) is_float = false;
      token_.kind = is_float ? Token::Kind::kFloat : Token::Kind::kInt;
    } else if (c == '"' || c == '\'') {
      token_.kind = Token::Kind::kString;
      FLOE_RETURN_IF_ERROR(ReadString(c));
    } else {
      Step();
      token_.kind = Token::Kind::kSymbol;
    }
    token_.text = text_.substr(start, pos_ - start);
    return OkStatus();
  }

  void Step() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  Status SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        Step();
      } else if (text_.substr(pos_).starts_with("//")) {
        while (pos_ < text_.size() && text_[pos_] != '\n') Step();
      } else if (text_.substr(pos_).starts_with("/*")) {
        const int line = line_, column = column_;
        const size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) {
          return InvalidArgument("line {}, column {}: comment not closed before the end", line, column);
        }
        while (pos_ < end + 2) Step();
      } else {
        break;
      }
    }
    return OkStatus();
  }

  Status ReadString(char quote) {
    Step();
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') return Error("string not closed on its line");
      const char c = text_[pos_];
      if (c == quote) {
        Step();
        return OkStatus();
      }
      if (c != '\\') {
        token_.value += c;
        Step();
        continue;
      }
      Step();
      if (pos_ >= text_.size()) return Error("string not closed before the end");
      const char e = text_[pos_];
      Step();
      switch (e) {
        case 'n': token_.value += '\n'; break;
        case 't': token_.value += '\t'; break;
        case 'r': token_.value += '\r'; break;
        case '\\': case '\'': case '"': case '?': token_.value += e; break;
        case 'a': token_.value += '\a'; break;
        case 'b': token_.value += '\b'; break;
        case 'f': token_.value += '\f'; break;
        case 'v': token_.value += '\v'; break;
        case 'x': case 'X': {
          int v = 0, n = 0;
          while (n < 2 && pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
            const char h = text_[pos_];
            v = v * 16 + (IsDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
            Step();
            ++n;
          }
          if (n == 0) return Error("\\x without hex digits");
          token_.value += static_cast<char>(v);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0', n = 1;
            while (n < 3 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7') {
              v = v * 8 + (text_[pos_] - '0');
              Step();
              ++n;
            }
            if (v > 255) return Error("octal escape above \\377");
            token_.value += static_cast<char>(v);
          } else {
            return Error(fmt::format("unknown escape \\{}", e));
          }
      }
    }
  }

  // --- Helpers ---

  std::unexpected<floe::Error> Error(std::string_view what) const {
    return InvalidArgument("line {}, column {}: {}", token_.line, token_.column, what);
  }
  std::unexpected<floe::Error> Unexpected(std::string_view expected) const {
    if (token_.kind == Token::Kind::kEnd) return Error(fmt::format("expected {}, the text ends", expected));
    return Error(fmt::format("expected {}, found '{}'", expected, token_.text.substr(0, 40)));
  }
  bool IsSymbol(std::string_view s) const { return token_.kind == Token::Kind::kSymbol && token_.text == s; }
  bool IsWord(std::string_view s) const { return token_.kind == Token::Kind::kIdent && token_.text == s; }

  Status ExpectSymbol(std::string_view s) {
    if (!IsSymbol(s)) return Unexpected(fmt::format("'{}'", s));
    return Advance();
  }
  Result<std::string> ExpectIdent(std::string_view what) {
    if (token_.kind != Token::Kind::kIdent) return Unexpected(what);
    std::string out(token_.text);
    FLOE_RETURN_IF_ERROR(Advance());
    return out;
  }
  Result<std::string> ExpectName(std::string_view what) {
    if (token_.kind != Token::Kind::kIdent || token_.text.find('.') != std::string_view::npos) return Unexpected(what);
    return ExpectIdent(what);
  }
  Result<std::string> ExpectString() {
    if (token_.kind != Token::Kind::kString) return Unexpected("a string");
    std::string out = token_.value;
    FLOE_RETURN_IF_ERROR(Advance());
    while (token_.kind == Token::Kind::kString) {  // Adjacent strings concatenate.
      out += token_.value;
      FLOE_RETURN_IF_ERROR(Advance());
    }
    return out;
  }
  // An integer literal, optionally negative: decimal, 0x hex or 0 octal.
  Result<int64_t> ExpectInteger(std::string_view what) {
    bool negative = false;
    if (IsSymbol("-")) {
      negative = true;
      FLOE_RETURN_IF_ERROR(Advance());
    }
    if (token_.kind != Token::Kind::kInt) return Unexpected(what);
    std::string_view digits = token_.text;
    int base = 10;
    if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
      base = 16;
      digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
      base = 8;
      digits.remove_prefix(1);
    }
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) {
      return Error(fmt::format("'{}' is not an integer", token_.text));
    }
    if (v > static_cast<uint64_t>(INT64_MAX)) return Error(fmt::format("integer {} out of range", token_.text));
    FLOE_RETURN_IF_ERROR(Advance());
    return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  }

  // Skips up to and with the next ';' outside brackets (an option's aggregate value may hold some).
  Status SkipStatement() {
    int depth = 0;
    while (true) {
      if (token_.kind == Token::Kind::kEnd) return Unexpected("';'");
      if (token_.kind == Token::Kind::kSymbol) {
        const char c = token_.text[0];
        if (c == '{' || c == '[' || c == '(') ++depth;
        if (c == '}' || c == ']' || c == ')') {
          if (--depth < 0) return Unexpected("';'");
        }
        if (c == ';' && depth == 0) return Advance();
      }
      FLOE_RETURN_IF_ERROR(Advance());
    }
  }

  // Skips words up to a '{' and the block it opens (services, extend blocks).
  Status SkipBlock() {
    while (!IsSymbol("{")) {
      if (token_.kind == Token::Kind::kEnd || IsSymbol(";") || IsSymbol("}")) return Unexpected("'{'");
      FLOE_RETURN_IF_ERROR(Advance());
    }
    return SkipBracketed("{", "}");
  }

  // At `open`: skips to and past its matching `close`.
  Status SkipBracketed(std::string_view open, std::string_view close) {
    int depth = 0;
    while (true) {
      if (token_.kind == Token::Kind::kEnd) return Unexpected(fmt::format("'{}'", close));
      if (IsSymbol(open)) ++depth;
      if (IsSymbol(close) && --depth == 0) return Advance();
      FLOE_RETURN_IF_ERROR(Advance());
    }
  }

  // --- Definitions ---

  Result<std::unique_ptr<ProtoEnum>> ParseEnum() {
    FLOE_RETURN_IF_ERROR(Advance());  // "enum"
    auto e = std::make_unique<ProtoEnum>();
    FLOE_ASSIGN_OR_RETURN(e->name, ExpectName("an enum name"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol("{"));
    while (!IsSymbol("}")) {
      if (IsSymbol(";")) {
        FLOE_RETURN_IF_ERROR(Advance());
      } else if (IsWord("option") || IsWord("reserved")) {
        FLOE_RETURN_IF_ERROR(SkipStatement());
      } else {
        ProtoEnumValue value;
        FLOE_ASSIGN_OR_RETURN(value.name, ExpectName("an enum value name or '}'"));
        FLOE_RETURN_IF_ERROR(ExpectSymbol("="));
        FLOE_ASSIGN_OR_RETURN(int64_t number, ExpectInteger("an enum value number"));
        if (number < INT32_MIN || number > INT32_MAX) return Error(fmt::format("enum value {} out of range", number));
        value.number = static_cast<int32_t>(number);
        if (IsSymbol("[")) FLOE_RETURN_IF_ERROR(SkipBracketed("[", "]"));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(";"));
        e->values.push_back(std::move(value));
      }
    }
    FLOE_RETURN_IF_ERROR(Advance());
    return e;
  }

  // type name = number [options];
  Result<ProtoField> ParseFieldRest(ProtoLabel label) {
    ProtoField field;
    field.label = label;
    const int line = token_.line, column = token_.column;
    FLOE_ASSIGN_OR_RETURN(std::string type, ExpectIdent("a field type"));
    if (type == "group") return NotImplemented("line {}, column {}: groups are not supported", line, column);
    if (auto it = ScalarTypes().find(type); it != ScalarTypes().end()) {
      field.type = it->second;
    } else {
      field.type = ProtoType::kMessage;  // Or an enum: resolution decides.
      field.type_name = std::move(type);
    }
    FLOE_ASSIGN_OR_RETURN(field.name, ExpectName("a field name"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol("="));
    FLOE_ASSIGN_OR_RETURN(int64_t number, ExpectInteger("a field number"));
    if (number < 1 || number > (1 << 29) - 1) return Error(fmt::format("field number {} out of range", number));
    field.number = static_cast<int32_t>(number);
    if (IsSymbol("[")) FLOE_RETURN_IF_ERROR(SkipBracketed("[", "]"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(";"));
    return field;
  }

  Result<std::unique_ptr<ProtoMessage>> ParseMessage(ProtoSchema::File& file, int depth) {
    if (depth > ProtoSchema::kMaxNesting) return Error(fmt::format("messages nested deeper than {}", ProtoSchema::kMaxNesting));
    FLOE_RETURN_IF_ERROR(Advance());  // "message"
    auto message = std::make_unique<ProtoMessage>();
    FLOE_ASSIGN_OR_RETURN(message->name, ExpectName("a message name"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol("{"));
    while (!IsSymbol("}")) {
      if (token_.kind == Token::Kind::kEnd) return Unexpected("'}'");
      if (IsSymbol(";")) {
        FLOE_RETURN_IF_ERROR(Advance());
        continue;
      }
      if (token_.kind != Token::Kind::kIdent) return Unexpected("a field or definition");
      const std::string_view word = token_.text;
      if (word == "message") {
        FLOE_ASSIGN_OR_RETURN(auto nested, ParseMessage(file, depth + 1));
        message->nested.push_back(std::move(nested));
      } else if (word == "enum") {
        FLOE_ASSIGN_OR_RETURN(auto e, ParseEnum());
        message->enums.push_back(std::move(e));
      } else if (word == "option" || word == "reserved" || word == "extensions") {
        FLOE_RETURN_IF_ERROR(SkipStatement());
      } else if (word == "extend") {
        FLOE_RETURN_IF_ERROR(SkipBlock());
      } else if (word == "oneof") {
        FLOE_RETURN_IF_ERROR(Advance());
        FLOE_ASSIGN_OR_RETURN(std::string name, ExpectName("a oneof name"));
        const auto index = static_cast<int32_t>(message->oneofs.size());
        message->oneofs.push_back(std::move(name));
        FLOE_RETURN_IF_ERROR(ExpectSymbol("{"));
        while (!IsSymbol("}")) {
          if (IsSymbol(";")) {
            FLOE_RETURN_IF_ERROR(Advance());
          } else if (IsWord("option")) {
            FLOE_RETURN_IF_ERROR(SkipStatement());
          } else {
            if (token_.kind == Token::Kind::kEnd) return Unexpected("'}'");
            FLOE_ASSIGN_OR_RETURN(ProtoField field, ParseFieldRest(ProtoLabel::kImplicit));
            field.oneof = index;
            message->fields.push_back(std::move(field));
          }
        }
        FLOE_RETURN_IF_ERROR(Advance());
      } else if (word == "map" && PeekIsSymbol('<')) {
        FLOE_RETURN_IF_ERROR(Advance());
        FLOE_RETURN_IF_ERROR(ExpectSymbol("<"));
        FLOE_ASSIGN_OR_RETURN(std::string key_type, ExpectIdent("a map key type"));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(","));
        FLOE_ASSIGN_OR_RETURN(std::string value_type, ExpectIdent("a map value type"));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(">"));
        FLOE_ASSIGN_OR_RETURN(std::string name, ExpectName("a field name"));
        FLOE_RETURN_IF_ERROR(ExpectSymbol("="));
        FLOE_ASSIGN_OR_RETURN(int64_t number, ExpectInteger("a field number"));
        if (number < 1 || number > (1 << 29) - 1) return Error(fmt::format("field number {} out of range", number));
        if (IsSymbol("[")) FLOE_RETURN_IF_ERROR(SkipBracketed("[", "]"));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(";"));
        auto entry = std::make_unique<ProtoMessage>();
        entry->name = MapEntryName(name);
        entry->map_entry = true;
        auto add = [&](const char* entry_field, int32_t entry_number, const std::string& type) {
          ProtoField f;
          f.name = entry_field;
          f.number = entry_number;
          if (auto it = ScalarTypes().find(type); it != ScalarTypes().end()) {
            f.type = it->second;
          } else {
            f.type = ProtoType::kMessage;
            f.type_name = type;
          }
          entry->fields.push_back(std::move(f));
        };
        add("key", 1, key_type);
        add("value", 2, value_type);
        ProtoField field;
        field.name = std::move(name);
        field.number = static_cast<int32_t>(number);
        field.label = ProtoLabel::kRepeated;
        field.type = ProtoType::kMessage;
        field.type_name = entry->name;
        message->nested.push_back(std::move(entry));
        message->fields.push_back(std::move(field));
      } else {
        ProtoLabel label = ProtoLabel::kImplicit;
        bool labeled = true;
        if (word == "optional") {
          label = ProtoLabel::kOptional;
        } else if (word == "required") {
          label = ProtoLabel::kRequired;
        } else if (word == "repeated") {
          label = ProtoLabel::kRepeated;
        } else {
          labeled = false;
        }
        const int line = token_.line, column = token_.column;
        if (labeled) FLOE_RETURN_IF_ERROR(Advance());
        FLOE_ASSIGN_OR_RETURN(ProtoField field, ParseFieldRest(label));
        message->fields.push_back(std::move(field));
        if (!labeled) unlabeled_at_.push_back({message.get(), message->fields.size() - 1, line, column});
        if (label == ProtoLabel::kRequired) required_at_.push_back({line, column});
      }
    }
    FLOE_RETURN_IF_ERROR(Advance());
    return message;
  }

  bool PeekIsSymbol(char c) const {
    size_t p = pos_;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r')) ++p;
    return p < text_.size() && text_[p] == c;
  }

 public:
  struct Unlabeled {
    ProtoMessage* message;
    size_t field;
    int line, column;
  };
  struct Position {
    int line, column;
  };
  std::vector<Unlabeled> unlabeled_at_;
  std::vector<Position> required_at_;

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  Token token_;
};

}  // namespace

Result<std::unique_ptr<ProtoSchema::File>> ReadTextFile(std::string_view text) {
  if (text.size() > ProtoSchema::kMaxSchemaBytes) {
    return InvalidArgument("Protobuf schema of {} bytes: more than {}", text.size(), ProtoSchema::kMaxSchemaBytes);
  }
  TextParser parser(text);
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<ProtoSchema::File> file, parser.Parse());
  // Labels by syntax: proto2 fields outside a oneof need one, proto3 has no `required`.
  if (file->syntax == "proto2" && !parser.unlabeled_at_.empty()) {
    const auto& u = parser.unlabeled_at_.front();
    return InvalidArgument("line {}, column {}: a proto2 field needs a label (optional, required or repeated)", u.line,
                           u.column);
  }
  if (file->syntax == "proto3" && !parser.required_at_.empty()) {
    return InvalidArgument("line {}, column {}: proto3 has no required fields", parser.required_at_.front().line,
                           parser.required_at_.front().column);
  }
  return file;
}

Result<ProtoSchema> ProtoSchema::ParseText(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<File> file, ReadTextFile(text));
  FLOE_RETURN_IF_ERROR(ResolveFile(*file));
  return ProtoSchema(std::move(file));
}

}  // namespace floe::protobuf
