// The statements PostgreSQL clients send that belong to the session rather than the engine:
// SET / RESET / SHOW of run-time parameters, transaction control (autocommit: accepted, nothing
// to do), DISCARD / DEALLOCATE / CLOSE / LISTEN, the session functions (version(),
// current_schema(), current_setting(...)) and the pg_catalog queries psql's \dt and \d send,
// answered from floe's catalog (pg_catalog_emulation.h). Shared by concurrent queries.
#pragma once

#include <optional>
#include <string>

#include "serve/statement_runner.h"
#include "sql/catalog/catalog.h"

namespace floe::serve::pg {

// What the server reports as server_version (and version() in PostgreSQL's form).
inline constexpr std::string_view kServerVersion = "15.0";
inline constexpr std::string_view kServerVersionNum = "150000";

class PgStatements final : public StatementInterceptor {
 public:
  PgStatements(const sql::SqlCatalog& catalog, std::string floe_version)
      : catalog_(catalog), floe_version_(std::move(floe_version)) {}

  Interception Intercept(std::string_view text, const std::vector<sql::Token>& tokens, SessionState& session) override;

  // A run-time parameter's value for SHOW and current_setting(); nullopt when unknown.
  static std::optional<std::string> Setting(std::string_view name, const SessionState& session);

 private:
  const sql::SqlCatalog& catalog_;
  std::string floe_version_;
};

// `text` with quote_ident(x) calls reduced to (x): Grafana's schema browser wraps every name in
// it, and floe's names are plain identifiers. nullopt when there is none.
std::optional<std::string> DropQuoteIdent(std::string_view text, const std::vector<sql::Token>& tokens);

}  // namespace floe::serve::pg
