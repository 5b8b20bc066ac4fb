// The operation a SQL statement needs (issue #27): read (SELECT, SHOW, EXPLAIN, session
// statements), write (INSERT, UPDATE, DELETE, MERGE, TRUNCATE), create (CREATE, SELECT ...
// INTO), delete (DROP) or alter (ALTER, CALL of maintenance procedures and anything not
// known). Decided from the statement's tokens, conservatively: a query form that could do more
// (a WITH or EXPLAIN around an INSERT, say) needs what its strongest keyword needs, in the order
// read < write < create < delete < alter. RunStatements refuses a statement whose operation the
// user may do in no namespace before it is planned; AuthorizingCatalog then checks each
// namespace the statement touches. Stateless.
#pragma once

#include <vector>

#include "auth/grant.h"
#include "sql/parser/lexer.h"

namespace floe::serve {

auth::Operation StatementOperation(const std::vector<sql::Token>& tokens);

}  // namespace floe::serve
