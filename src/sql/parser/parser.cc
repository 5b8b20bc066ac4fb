#include "sql/parser/parser.h"

#include <optional>

#include "sql/parser/lexer.h"
#include "sql/parser/pg_query_runner.h"
#include "sql/parser/pg_tree_reader.h"
#include "sql/parser/pre_parser.h"
#include "sql/types/sql_error.h"

namespace floe::sql {
namespace {

using namespace ast;

// One statement's tokens and the ways to parse pieces of them. Lives on the parser thread for
// the duration of one statement.
class StatementParser {
 public:
  StatementParser(std::string_view sql, const std::vector<Token>& tokens, TokenRange range)
      : sql_(sql), tokens_(tokens), range_(range), pos_(range.first) {}

  Result<StatementPtr> Run() {
    FLOE_ASSIGN_OR_RETURN(auto statement, ParseFrom(range_.first));
    statement->location = tokens_[range_.first].begin;
    statement->length = tokens_[range_.last - 1].end - statement->location;
    return statement;
  }

  // Parses tokens `range` as one expression, through libpg_query as `SELECT <expr>`.
  Result<ExprPtr> ParseExpressionRange(TokenRange range) {
    FLOE_ASSIGN_OR_RETURN(auto statement, ParseWithPostgres(range, "SELECT "));
    if (statement->kind != StatementKind::kQuery || statement->query->kind != Query::Kind::kSelect ||
        statement->query->select.size() != 1 || !statement->query->from.empty() || statement->query->where) {
      return SqlError(ErrorKind::kInvalidArgument, sql_, tokens_[range.first].begin, "expected one expression",
                      ErrorCode::kSyntaxError);
    }
    return std::move(statement->query->select[0].expr);
  }

 private:
  const Token* Peek(size_t offset = 0) const {
    size_t at = pos_ + offset;
    return at < range_.last ? &tokens_[at] : nullptr;
  }
  bool PeekKeyword(std::string_view keyword, size_t offset = 0) const {
    const Token* t = Peek(offset);
    return t != nullptr && t->IsKeyword(keyword);
  }
  bool AcceptKeyword(std::string_view keyword) {
    if (!PeekKeyword(keyword)) return false;
    ++pos_;
    return true;
  }
  int HerePosition() const { return pos_ < range_.last ? tokens_[pos_].begin : tokens_[range_.last - 1].end; }
  std::unexpected<Error> Expected(std::string_view what) const {
    const Token* t = Peek();
    std::string found = t == nullptr ? "end of statement" : fmt::format("'{}'", sql_.substr(t->begin, t->end - t->begin));
    return SqlError(ErrorKind::kInvalidArgument, sql_, HerePosition(),
                    fmt::format("expected {} but found {}", what, found), ErrorCode::kSyntaxError);
  }
  Status ExpectEnd() const {
    if (pos_ < range_.last) return Expected("end of statement");
    return OkStatus();
  }

  Result<std::vector<std::string>> QualifiedName(std::string_view what) {
    std::vector<std::string> name;
    while (true) {
      const Token* t = Peek();
      if (t == nullptr || (t->kind != TokenKind::kIdentifier && t->kind != TokenKind::kQuotedIdentifier)) {
        return Expected(what);
      }
      name.push_back(t->value);
      ++pos_;
      const Token* dot = Peek();
      if (dot == nullptr || dot->kind != TokenKind::kDot) break;
      ++pos_;
    }
    if (name.size() > 3) {
      return SqlError(ErrorKind::kInvalidArgument, sql_, tokens_[pos_ - 1].begin, fmt::format("{} has too many parts", what));
    }
    return name;
  }

  Result<std::string> StringLiteral() {
    const Token* t = Peek();
    if (t == nullptr || t->kind != TokenKind::kString || t->value.empty() || t->value[0] != '\'') {
      return Expected("a quoted string");
    }
    std::string out;
    for (size_t i = 1; i + 1 < t->value.size(); ++i) {
      out.push_back(t->value[i]);
      if (t->value[i] == '\'') ++i;
    }
    ++pos_;
    return out;
  }

