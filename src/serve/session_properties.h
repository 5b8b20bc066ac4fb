// The session properties floe interprets (others are kept as given, as PostgreSQL's settings
// are): `freshness` — `live` (the default: stream-fed tables include the log tail past their
// snapshot) or `snapshot` (committed snapshots only) — and `live_tail_max_bytes`, past which a
// live read falls back to the snapshot with a warning. Trino clients may prefix them with the
// catalog (`SET SESSION floe.freshness = 'snapshot'`). Stateless functions; any thread.
#pragma once

#include <atomic>
#include <string_view>

#include "base/result.h"
#include "serve/session_state.h"
#include "sql/execution/query_context.h"

namespace floe::serve {

// Whether `value` is valid for `name`; every value of a property floe does not interpret is.
Status CheckSessionProperty(std::string_view name, std::string_view value);

// The engine options a session's properties ask for (invalid values were refused by SET).
sql::QueryOptions QueryOptionsFor(const SessionState& session, const std::atomic<bool>* cancel);

}  // namespace floe::serve
