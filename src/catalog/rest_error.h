// The Iceberg REST spec's error responses: floe error kinds to HTTP status, exception type and
// the ErrorModel body ({"error": {"message", "type", "code"}}), and back for the client side.
// Pure functions; any thread.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::catalog {

struct RestError {
  int status;
  std::string type;  // "NoSuchTableException", "CommitFailedException", ...
};

// How the server reports `error`. On commit endpoints (`committing`), an error whose outcome is
// unknown (the database or store did not answer) is 500 CommitStateUnknownException, which
// tells clients not to clean up files the table might now reference.
RestError ToRestError(const Error& error, bool committing = false);

// {"error": {"message": ..., "type": ..., "code": ...}}
std::string RestErrorBody(const RestError& rest, std::string_view message);

// The client side: the error a REST response stands for (status plus the body's message).
Error FromRestResponse(int status, std::string_view body, std::string_view what);

}  // namespace floe::catalog
