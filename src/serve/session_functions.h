// Functions whose value is the session or the server, not data: version(), current_schema(),
// current_user, current_setting('...'), current_database(). Clients call them on connect
// (psql, Grafana, SQLAlchemy, the Trino CLI); the engine has no server to ask, so they are
// replaced by literals before it sees the text, keeping the column name the client expects.
// Stateless; any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serve/session_state.h"
#include "sql/parser/lexer.h"

namespace floe::serve {

struct SessionFunctionValues {
  std::string version;  // What version() answers.
  // current_setting('name'): the value, or nullopt for an unknown setting (left alone).
  std::function<std::optional<std::string>(std::string_view name)> setting;
};

// `text` with each such call replaced; nullopt when there is none.
std::optional<std::string> RewriteSessionFunctions(std::string_view text, const std::vector<sql::Token>& tokens,
                                                   const SessionState& session, const SessionFunctionValues& values);

}  // namespace floe::serve
