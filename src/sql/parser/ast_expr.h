// The syntax tree of SQL expressions, as written by the user (before names and types are
// resolved). Built by the parser from libpg_query's parse tree and the pre-parser; read by the
// binder. Trees are move-only values owned by their statement; any thread may read a finished
// tree. `location` is a byte offset into the user's original SQL text (-1 when unknown).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace floe::sql::ast {

struct Query;
struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// A type as written: `decimal(10,2)`, `varchar`, `timestamp with time zone`, `interval day`.
struct TypeName {
  std::string name;                 // Lower case, with PostgreSQL aliases resolved (int4 -> integer).
  std::vector<int64_t> parameters;  // decimal(p, s), varchar(n), timestamp(p).
  int interval_fields = 0;          // PostgreSQL's interval field mask (0: unspecified).
  bool array = false;               // `T[]`.
  int location = -1;
};

enum class ExprKind {
  kLiteral,       // literal_kind + text
  kColumnRef,     // names: one to four parts
  kStar,          // names: qualifier parts (empty for a bare `*`)
  kParameter,     // parameter_index (1-based), from `?` or `$n`
  kUnary,         // op ("-", "+", "NOT"), args[0]
  kBinary,        // op ("+", "=", "||", ...), args[0], args[1]
  kAnd,           // args (two or more)
  kOr,            // args (two or more)
  kFunction,      // names, args, distinct, star_arg, filter, window, order_by
  kCast,          // args[0], type, try_cast
  kCase,          // case_operand (may be null), when/then pairs in args, case_else
  kInList,        // args[0] IN (args[1..]), negated
  kBetween,       // args[0] BETWEEN args[1] AND args[2], negated
  kLike,          // args[0] LIKE args[1] [ESCAPE args[2]], negated, case_insensitive
  kIsNull,        // args[0] IS [NOT] NULL, negated
  kIsBool,        // args[0] IS [NOT] TRUE/FALSE: bool_value, negated
  kIsDistinct,    // args[0] IS [NOT] DISTINCT FROM args[1], negated
  kSubquery,      // scalar subquery
  kExists,        // EXISTS (subquery), negated
  kInSubquery,    // args[0] op ANY/ALL (subquery); op, quantifier_all, negated (NOT IN)
  kFieldAccess,   // args[0].names[0] (struct field)
  kSubscript,     // args[0][args[1]]
  kArray,         // ARRAY[args...]
  kRow,           // ROW(args...)
  kCurrent,       // current_date, current_timestamp, localtimestamp: name
};

enum class LiteralKind {
  kNull,
  kBool,      // bool_value
  kInteger,   // text: decimal digits with optional leading '-'
  kDecimal,   // text: exact numeric with a '.' (Trino: decimal literal)
  kDouble,    // text: with an exponent
  kString,    // text
  kBinary,    // text: hex digits (X'..')
};

enum class FrameMode { kRange, kRows, kGroups };
enum class FrameBoundKind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };

struct FrameBound {
  // Constructed out of line (ast.cc): clang needs ~ExprPtr, so a complete Expr, wherever a
  // constructor or aggregate initialisation of this is compiled.
  explicit FrameBound(FrameBoundKind k = FrameBoundKind::kCurrentRow);
  FrameBoundKind kind;
  ExprPtr offset;  // For kPreceding / kFollowing.
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // Unset: the default (NULLS LAST ascending, FIRST descending).
};

struct WindowSpec {
  std::string base_name;  // `OVER w` or `OVER (w ...)`: a named window from the WINDOW clause.
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  bool has_frame = false;  // False: the default frame.
  FrameMode frame_mode = FrameMode::kRange;
  FrameBound frame_start{FrameBoundKind::kUnboundedPreceding};
  FrameBound frame_end{FrameBoundKind::kCurrentRow};
  int location = -1;
};

struct Expr {
  explicit Expr(ExprKind k, int loc = -1);
  ~Expr();  // Out of line (with the constructors): Query is incomplete here.
  Expr(Expr&&) noexcept;
  Expr& operator=(Expr&&) noexcept;

  ExprKind kind;
  int location;

  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  bool bool_value = false;

  std::vector<std::string> names;
  std::string op;
  std::vector<ExprPtr> args;

  // Functions and aggregates.
  bool distinct = false;
  bool star_arg = false;  // count(*)
  ExprPtr filter;         // FILTER (WHERE ...)
  std::unique_ptr<WindowSpec> window;
  std::vector<OrderItem> order_by;  // Inside an aggregate call or WITHIN GROUP.

  // Casts.
  std::unique_ptr<TypeName> type;
  bool try_cast = false;

  // CASE.
  ExprPtr case_operand;
  ExprPtr case_else;

  // Predicates.
  bool negated = false;
  bool case_insensitive = false;  // ILIKE
  bool quantifier_all = false;    // op ALL (subquery)

  std::unique_ptr<Query> subquery;
  int parameter_index = 0;
  std::string argument_name;  // `name => value` in a call.
};

// Makes an expression node; a shorthand used by the parser and tests.
inline ExprPtr MakeExpr(ExprKind kind, int location) { return std::make_unique<Expr>(kind, location); }

}  // namespace floe::sql::ast