  Status OptionalLike(Statement& statement) {
    if (AcceptKeyword("like")) {
      FLOE_ASSIGN_OR_RETURN(statement.like_pattern, StringLiteral());
      if (AcceptKeyword("escape")) return Expected("end of statement (LIKE ... ESCAPE is not supported)");
    }
    return ExpectEnd();
  }

  Result<StatementPtr> ParseFrom(size_t first) {
    pos_ = first;
    int at = tokens_[first].begin;
    if (AcceptKeyword("explain")) {
      auto statement = std::make_unique<Statement>(StatementKind::kExplain, at);
      if (AcceptKeyword("analyze")) statement->analyze = true;
      if (Peek() == nullptr) return Expected("a statement to explain");
      if (Peek()->kind == TokenKind::kLeftParen) {
        return SqlError(ErrorKind::kNotImplemented, sql_, Peek()->begin, "EXPLAIN options are not supported");
      }
      FLOE_ASSIGN_OR_RETURN(statement->explained, ParseFrom(pos_));
      statement->explained->location = tokens_[first].begin;
      return statement;
    }
    if (AcceptKeyword("show")) {
      if (AcceptKeyword("catalogs")) {
        auto statement = std::make_unique<Statement>(StatementKind::kShowCatalogs, at);
        FLOE_RETURN_IF_ERROR(OptionalLike(*statement));
        return statement;
      }
      if (AcceptKeyword("schemas")) {
        auto statement = std::make_unique<Statement>(StatementKind::kShowSchemas, at);
        if (AcceptKeyword("from") || AcceptKeyword("in")) {
          statement->name_location = HerePosition();
          FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a catalog name"));
          if (statement->name.size() != 1) {
            return SqlError(ErrorKind::kInvalidArgument, sql_, statement->name_location, "expected a catalog name");
          }
        }
        FLOE_RETURN_IF_ERROR(OptionalLike(*statement));
        return statement;
      }
      if (AcceptKeyword("tables")) {
        auto statement = std::make_unique<Statement>(StatementKind::kShowTables, at);
        if (AcceptKeyword("from") || AcceptKeyword("in")) {
          statement->name_location = HerePosition();
          FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a schema name"));
          if (statement->name.size() > 2) {
            return SqlError(ErrorKind::kInvalidArgument, sql_, statement->name_location, "expected [catalog.]schema");
          }
        }
        FLOE_RETURN_IF_ERROR(OptionalLike(*statement));
        return statement;
      }
      if (AcceptKeyword("columns")) {
        auto statement = std::make_unique<Statement>(StatementKind::kShowColumns, at);
        if (!AcceptKeyword("from") && !AcceptKeyword("in")) return Expected("FROM");
        statement->name_location = HerePosition();
        FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a table name"));
        FLOE_RETURN_IF_ERROR(OptionalLike(*statement));
        return statement;
      }
      if (PeekKeyword("create") && PeekKeyword("view", 1)) {
        pos_ += 2;
        auto statement = std::make_unique<Statement>(StatementKind::kShowCreateView, at);
        statement->name_location = HerePosition();
        FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a view name"));
        FLOE_RETURN_IF_ERROR(ExpectEnd());
        return statement;
      }
      pos_ = first;  // Other SHOW forms (SHOW search_path, ...) are PostgreSQL's.
    }
    if (PeekKeyword("describe") || (PeekKeyword("desc") && Peek(1) != nullptr)) {
      ++pos_;
      auto statement = std::make_unique<Statement>(StatementKind::kShowColumns, at);
      if (PeekKeyword("input") || PeekKeyword("output")) {
        return SqlError(ErrorKind::kNotImplemented, sql_, HerePosition(), "DESCRIBE INPUT/OUTPUT is not supported");
      }
      statement->name_location = HerePosition();
      FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a table name"));
      FLOE_RETURN_IF_ERROR(ExpectEnd());
      return statement;
    }
    if (PeekKeyword("set") && PeekKeyword("time", 1) && PeekKeyword("zone", 2)) {
      // SET TIME ZONE 'Europe/Berlin' | LOCAL | DEFAULT (the last two: UTC, floe's own zone).
      pos_ += 3;
      auto statement = std::make_unique<Statement>(StatementKind::kSetTimeZone, at);
      statement->name_location = HerePosition();
      if (AcceptKeyword("local") || AcceptKeyword("default")) {
        statement->name = {"UTC"};
      } else {
        FLOE_ASSIGN_OR_RETURN(std::string zone, StringLiteral());
        statement->name = {zone};
      }
      FLOE_RETURN_IF_ERROR(ExpectEnd());
      return statement;
    }
    if (AcceptKeyword("use")) {
      auto statement = std::make_unique<Statement>(StatementKind::kUse, at);
      statement->name_location = HerePosition();
      FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a schema name"));
      if (statement->name.size() > 2) {
        return SqlError(ErrorKind::kInvalidArgument, sql_, statement->name_location, "expected [catalog.]schema");
      }
      FLOE_RETURN_IF_ERROR(ExpectEnd());
      return statement;
    }
    if (AcceptKeyword("analyze")) {
      auto statement = std::make_unique<Statement>(StatementKind::kAnalyze, at);
      statement->name_location = HerePosition();
      FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a table name"));
      if (PeekKeyword("with")) {
        return SqlError(ErrorKind::kNotImplemented, sql_, HerePosition(),
                        "ANALYZE ... WITH (...) is not supported: every column is analyzed");
      }
      FLOE_RETURN_IF_ERROR(ExpectEnd());
      return statement;
    }
    if (PeekKeyword("create") &&
        (PeekKeyword("view", 1) || (PeekKeyword("or", 1) && PeekKeyword("replace", 2) && PeekKeyword("view", 3)))) {
      return CreateView(at);
    }
    if (PeekKeyword("alter") && PeekKeyword("table", 1)) {
      if (auto execute = TryAlterTableExecute(at)) return std::move(*execute);
      pos_ = first;
    }
    for (std::string_view unsupported : {"prepare", "execute", "deallocate"}) {
      if (PeekKeyword(unsupported)) {
        return SqlError(ErrorKind::kNotImplemented, sql_, at,
                        fmt::format("{} is not supported yet", fmt::format("{}", unsupported)));
      }
    }
    return ParseWithPostgres(TokenRange{first, range_.last}, "");
  }

