// The syntax tree of SQL expressions, as written by the user (before names and types are
// resolved). Built by the parser from libpg_query's parse tree and the pre-parser; read by the
// binder. Each node is owned through an ExprPtr by its parent or statement; any thread may read a
// finished tree. `location` is a byte offset into the user's original SQL text (-1 when unknown).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/kind_cast.h"

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

// An expression's kind; each has its own class below (kFunction: FunctionCall, ...), holding only
// what that kind means.
enum class ExprKind {
  kLiteral,      // Literal
  kColumnRef,    // ColumnRef: one to four name parts
  kStar,         // Star: `*` or `t.*`
  kParameter,    // Parameter: `?` or `$n`
  kUnary,        // Unary: op ("-", "+", "NOT") over args[0]
  kBinary,       // Binary: op ("+", "=", "||", ...) over args[0], args[1]
  kAnd,          // And: args (two or more)
  kOr,           // Or: args (two or more)
  kFunction,     // FunctionCall: args
  kCast,         // Cast: args[0]
  kCase,         // Case: when/then pairs in args
  kInList,       // InList: args[0] IN (args[1..])
  kBetween,      // Between: args[0] BETWEEN args[1] AND args[2]
  kLike,         // Like: args[0] LIKE args[1] [ESCAPE args[2]]
  kIsNull,       // IsNull: args[0] IS [NOT] NULL
  kIsBool,       // IsBool: args[0] IS [NOT] TRUE/FALSE
  kIsDistinct,   // IsDistinct: args[0] IS [NOT] DISTINCT FROM args[1]
  kSubquery,     // Subquery: a scalar subquery
  kExists,       // Exists: EXISTS (subquery); NOT EXISTS is a Unary NOT over it
  kInSubquery,   // InSubquery: args[0] op ANY/ALL (subquery); NOT IN is a Unary NOT over it
  kFieldAccess,  // FieldAccess: a struct field of args[0]
  kSubscript,    // Subscript: args[0][args[1]]
  kArray,        // Array: ARRAY[args...]
  kRow,          // Row: ROW(args...)
  kCurrent,      // Current: current_date, current_timestamp, localtimestamp, ...
};

// "Literal", "FunctionCall", ...: for messages.
const char* ExprKindName(ExprKind kind);

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

// What every expression has. The rest is its kind's: the parser makes an expression as its
// kind's class and readers reach its fields through As<FunctionCall>(), which checks the kind, so
// no code reads a field another kind would have had.
struct Expr : KindCast<Expr> {
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  const ExprKind kind;
  int location;
  std::vector<ExprPtr> args;  // Operands, as each kind above lays them out.

 protected:
  Expr(ExprKind k, int loc) : kind(k), location(loc) {}

 private:
  friend class KindCast<Expr>;  // Calls KindMismatch.
  [[noreturn]] void KindMismatch(ExprKind wanted) const;
};

// The base of each kind's class: fixes the kind, and names it for As<T>().
template <ExprKind K>
struct ExprNode : Expr {
  static constexpr ExprKind kKind = K;
  explicit ExprNode(int loc = -1) : Expr(K, loc) {}
};

struct Literal final : ExprNode<ExprKind::kLiteral> {
  using ExprNode::ExprNode;
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  bool bool_value = false;
};

struct ColumnRef final : ExprNode<ExprKind::kColumnRef> {
  using ExprNode::ExprNode;
  std::vector<std::string> names;
};

struct Star final : ExprNode<ExprKind::kStar> {
  using ExprNode::ExprNode;
  std::vector<std::string> qualifier;  // `t.*`: {"t"}; empty for a bare `*`.
};

struct Parameter final : ExprNode<ExprKind::kParameter> {
  using ExprNode::ExprNode;
  int parameter_index = 0;  // 1-based.
};

struct Unary final : ExprNode<ExprKind::kUnary> {
  using ExprNode::ExprNode;
  std::string op;
};

