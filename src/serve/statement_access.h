// The access a SQL statement needs (issue #27, finding 6): reading (SELECT, SHOW, EXPLAIN,
// session statements), writing data (INSERT, UPDATE, DELETE, MERGE, TRUNCATE) or changing
// structure (CREATE, DROP, ALTER, CALL of maintenance procedures and anything not known).
// Decided from the statement's tokens, conservatively: a query form that could write (a WITH
// or EXPLAIN around an INSERT, SELECT ... INTO) needs what its strongest keyword needs.
// Stateless.
#pragma once

#include <vector>

#include "auth/role.h"
#include "sql/parser/lexer.h"

namespace floe::serve {

auth::Access StatementAccess(const std::vector<sql::Token>& tokens);

}  // namespace floe::serve
