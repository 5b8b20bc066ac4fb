#include "serve/pg_messages.h"

#include "base/bytes.h"

namespace floe::serve::pg {

size_t MessageWriter::Begin(char type) {
  out_->push_back(type);
  size_t start = out_->size();
  out_->append(4, '\0');
  return start;
}

void MessageWriter::End(size_t start) {
  uint32_t length = static_cast<uint32_t>(out_->size() - start);
  for (int i = 0; i < 4; ++i) (*out_)[start + i] = static_cast<char>((length >> (24 - 8 * i)) & 0xff);
}

namespace {

void Int16(std::string* out, int16_t v) {
  out->push_back(static_cast<char>((v >> 8) & 0xff));
  out->push_back(static_cast<char>(v & 0xff));
}

void Int32(std::string* out, int32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((static_cast<uint32_t>(v) >> (24 - 8 * i)) & 0xff));
}

void CStr(std::string* out, std::string_view text) {
  // An embedded NUL would end the string early on the client: drop it.
  for (char c : text) {
    if (c != '\0') out->push_back(c);
  }
  out->push_back('\0');
}

}  // namespace

void MessageWriter::Authentication(int32_t code, std::string_view data) {
  size_t start = Begin('R');
  Int32(out_, code);
  out_->append(data);
  End(start);
}

void MessageWriter::AuthenticationSasl(std::string_view mechanism) {
  size_t start = Begin('R');
  Int32(out_, 10);
  CStr(out_, mechanism);
  out_->push_back('\0');
  End(start);
}

void MessageWriter::ParameterStatus(std::string_view name, std::string_view value) {
  size_t start = Begin('S');
  CStr(out_, name);
  CStr(out_, value);
  End(start);
}

void MessageWriter::BackendKeyData(int32_t pid, int32_t secret) {
  size_t start = Begin('K');
  Int32(out_, pid);
  Int32(out_, secret);
  End(start);
}

void MessageWriter::ReadyForQuery(char status) {
  size_t start = Begin('Z');
  out_->push_back(status);
  End(start);
}

void MessageWriter::RowDescription(const std::vector<FieldDescription>& fields) {
  size_t start = Begin('T');
  Int16(out_, static_cast<int16_t>(fields.size()));
  for (const auto& field : fields) {
    CStr(out_, field.name);
    Int32(out_, 0);  // Table OID.
    Int16(out_, 0);  // Column attribute number.
    Int32(out_, field.type_oid);
    Int16(out_, field.type_size);
    Int32(out_, -1);  // Type modifier.
    Int16(out_, field.format);
  }
  End(start);
}

void MessageWriter::DataRow(const std::vector<std::optional<std::string>>& cells) {
  size_t start = Begin('D');
  Int16(out_, static_cast<int16_t>(cells.size()));
  for (const auto& cell : cells) {
    if (!cell.has_value()) {
      Int32(out_, -1);
      continue;
    }
    Int32(out_, static_cast<int32_t>(cell->size()));
    out_->append(*cell);
  }
  End(start);
}

void MessageWriter::CommandComplete(std::string_view tag) {
  size_t start = Begin('C');
  CStr(out_, tag);
  End(start);
}

void MessageWriter::Empty(char type) {
  size_t start = Begin(type);
  End(start);
}

void MessageWriter::ParameterDescription(const std::vector<int32_t>& oids) {
  size_t start = Begin('t');
  Int16(out_, static_cast<int16_t>(oids.size()));
  for (int32_t oid : oids) Int32(out_, oid);
  End(start);
}

void MessageWriter::Fields(char type, const ErrorFields& fields) {
  size_t start = Begin(type);
  out_->push_back('S');
  CStr(out_, fields.severity);
  out_->push_back('V');
  CStr(out_, fields.severity);
  out_->push_back('C');
  CStr(out_, fields.sqlstate);
  out_->push_back('M');
  CStr(out_, fields.message);
  if (fields.position.has_value()) {
    out_->push_back('P');
    CStr(out_, std::to_string(*fields.position));
  }
  out_->push_back('\0');
  End(start);
}

Result<std::string_view> MessageReader::CString(std::string_view what) {
  size_t end = body_.find('\0', position_);
  if (end == std::string_view::npos) return Corruption("{}: missing string terminator", what);
  std::string_view out = body_.substr(position_, end - position_);
  position_ = end + 1;
  return out;
}