struct Binary final : ExprNode<ExprKind::kBinary> {
  using ExprNode::ExprNode;
  std::string op;
};

struct And final : ExprNode<ExprKind::kAnd> {
  using ExprNode::ExprNode;
};

struct Or final : ExprNode<ExprKind::kOr> {
  using ExprNode::ExprNode;
};

struct FunctionCall final : ExprNode<ExprKind::kFunction> {
  using ExprNode::ExprNode;
  std::vector<std::string> names;  // The function's name, as written (possibly qualified).
  // `name => value`: a name says which parameter an argument is for, so it belongs to the call's
  // argument list, not to the argument's expression. Empty when no argument is named; otherwise
  // one per argument, "" for a positional one.
  std::vector<std::string> argument_names;
  bool distinct = false;
  bool star_arg = false;  // count(*)
  ExprPtr filter;         // FILTER (WHERE ...)
  std::unique_ptr<WindowSpec> window;
  std::vector<OrderItem> order_by;  // Inside an aggregate call or WITHIN GROUP.
};

struct Cast final : ExprNode<ExprKind::kCast> {
  using ExprNode::ExprNode;
  TypeName type;
  bool try_cast = false;
};

struct Case final : ExprNode<ExprKind::kCase> {
  using ExprNode::ExprNode;
  ExprPtr case_operand;  // CASE x WHEN ...; null for a searched CASE.
  ExprPtr case_else;     // Null without ELSE.
};

struct InList final : ExprNode<ExprKind::kInList> {
  using ExprNode::ExprNode;
  bool negated = false;  // NOT IN
};

struct Between final : ExprNode<ExprKind::kBetween> {
  using ExprNode::ExprNode;
  bool negated = false;
};

struct Like final : ExprNode<ExprKind::kLike> {
  using ExprNode::ExprNode;
  bool negated = false;
  bool case_insensitive = false;  // ILIKE
};

struct IsNull final : ExprNode<ExprKind::kIsNull> {
  using ExprNode::ExprNode;
  bool negated = false;  // IS NOT NULL
};

struct IsBool final : ExprNode<ExprKind::kIsBool> {
  using ExprNode::ExprNode;
  bool bool_value = false;  // IS TRUE: true; IS FALSE: false.
  bool negated = false;
};

struct IsDistinct final : ExprNode<ExprKind::kIsDistinct> {
  using ExprNode::ExprNode;
  bool negated = false;  // IS NOT DISTINCT FROM
};

// The subquery kinds construct and destroy out of line (ast.cc): Query is incomplete here.
struct Subquery final : ExprNode<ExprKind::kSubquery> {
  explicit Subquery(int loc = -1);
  ~Subquery() override;
  std::unique_ptr<Query> subquery;
};

struct Exists final : ExprNode<ExprKind::kExists> {
  explicit Exists(int loc = -1);
  ~Exists() override;
  std::unique_ptr<Query> subquery;
};

struct InSubquery final : ExprNode<ExprKind::kInSubquery> {
  explicit InSubquery(int loc = -1);
  ~InSubquery() override;
  std::unique_ptr<Query> subquery;
  std::string op;               // The comparison: "=" for IN.
  bool quantifier_all = false;  // op ALL (subquery); else ANY.
};

struct FieldAccess final : ExprNode<ExprKind::kFieldAccess> {
  using ExprNode::ExprNode;
  std::string field;
};

struct Subscript final : ExprNode<ExprKind::kSubscript> {
  using ExprNode::ExprNode;
};

struct Array final : ExprNode<ExprKind::kArray> {
  using ExprNode::ExprNode;
};

struct Row final : ExprNode<ExprKind::kRow> {
  using ExprNode::ExprNode;
};

struct Current final : ExprNode<ExprKind::kCurrent> {
  using ExprNode::ExprNode;
  std::string name;  // The function it calls: "current_date", "localtimestamp", ...
};

}  // namespace floe::sql::ast