  // CREATE [OR REPLACE] VIEW name [(column, ...)] [COMMENT 'text'] [SECURITY INVOKER] AS query:
  // Trino's form and PostgreSQL's column list. Parsed here, not by libpg_query, to keep the
  // query's exact text, which is what the view stores.
  Result<StatementPtr> CreateView(int at) {
    auto statement = std::make_unique<Statement>(StatementKind::kCreateView, at);
    ++pos_;  // CREATE
    if (AcceptKeyword("or")) {
      ++pos_;  // REPLACE
      statement->or_replace = true;
    }
    ++pos_;  // VIEW
    statement->name_location = HerePosition();
    FLOE_ASSIGN_OR_RETURN(statement->name, QualifiedName("a view name"));
    const Token* open = Peek();
    if (open != nullptr && open->kind == TokenKind::kLeftParen) {
      ++pos_;
      while (true) {
        const Token* column = Peek();
        if (column == nullptr ||
            (column->kind != TokenKind::kIdentifier && column->kind != TokenKind::kQuotedIdentifier)) {
          return Expected("a column name");
        }
        statement->view_columns.push_back(column->value);
        ++pos_;
        const Token* next = Peek();
        if (next != nullptr && next->kind == TokenKind::kComma) {
          ++pos_;
          continue;
        }
        if (next == nullptr || next->kind != TokenKind::kRightParen) return Expected("',' or ')'");
        ++pos_;
        break;
      }
    }
    if (AcceptKeyword("comment")) {
      FLOE_ASSIGN_OR_RETURN(statement->comment, StringLiteral());
    }
    if (AcceptKeyword("security")) {
      // A view runs with its reader's rights: the reader needs read on every table it reads.
      if (PeekKeyword("definer")) {
        return SqlError(
            ErrorKind::kNotImplemented, sql_, HerePosition(),
            "SECURITY DEFINER is not supported: floe's views run with the rights of the user who reads them "
            "(SECURITY INVOKER)");
      }
      if (!AcceptKeyword("invoker")) return Expected("INVOKER");
    }
    if (PeekKeyword("with") && Peek(1) != nullptr && Peek(1)->kind == TokenKind::kLeftParen) {
      return SqlError(ErrorKind::kNotImplemented, sql_, HerePosition(), "view options WITH (...) are not supported");
    }
    if (!AcceptKeyword("as")) return Expected("AS");
    if (Peek() == nullptr) return Expected("a query");
    TokenRange query{pos_, range_.last};
    FLOE_ASSIGN_OR_RETURN(auto parsed, ParseWithPostgres(query, ""));
    if (parsed->kind != StatementKind::kQuery) {
      return SqlError(ErrorKind::kInvalidArgument, sql_, tokens_[query.first].begin, "a view's body must be a query",
                      ErrorCode::kSyntaxError);
    }
    statement->query = std::move(parsed->query);
    int begin = tokens_[query.first].begin;
    statement->query_text = std::string(sql_.substr(begin, tokens_[query.last - 1].end - begin));
    pos_ = range_.last;
    return statement;
  }