Result<std::string_view> MessageReader::Bytes(size_t n, std::string_view what) {
  if (n > remaining()) return Corruption("{}: {} bytes wanted, {} left", what, n, remaining());
  std::string_view out = body_.substr(position_, n);
  position_ += n;
  return out;
}

Result<uint8_t> MessageReader::Byte(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto b, Bytes(1, what));
  return static_cast<uint8_t>(b[0]);
}

Result<int16_t> MessageReader::Int16(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto b, Bytes(2, what));
  return static_cast<int16_t>((static_cast<uint8_t>(b[0]) << 8) | static_cast<uint8_t>(b[1]));
}

Result<int32_t> MessageReader::Int32(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto b, Bytes(4, what));
  uint32_t v = 0;
  for (char c : b) v = (v << 8) | static_cast<uint8_t>(c);
  return static_cast<int32_t>(v);
}

Result<std::optional<std::string_view>> MessageReader::Value(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(int32_t length, Int32(what));
  if (length == -1) return std::optional<std::string_view>();
  if (length < 0) return Corruption("{}: negative length {}", what, length);
  FLOE_ASSIGN_OR_RETURN(auto bytes, Bytes(static_cast<size_t>(length), what));
  return std::optional<std::string_view>(bytes);
}

Result<ParseMessage> ReadParse(std::string_view body) {
  MessageReader reader(body);
  ParseMessage out;
  FLOE_ASSIGN_OR_RETURN(auto name, reader.CString("Parse statement name"));
  FLOE_ASSIGN_OR_RETURN(auto query, reader.CString("Parse query"));
  FLOE_ASSIGN_OR_RETURN(int16_t count, reader.Int16("Parse parameter count"));
  if (count < 0) return Corruption("Parse: negative parameter count");
  out.name = std::string(name);
  out.query = std::string(query);
  for (int i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(int32_t oid, reader.Int32("Parse parameter type"));
    out.parameter_oids.push_back(oid);
  }
  return out;
}

Result<BindMessage> ReadBind(std::string_view body) {
  MessageReader reader(body);
  BindMessage out;
  FLOE_ASSIGN_OR_RETURN(auto portal, reader.CString("Bind portal name"));
  FLOE_ASSIGN_OR_RETURN(auto statement, reader.CString("Bind statement name"));
  out.portal = std::string(portal);
  out.statement = std::string(statement);
  FLOE_ASSIGN_OR_RETURN(int16_t format_count, reader.Int16("Bind format count"));
  if (format_count < 0) return Corruption("Bind: negative format count");
  for (int i = 0; i < format_count; ++i) {
    FLOE_ASSIGN_OR_RETURN(int16_t format, reader.Int16("Bind parameter format"));
    if (format != 0 && format != 1) return Corruption("Bind: parameter format {} is neither text nor binary", format);
    out.parameter_formats.push_back(format);
  }
  FLOE_ASSIGN_OR_RETURN(int16_t count, reader.Int16("Bind parameter count"));
  if (count < 0) return Corruption("Bind: negative parameter count");
  for (int i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(auto value, reader.Value("Bind parameter value"));
    out.parameters.push_back(value.has_value() ? std::optional<std::string>(std::string(*value)) : std::nullopt);
  }
  FLOE_ASSIGN_OR_RETURN(int16_t result_count, reader.Int16("Bind result format count"));
  if (result_count < 0) return Corruption("Bind: negative result format count");
  for (int i = 0; i < result_count; ++i) {
    FLOE_ASSIGN_OR_RETURN(int16_t format, reader.Int16("Bind result format"));
    if (format != 0 && format != 1) return Corruption("Bind: result format {} is neither text nor binary", format);
    out.result_formats.push_back(format);
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> ReadStartupParameters(std::string_view body) {
  MessageReader reader(body);
  std::vector<std::pair<std::string, std::string>> out;
  while (!reader.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto name, reader.CString("startup parameter name"));
    if (name.empty()) break;
    FLOE_ASSIGN_OR_RETURN(auto value, reader.CString("startup parameter value"));
    out.emplace_back(std::string(name), std::string(value));
  }
  return out;
}

}  // namespace floe::serve::pg
