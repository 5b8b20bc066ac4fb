// A small pg_catalog, answered from floe's catalog: the queries psql's \dt, \d NAME, \dn and \l
// send and the probes of Grafana's and other clients' schema browsers. A query that reads
// pg_catalog's tables is recognised by the tables it names and the columns it selects; the
// tables of floe's catalog become its rows (relkind 'r', one synthetic OID per table), and any
// other catalog query gets an empty result with the columns it asked for, so clients carry
// on. Stateless; any thread.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "serve/session_state.h"
#include "serve/statement_runner.h"
#include "sql/catalog/catalog.h"
#include "sql/parser/lexer.h"

namespace floe::serve::pg {

// An answer when `tokens` read pg_catalog's tables; nullopt otherwise.
std::optional<Result<StatementOutcome>> AnswerCatalogQuery(const sql::SqlCatalog& catalog, std::string_view text,
                                                          const std::vector<sql::Token>& tokens,
                                                          const SessionState& session);

}  // namespace floe::serve::pg
