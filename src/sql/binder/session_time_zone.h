// The session time zone, made explicit in a bound plan. floe's `timestamp with time zone` values
// are instants (microseconds since the epoch, UTC), as in PostgreSQL and DuckDB; what depends on
// a wall clock — casts between timestamps, dates and text, date_trunc, extract and the field
// functions, the calendar units of date_add/date_diff, month arithmetic, current_date — is
// rewritten here into calls of `timezone(zone, value)` (PostgreSQL's AT TIME ZONE: an instant to
// its wall-clock time in the zone, or a wall-clock time to its instant), so kernels, the
// constant folder and EXPLAIN all see the zone and no operator needs a session.
//
// f(x) for a wall-clock function f becomes f(shift(x)), shift(x) = timezone('UTC', timezone(Z, x))
// (the instant whose UTC wall clock is x's wall clock in Z), and a timestamp with time zone that
// f returns is shifted back with timezone(Z, timezone('UTC', r)).
//
// Applied once, after binding, only when the zone is not UTC. Not idempotent: never apply it to
// a plan twice.
#pragma once

#include "base/result.h"
#include "base/time_zone.h"
#include "sql/binder/bound_expr.h"
#include "sql/planner/logical_plan.h"

namespace floe::sql {

// Rewrites every expression of `plan`, its children and its subqueries.
Status ApplySessionTimeZone(LogicalOperator& plan, const TimeZone& zone);
// Rewrites one expression tree (for expressions built after binding, such as INSERT's casts).
Status ApplySessionTimeZone(BoundExprPtr& expr, const TimeZone& zone);

}  // namespace floe::sql