  // ALTER TABLE name EXECUTE procedure [(args)] [WHERE predicate]. Empty when the statement is
  // another ALTER TABLE.
  std::optional<Result<StatementPtr>> TryAlterTableExecute(int at) {
    pos_ += 2;
    size_t name_first = pos_;
    auto name = QualifiedName("a table name");
    if (!name.has_value() || !PeekKeyword("execute")) return std::nullopt;
    ++pos_;
    auto statement = std::make_unique<Statement>(StatementKind::kAlterTableExecute, at);
    statement->name = std::move(*name);
    statement->name_location = tokens_[name_first].begin;
    const Token* procedure = Peek();
    if (procedure == nullptr || procedure->kind != TokenKind::kIdentifier) return Expected("a procedure name");
    statement->procedure = procedure->value;
    ++pos_;
    const Token* open = Peek();
    if (open != nullptr && open->kind == TokenKind::kLeftParen) {
      // Arguments: the whole call goes through libpg_query, which knows `name => value`.
      size_t call_first = pos_ - 1;
      int depth = 0;
      size_t close = pos_;
      for (; close < range_.last; ++close) {
        if (tokens_[close].kind == TokenKind::kLeftParen) ++depth;
        if (tokens_[close].kind == TokenKind::kRightParen && --depth == 0) break;
      }
      if (close >= range_.last) return Expected("')'");
      auto call = ParseExpressionRange(TokenRange{call_first, close + 1});
      if (!call.has_value()) return std::unexpected(call.error());
      if ((*call)->kind != ExprKind::kFunction) return Expected("procedure arguments");
      auto& procedure_call = (*call)->As<FunctionCall>();
      for (size_t i = 0; i < procedure_call.args.size(); ++i) {
        ProcedureArgument out;
        if (i < procedure_call.argument_names.size()) out.name = std::move(procedure_call.argument_names[i]);
        out.value = std::move(procedure_call.args[i]);
        statement->procedure_args.push_back(std::move(out));
      }
      pos_ = close + 1;
    }
    if (AcceptKeyword("where")) {
      if (Peek() == nullptr) return Expected("a predicate");
      auto where = ParseExpressionRange(TokenRange{pos_, range_.last});
      if (!where.has_value()) return std::unexpected(where.error());
      statement->where = std::move(*where);
      pos_ = range_.last;
    }
    if (auto end = ExpectEnd(); !end.has_value()) return std::unexpected(end.error());
    return statement;
  }

