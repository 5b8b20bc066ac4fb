// PostgreSQL wire protocol v3 framing (docs/postgres-wire.md): the backend messages floe sends,
// appended to an output buffer, and readers for the bodies of the frontend messages it
// accepts. Bodies come from the network: every read is bounds-checked and a malformed body is
// a kCorruption error, never a crash. Stateless; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::serve::pg {

inline constexpr int32_t kProtocolVersion3 = 196608;  // 3.0
inline constexpr int32_t kSslRequestCode = 80877103;
inline constexpr int32_t kGssEncRequestCode = 80877104;
inline constexpr int32_t kCancelRequestCode = 80877102;

// One column of a RowDescription.
struct FieldDescription {
  std::string name;
  int32_t type_oid = 25;
  int16_t type_size = -1;
  int16_t format = 0;  // 0 text, 1 binary.
};

// ErrorResponse / NoticeResponse fields.
struct ErrorFields {
  std::string severity = "ERROR";  // ERROR, FATAL, NOTICE ...
  std::string sqlstate = "XX000";
  std::string message;
  std::optional<int> position;  // 1-based character offset into the query.
};

// Appends backend messages to a buffer owned by the caller.
class MessageWriter {
 public:
  explicit MessageWriter(std::string* out) : out_(out) {}

  void AuthenticationOk() { Authentication(0, {}); }
  void AuthenticationCleartextPassword() { Authentication(3, {}); }
  void AuthenticationMd5Password(std::string_view salt) { Authentication(5, salt); }
  void AuthenticationSasl(std::string_view mechanism);
  void AuthenticationSaslContinue(std::string_view data) { Authentication(11, data); }
  void AuthenticationSaslFinal(std::string_view data) { Authentication(12, data); }
  void ParameterStatus(std::string_view name, std::string_view value);
  void BackendKeyData(int32_t pid, int32_t secret);
  void ReadyForQuery(char status);
  void RowDescription(const std::vector<FieldDescription>& fields);
  // One row; a nullopt cell is NULL.
  void DataRow(const std::vector<std::optional<std::string>>& cells);
  void CommandComplete(std::string_view tag);
  void EmptyQueryResponse() { Empty('I'); }
  void ParseComplete() { Empty('1'); }
  void BindComplete() { Empty('2'); }
  void CloseComplete() { Empty('3'); }
  void NoData() { Empty('n'); }
  void PortalSuspended() { Empty('s'); }
  void ParameterDescription(const std::vector<int32_t>& oids);
  void Error(const ErrorFields& fields) { Fields('E', fields); }
  void Notice(const ErrorFields& fields) { Fields('N', fields); }

 private:
  void Authentication(int32_t code, std::string_view data);
  void Empty(char type);
  void Fields(char type, const ErrorFields& fields);
  size_t Begin(char type);
  void End(size_t start);

  std::string* out_;
};

// Reads a frontend message body.
class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : body_(body) {}

  Result<std::string_view> CString(std::string_view what);
  Result<int16_t> Int16(std::string_view what);
  Result<int32_t> Int32(std::string_view what);
  Result<uint8_t> Byte(std::string_view what);
  Result<std::string_view> Bytes(size_t n, std::string_view what);
  // A length-prefixed value: -1 is NULL.
  Result<std::optional<std::string_view>> Value(std::string_view what);
  bool empty() const { return position_ >= body_.size(); }
  size_t remaining() const { return body_.size() - position_; }

 private:
  std::string_view body_;
  size_t position_ = 0;
};

// Parse ('P'): a statement name, its text, and the parameter type OIDs the client gave.
struct ParseMessage {
  std::string name;
  std::string query;
  std::vector<int32_t> parameter_oids;
};
Result<ParseMessage> ReadParse(std::string_view body);

// Bind ('B').
struct BindMessage {
  std::string portal;
  std::string statement;
  std::vector<int16_t> parameter_formats;
  std::vector<std::optional<std::string>> parameters;
  std::vector<int16_t> result_formats;
};
Result<BindMessage> ReadBind(std::string_view body);

// The StartupMessage's parameters (user, database, application_name, options, ...).
Result<std::vector<std::pair<std::string, std::string>>> ReadStartupParameters(std::string_view body);

}  // namespace floe::serve::pg
