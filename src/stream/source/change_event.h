// ChangeEventParser: what one Kafka record of a keyed stream (`floe stream --mode upsert`) asks
// of the table: put a row (insert or replace the row of its key) or delete a key.
//
// Without an envelope a record's value is the row, and a null value (a Kafka tombstone) deletes
// the key its message key holds: a JSON object with the key columns, or, for a one-column key,
// the bare value (42, "abc", or unquoted text for a string column).
//
// With the Debezium envelope (docs/upserts.md) a value is a change event {"before", "after",
// "op", "source", "ts_ms"}, alone or as the "payload" of a {"schema", "payload"} wrapper: ops
// c (create), u (update) and r (snapshot read) put `after`; d deletes `before`'s key (or the
// message key when `before` is null); tombstones delete as above.
//
// Used by one thread at a time (the commit's).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::stream {

enum class Envelope { kNone, kDebezium };
// "none" or "debezium".
Result<Envelope> ParseEnvelope(std::string_view name);

struct ChangeEvent {
  enum class Kind { kUpsert, kDelete };
  Kind kind = Kind::kUpsert;
  // kUpsert: the row's JSON object; kDelete: a JSON object holding the key columns.
  std::string_view json() const { return is_owned ? std::string_view(owned) : view; }

  // The text is a view of the record's value or key, or owned (an event may be moved: a view of
  // its own string would dangle).
  std::string_view view;
  std::string owned;
  bool is_owned = false;
};

class ChangeEventParser {
 public:
  // `key_columns` are the table's key columns, in order; `single_key_is_string` says whether a
  // one-column key is a string column (unquoted text in a message key is then its value).
  ChangeEventParser(Envelope envelope, std::vector<std::string> key_columns, bool single_key_is_string);
  ~ChangeEventParser();

  // Reads one record. An error (kInvalidArgument) is the reason the record is a dead letter.
  Result<ChangeEvent> Parse(std::string_view key, bool key_null, std::string_view value, bool value_null);

 private:
  // The delete of the key a message key holds.
  Result<ChangeEvent> DeleteByMessageKey(std::string_view key, bool key_null) const;
  Result<ChangeEvent> ParseDebezium(std::string_view key, bool key_null, std::string_view value);

  Envelope envelope_;
  std::vector<std::string> key_columns_;
  bool single_key_is_string_;
  struct JsonParser;
  std::unique_ptr<JsonParser> json_;  // For Debezium events.
};

}  // namespace floe::stream