  Result<StatementPtr> ParseWithPostgres(TokenRange range, std::string_view prefix) {
    FLOE_ASSIGN_OR_RETURN(RewrittenText rewritten, RewriteForPostgres(sql_, tokens_, range, prefix, parameter_count_));
    PgQueryOutput output = RunPgQuery(rewritten.text);
    if (!output.error.empty()) {
      int offset = -1;
      if (output.cursor_position > 0) {
        // cursorpos counts characters from 1; convert to a byte offset.
        int characters = 0;
        size_t byte = 0;
        while (byte < rewritten.text.size() && characters < output.cursor_position - 1) {
          ++byte;
          while (byte < rewritten.text.size() && (static_cast<unsigned char>(rewritten.text[byte]) & 0xC0) == 0x80) ++byte;
          ++characters;
        }
        offset = rewritten.offsets.ToOriginal(static_cast<int>(byte));
      } else {
        offset = tokens_[range.first].begin;
      }
      return SqlError(ErrorKind::kInvalidArgument, sql_, offset, output.error, ErrorCode::kSyntaxError);
    }
    TreeContext context{sql_, &rewritten, [this](TokenRange value) { return ParseExpressionRange(value); }};
    FLOE_ASSIGN_OR_RETURN(auto statements, ReadPgParseTree(output.json, context));
    if (statements.size() != 1) {
      return SqlError(ErrorKind::kInvalidArgument, sql_, tokens_[range.first].begin, "expected one statement",
                      ErrorCode::kSyntaxError);
    }
    StatementPtr statement = std::move(statements[0]);
    if (!rewritten.partitioned_by.empty()) {
      if (statement->kind != StatementKind::kCreateTable && statement->kind != StatementKind::kCreateTableAs) {
        return SqlError(ErrorKind::kInvalidArgument, sql_, tokens_[rewritten.partitioned_by.first].begin,
                        "PARTITIONED BY belongs to CREATE TABLE");
      }
      // Each transform is an expression: day(ts), bucket(16, id), region.
      size_t item_first = rewritten.partitioned_by.first;
      int depth = 0;
      for (size_t i = item_first; i <= rewritten.partitioned_by.last; ++i) {
        bool end = i == rewritten.partitioned_by.last;
        if (!end && (tokens_[i].kind == TokenKind::kLeftParen)) ++depth;
        if (!end && (tokens_[i].kind == TokenKind::kRightParen)) --depth;
        if (end || (depth == 0 && tokens_[i].kind == TokenKind::kComma)) {
          if (i == item_first) {
            return SqlError(ErrorKind::kInvalidArgument, sql_, tokens_[std::min(i, range.last - 1)].begin,
                            "empty PARTITIONED BY item");
          }
          FLOE_ASSIGN_OR_RETURN(auto transform, ParseExpressionRange(TokenRange{item_first, i}));
          statement->partitioned_by.push_back(std::move(transform));
          item_first = i + 1;
        }
      }
    }
    return statement;
  }

  std::string_view sql_;
  const std::vector<Token>& tokens_;
  TokenRange range_;
  size_t pos_;
  int parameter_count_ = 0;
};

Result<std::vector<StatementPtr>> ParseOnThisThread(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(auto tokens, Tokenize(sql));
  std::vector<StatementPtr> out;
  for (TokenRange range : SplitStatements(tokens)) {
    FLOE_ASSIGN_OR_RETURN(auto statement, StatementParser(sql, tokens, range).Run());
    out.push_back(std::move(statement));
  }
  return out;
}

}  // namespace

Result<std::vector<StatementPtr>> Parse(std::string_view sql) {
  std::optional<Result<std::vector<StatementPtr>>> result;
  FLOE_RETURN_IF_ERROR(RunWithLargeStack([&] { result = ParseOnThisThread(sql); }));
  return std::move(*result);
}

Result<StatementPtr> ParseStatement(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(auto statements, Parse(sql));
  if (statements.size() != 1) {
    return MakeError(ErrorKind::kInvalidArgument, "expected one statement, found {}", statements.size());
  }
  return std::move(statements[0]);
}

Result<ExprPtr> ParseExpression(std::string_view sql) {
  std::optional<Result<ExprPtr>> result;
  FLOE_RETURN_IF_ERROR(RunWithLargeStack([&] {
    result = [&]() -> Result<ExprPtr> {
      FLOE_ASSIGN_OR_RETURN(auto tokens, Tokenize(sql));
      if (tokens.empty()) return MakeError(ErrorKind::kInvalidArgument, "empty expression");
      return StatementParser(sql, tokens, TokenRange{0, tokens.size()}).ParseExpressionRange(TokenRange{0, tokens.size()});
    }();
  }));
  return std::move(*result);
}

}  // namespace floe::sql
