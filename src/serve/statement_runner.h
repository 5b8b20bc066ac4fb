// Runs the statements of one SQL text in order against the engine (sql::SqlSession), keeping
// every statement's outcome so PostgreSQL can answer each one, and letting a protocol answer
// the statements the engine does not know (its session statements and the catalog probes its
// clients send) through a StatementInterceptor. Stateless functions; the query's worker thread
// calls them.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "serve/session_state.h"
#include "sql/catalog/catalog.h"
#include "sql/parser/lexer.h"
#include "sql/sql_session.h"

namespace floe::serve {

struct StatementOutcome {
  sql::StatementResult result;
  std::string verb;      // Leading keywords, upper case: "SELECT", "SHOW", "SET", "CREATE TABLE".
  bool has_rows = false;  // Produces a row set (possibly empty).
  int64_t affected = -1;  // Rows written, for INSERT and friends; -1 when not applicable.
  int64_t rows = 0;       // Rows the statement returned (streamed ones included).
};

// What an interceptor makes of one statement: an answer, a rewrite for the engine, or nothing.
struct Interception {
  std::optional<Result<StatementOutcome>> answer;
  std::optional<std::string> rewritten;  // Same length and line breaks are not required.
};

// A protocol's hook in front of the engine. Implementations are shared by concurrent queries:
// Intercept must be thread-safe (session state is per call).
class StatementInterceptor {
 public:
  virtual ~StatementInterceptor() = default;
  // `text` is the whole query text with every other statement blanked out (so offsets hold);
  // `tokens` are this statement's tokens.
  virtual Interception Intercept(std::string_view text, const std::vector<sql::Token>& tokens,
                                 SessionState& session) = 0;
};

struct RunOutput {
  std::vector<StatementOutcome> outcomes;  // One per statement that succeeded, in order.
  std::optional<Error> error;              // The first failure; later statements did not run.
  std::string failed_text;                 // The text whose offsets `error` refers to.
  SessionState session;                    // After the statements (USE, SET ...).
};

class ResultStream;

// Where the rows go: kept in the outcomes (`stream` null), or streamed (each statement's
// header, rows and end; the outcomes then carry no rows). `last_statement_rows_only` streams the
// rows of the last statement alone (Trino shows one result). `memory_limit_bytes` bounds the
// engine's operator state per statement (0: the engine's default); past it joins and
// aggregations spill under `spill_dir` (empty: the temporary folder).
struct RunOptions {
  ResultStream* stream = nullptr;
  bool last_statement_rows_only = false;
  int64_t memory_limit_bytes = 0;
  std::string spill_dir;
};

// Runs each statement of `sql`. Stops at the first error or when `cancel` becomes true.
RunOutput RunStatements(sql::SqlCatalog& catalog, std::string_view sql, SessionState session,
                        StatementInterceptor* interceptor, const std::atomic<bool>* cancel, RunOptions run = {});

// The statement's leading keywords as a command tag verb ("SELECT", "CREATE TABLE").
std::string StatementVerb(const std::vector<sql::Token>& tokens);

}  // namespace floe::serve
