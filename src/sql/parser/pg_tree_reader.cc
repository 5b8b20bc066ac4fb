#include "sql/parser/pg_tree_reader.h"

#include <cctype>

#include <simdjson.h>

#include "sql/types/sql_error.h"

namespace floe::sql {
namespace {

using simdjson::dom::element;
using namespace ast;

// Frame option bits of PostgreSQL's WindowDef (nodes/parsenodes.h, a stable wire fact).
constexpr int64_t kFrameRange = 0x2;
constexpr int64_t kFrameRows = 0x4;
constexpr int64_t kFrameGroups = 0x8;
constexpr int64_t kFrameStartUnboundedPreceding = 0x20;
constexpr int64_t kFrameEndUnboundedPreceding = 0x40;
constexpr int64_t kFrameStartUnboundedFollowing = 0x80;
constexpr int64_t kFrameEndUnboundedFollowing = 0x100;
constexpr int64_t kFrameStartCurrentRow = 0x200;
constexpr int64_t kFrameEndCurrentRow = 0x400;
constexpr int64_t kFrameStartOffsetPreceding = 0x800;
constexpr int64_t kFrameEndOffsetPreceding = 0x1000;
constexpr int64_t kFrameStartOffsetFollowing = 0x2000;
constexpr int64_t kFrameEndOffsetFollowing = 0x4000;
constexpr int64_t kFrameExclusions = 0x8000 | 0x10000 | 0x20000;

bool Get(element e, std::string_view key, element& out) { return e[key].get(out) == simdjson::SUCCESS; }

std::string_view Str(element e, std::string_view key) {
  std::string_view out;
  if (e[key].get_string().get(out) != simdjson::SUCCESS) return {};
  return out;
}

int64_t Int(element e, std::string_view key, int64_t fallback = 0) {
  int64_t out = 0;
  if (e[key].get_int64().get(out) != simdjson::SUCCESS) return fallback;
  return out;
}

bool Bool(element e, std::string_view key) {
  bool out = false;
  if (e[key].get_bool().get(out) != simdjson::SUCCESS) return false;
  return out;
}

std::vector<element> List(element e, std::string_view key) {
  std::vector<element> out;
  simdjson::dom::array array;
  if (e[key].get_array().get(array) != simdjson::SUCCESS) return out;
  for (element child : array) out.push_back(child);
  return out;
}

std::string PgTypeName(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> kAliases[] = {
      {"int2", "smallint"},   {"int4", "integer"},     {"int", "integer"},      {"int8", "bigint"},
      {"float4", "real"},     {"float8", "double"},    {"numeric", "decimal"},  {"bool", "boolean"},
      {"text", "varchar"},    {"bpchar", "char"},      {"bytea", "varbinary"},  {"timestamptz", "timestamp with time zone"},
      {"string", "varchar"},  {"float", "double"},     {"long", "bigint"},      {"binary", "varbinary"},
  };
  for (auto [from, to] : kAliases) {
    if (name == from) return std::string(to);
  }
  return std::string(name);
}

class Reader {
 public:
  explicit Reader(const TreeContext& context) : c_(context) {}

  Result<std::vector<StatementPtr>> Run(std::string_view json) {
    simdjson::dom::parser parser;
    if (parser.allocate(json.size() + simdjson::SIMDJSON_PADDING, kMaxParseTreeDepth) != simdjson::SUCCESS) {
      return MakeError(ErrorKind::kResourceExhausted, "cannot allocate {} bytes for the parse tree", json.size());
    }
    simdjson::padded_string padded(json);
    element root;
    auto error = parser.parse(padded).get(root);
    if (error == simdjson::DEPTH_ERROR) {
      return SqlError(ErrorKind::kResourceExhausted, c_.original, StatementStart(),
                      fmt::format("expression nested too deeply (the parse tree exceeds {} levels)", kMaxParseTreeDepth));
    }
    if (error != simdjson::SUCCESS) {
      return MakeError(ErrorKind::kInternal, "unreadable parse tree from libpg_query: {}", simdjson::error_message(error));
    }
    std::vector<StatementPtr> out;
    for (element raw : List(root, "stmts")) {
      element stmt;
      if (!Get(raw, "stmt", stmt)) return Malformed(StatementStart(), "statement without a body");
      FLOE_ASSIGN_OR_RETURN(auto statement, ReadStatement(stmt));
      out.push_back(std::move(statement));
    }
    return out;
  }

 private:
  int StatementStart() const { return c_.rewritten->offsets.ToOriginal(0); }

  int Loc(element body) const {
    int64_t location = Int(body, "location", -1);
    if (location < 0) return -1;
    return c_.rewritten->offsets.ToOriginal(static_cast<int>(location));
  }

  std::unexpected<Error> Malformed(int at, std::string_view what) const {
    return SqlError(ErrorKind::kInvalidArgument, c_.original, at, fmt::format("unexpected parse tree: {}", what));
  }
  std::unexpected<Error> Unsupported(int at, std::string_view what) const {
    return SqlError(ErrorKind::kNotImplemented, c_.original, at, fmt::format("{} is not supported", what));
  }

  // {"Type": {...}} -> ("Type", body).
  static bool Unwrap(element e, std::string_view& type, element& body) {
    simdjson::dom::object object;
    if (e.get_object().get(object) != simdjson::SUCCESS) return false;
    int count = 0;
    for (auto field : object) {
      type = field.key;
      body = field.value;
      ++count;
    }
    return count == 1;
  }

  Result<std::vector<std::string>> Strings(element body, std::string_view key) const {
    std::vector<std::string> out;
    for (element item : List(body, key)) {
      std::string_view type;
      element value;
      if (!Unwrap(item, type, value) || type != "String") return Malformed(Loc(body), "expected a name");
      out.emplace_back(Str(value, "sval"));
    }
    return out;
  }

  // A_Const's integer: libpg_query's JSON drops zero and, in this version, negative values,
  // so the digits are read back from the text when the field is absent. A negative constant
  // is the grammar folding a unary minus into its operand (`- ( 84 )` is one A_Const at the
  // minus sign), so parentheses, spaces and comments may stand between the sign and the
  // digits. Anything else is an error: reading it as 0 would answer wrongly.
  Result<std::string> IntegerText(element a_const, element ival) const {
    int64_t value = 0;
    if (ival["ival"].get_int64().get(value) == simdjson::SUCCESS) return std::to_string(value);
    int64_t location = Int(a_const, "location", -1);
    const std::string& text = c_.rewritten->text;
    int at = c_.rewritten->offsets.ToOriginal(static_cast<int>(location));
    if (location < 0 || static_cast<size_t>(location) >= text.size()) return Malformed(at, "integer constant without text");
    size_t i = static_cast<size_t>(location);
    std::string out;
    if (text[i] == '-') {
      out.push_back('-');
      ++i;
      i = SkipToOperand(text, i);
    }
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) out.push_back(text[i++]);
    if (out.empty() || out == "-") return Malformed(at, "integer constant whose digits could not be read");
    return out;
  }

  // Past the spaces, opening parentheses and comments that may separate a folded unary minus
  // from its operand's digits.
  static size_t SkipToOperand(const std::string& text, size_t i) {
    while (i < text.size()) {
      char ch = text[i];
      if (std::isspace(static_cast<unsigned char>(ch)) || ch == '(') {
        ++i;
      } else if (text.compare(i, 2, "--") == 0) {
        size_t end = text.find('\n', i);
        i = end == std::string::npos ? text.size() : end + 1;
      } else if (text.compare(i, 2, "/*") == 0) {
        size_t end = text.find("*/", i + 2);
        i = end == std::string::npos ? text.size() : end + 2;
      } else {
        break;
      }
    }
    return i;
  }

  // ---------------------------------------------------------------- statements

  Result<StatementPtr> ReadStatement(element node) {
    std::string_view type;
    element body;
    if (!Unwrap(node, type, body)) return Malformed(StatementStart(), "statement node");
    int at = StatementStart();
    if (type == "SelectStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kQuery, at);
      FLOE_ASSIGN_OR_RETURN(statement->query, ReadSelect(body));
      return statement;
    }
    if (type == "ExplainStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kExplain, at);
      for (element option : List(body, "options")) {
        std::string_view option_type;
        element def;
        if (!Unwrap(option, option_type, def)) continue;
        std::string_view name = Str(def, "defname");
        if (name == "analyze") {
          statement->analyze = true;
        } else {
          return Unsupported(Loc(def), fmt::format("EXPLAIN option '{}'", name));
        }
      }
      element inner;
      if (!Get(body, "query", inner)) return Malformed(at, "EXPLAIN without a statement");
      FLOE_ASSIGN_OR_RETURN(statement->explained, ReadStatement(inner));
      return statement;
    }
    if (type == "CreateStmt") return ReadCreateTable(body);
    if (type == "CreateTableAsStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kCreateTableAs, at);
      element into, rel, query;
      if (!Get(body, "into", into) || !Get(into, "rel", rel) || !Get(body, "query", query)) {
        return Malformed(at, "CREATE TABLE AS");
      }
      if (Str(body, "objtype") != "OBJECT_TABLE") return Unsupported(at, "CREATE MATERIALIZED VIEW");
      FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
      statement->if_not_exists = Bool(body, "if_not_exists");
      std::string_view query_type;
      element query_body;
      if (!Unwrap(query, query_type, query_body) || query_type != "SelectStmt") return Malformed(at, "CREATE TABLE AS query");
      FLOE_ASSIGN_OR_RETURN(statement->query, ReadSelect(query_body));
      return statement;
    }
    if (type == "InsertStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kInsert, at);
      element rel, select;
      if (!Get(body, "relation", rel)) return Malformed(at, "INSERT without a table");
      FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
      for (element col : List(body, "cols")) {
        std::string_view col_type;
        element target;
        if (!Unwrap(col, col_type, target)) return Malformed(at, "INSERT column");
        if (!List(target, "indirection").empty()) return Unsupported(Loc(target), "INSERT into a nested field");
        statement->insert_columns.emplace_back(Str(target, "name"));
      }
      if (Get(body, "onConflictClause", select)) return Unsupported(at, "ON CONFLICT");
      if (Get(body, "returningList", select)) return Unsupported(at, "RETURNING");
      if (!Get(body, "selectStmt", select)) return Unsupported(at, "INSERT ... DEFAULT VALUES");
      std::string_view select_type;
      element select_body;
      if (!Unwrap(select, select_type, select_body) || select_type != "SelectStmt") return Malformed(at, "INSERT source");
      FLOE_ASSIGN_OR_RETURN(statement->query, ReadSelect(select_body));
      return statement;
    }
    if (type == "DeleteStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kDelete, at);
      element rel, other;
      if (!Get(body, "relation", rel)) return Malformed(at, "DELETE without a table");
      FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
      if (Get(body, "returningList", other)) return Unsupported(at, "RETURNING");
      if (Get(body, "withClause", other)) return Unsupported(at, "WITH ... DELETE");
      // The rows to delete as the query that selects them, so the binder and optimizer treat the
      // WHERE exactly as a SELECT's (names, types, pushdown into the scan).
      auto query = std::make_unique<Query>(Query::Kind::kSelect, at);
      FLOE_ASSIGN_OR_RETURN(auto ref, TargetTableRef(rel, *statement));
      query->from.push_back(std::move(ref));
      query->select.push_back(StarItem(at));
      if (Get(body, "whereClause", other)) {
        FLOE_ASSIGN_OR_RETURN(query->where, ReadExpr(other));
      }
      auto using_items = List(body, "usingClause");
      if (!using_items.empty()) {
        // PostgreSQL's DELETE FROM t USING s WHERE c: the rows of t for which some row of s
        // makes c true, i.e. WHERE EXISTS (SELECT 1 FROM s WHERE c); a row of t that several
        // rows of s match is deleted once.
        auto exists = std::make_unique<Query>(Query::Kind::kSelect, at);
        for (element item : using_items) {
          FLOE_ASSIGN_OR_RETURN(auto source, ReadTableRef(item));
          exists->from.push_back(std::move(source));
        }
        auto one = std::make_unique<Literal>(at);
        one->literal_kind = LiteralKind::kInteger;
        one->text = "1";
        exists->select.push_back(ValueItem(std::move(one)));
        exists->where = std::move(query->where);
        auto test = std::make_unique<Exists>(at);
        test->subquery = std::move(exists);
        query->where = std::move(test);
      }
      statement->query = std::move(query);
      return statement;
    }
    if (type == "UpdateStmt") return ReadUpdate(body, at);
    if (type == "MergeStmt") return ReadMerge(body, at);
    if (type == "DropStmt") {
      std::string_view remove = Str(body, "removeType");
      StatementKind kind;
      if (remove == "OBJECT_TABLE") {
        kind = StatementKind::kDropTable;
      } else if (remove == "OBJECT_VIEW") {
        kind = StatementKind::kDropView;
      } else if (remove == "OBJECT_SCHEMA") {
        kind = StatementKind::kDropSchema;
      } else {
        return Unsupported(at, "this DROP");
      }
      auto statement = std::make_unique<Statement>(kind, at);
      statement->if_exists = Bool(body, "missing_ok");
      auto objects = List(body, "objects");
      if (objects.size() != 1) return Unsupported(at, "DROP of several objects");
      std::string_view object_type;
      element object;
      if (!Unwrap(objects[0], object_type, object)) return Malformed(at, "DROP object");
      if (object_type == "List") {
        FLOE_ASSIGN_OR_RETURN(statement->name, Strings(object, "items"));
      } else if (object_type == "String") {
        statement->name.emplace_back(Str(object, "sval"));
      } else {
        return Malformed(at, "DROP object");
      }
      if (Str(body, "behavior") == "DROP_CASCADE") return Unsupported(at, "DROP ... CASCADE");
      return statement;
    }
    if (type == "AlterTableStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kAlterTable, at);
      element rel;
      if (!Get(body, "relation", rel)) return Malformed(at, "ALTER TABLE without a table");
      FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
      statement->if_exists = Bool(body, "missing_ok");
      auto commands = List(body, "cmds");
      if (commands.size() != 1) return Unsupported(at, "ALTER TABLE with several actions");
      std::string_view command_type;
      element command;
      if (!Unwrap(commands[0], command_type, command)) return Malformed(at, "ALTER TABLE action");
      std::string_view subtype = Str(command, "subtype");
      if (subtype == "AT_AddColumn") {
        statement->alter_action = AlterAction::kAddColumn;
        element def;
        std::string_view def_type;
        element column;
        if (!Get(command, "def", def) || !Unwrap(def, def_type, column)) return Malformed(at, "ADD COLUMN");
        FLOE_ASSIGN_OR_RETURN(auto definition, ReadColumnDef(column, *statement));
        // Identifier fields change only with the schema's key, not by adding a column.
        if (definition.primary_key || statement->unique_ignored) return Unsupported(Loc(column), "a key constraint in ADD COLUMN");
        statement->columns.push_back(std::move(definition));
      } else if (subtype == "AT_DropColumn") {
        statement->alter_action = AlterAction::kDropColumn;
        statement->column_name = std::string(Str(command, "name"));
      } else {
        return Unsupported(at, "this ALTER TABLE action");
      }
      return statement;
    }
    if (type == "RenameStmt") {
      if (Str(body, "renameType") != "OBJECT_COLUMN") return Unsupported(at, "this RENAME");
      auto statement = std::make_unique<Statement>(StatementKind::kAlterTable, at);
      element rel;
      if (!Get(body, "relation", rel)) return Malformed(at, "RENAME without a table");
      FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
      statement->alter_action = AlterAction::kRenameColumn;
      statement->column_name = std::string(Str(body, "subname"));
      statement->new_name = std::string(Str(body, "newname"));
      return statement;
    }
    if (type == "CreateSchemaStmt") {
      auto statement = std::make_unique<Statement>(StatementKind::kCreateSchema, at);
      statement->name.emplace_back(Str(body, "schemaname"));
      statement->if_not_exists = Bool(body, "if_not_exists");
      if (!List(body, "schemaElts").empty()) return Unsupported(at, "CREATE SCHEMA with elements");
      return statement;
    }
    std::string name(type);
    if (name.size() > 4 && name.ends_with("Stmt")) name.resize(name.size() - 4);
    return Unsupported(at, fmt::format("statement {}", name));
  }

  // UPDATE t SET c = v, ... [WHERE w] becomes the query SELECT *, v, ... FROM t WHERE w: the
  // binder treats the WHERE and the values exactly as a SELECT's, over the table's columns.
  Result<StatementPtr> ReadUpdate(element body, int at) {
    auto statement = std::make_unique<Statement>(StatementKind::kUpdate, at);
    element rel, other;
    if (!Get(body, "relation", rel)) return Malformed(at, "UPDATE without a table");
    FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
    if (Get(body, "returningList", other)) return Unsupported(at, "RETURNING");
    if (Get(body, "withClause", other)) return Unsupported(at, "WITH ... UPDATE");
    if (!List(body, "fromClause").empty()) return ReadUpdateFrom(body, at, rel, std::move(statement));
    auto query = std::make_unique<Query>(Query::Kind::kSelect, at);
    FLOE_ASSIGN_OR_RETURN(auto ref, TargetTableRef(rel, *statement));
    query->from.push_back(std::move(ref));
    query->select.push_back(StarItem(at));
    FLOE_RETURN_IF_ERROR(ReadAssignments(body, "targetList", at, statement->assignments, *query));
    if (Get(body, "whereClause", other)) {
      FLOE_ASSIGN_OR_RETURN(query->where, ReadExpr(other));
    }
    statement->query = std::move(query);
    return statement;
  }

  // PostgreSQL's UPDATE t SET c = v FROM s WHERE w, as MERGE INTO t USING s ON w WHEN MATCHED
  // THEN UPDATE SET c = v (w is TRUE when absent; several FROM items are cross-joined). Unlike
  // PostgreSQL, which takes an arbitrary one, a row of t that two rows of s match is an error
  // (MERGE's rule), never a silent choice. It reports as an UPDATE.
  Result<StatementPtr> ReadUpdateFrom(element body, int at, element rel, StatementPtr statement) {
    statement->kind = StatementKind::kMerge;
    statement->update_from = true;
    auto query = std::make_unique<Query>(Query::Kind::kSelect, at);
    FLOE_ASSIGN_OR_RETURN(auto target_ref, TargetTableRef(rel, *statement));
    query->from.push_back(std::move(target_ref));
    TableRefPtr source;
    for (element item : List(body, "fromClause")) {
      FLOE_ASSIGN_OR_RETURN(auto next, ReadTableRef(item));
      if (!source) {
        source = std::move(next);
        continue;
      }
      auto joined = std::make_unique<TableRef>(TableRef::Kind::kJoin, at);
      joined->join_type = JoinType::kCross;
      joined->left = std::move(source);
      joined->right = std::move(next);
      source = std::move(joined);
    }
    query->from.push_back(std::move(source));
    query->select.push_back(StarItem(at));
    element where;
    if (Get(body, "whereClause", where)) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr on, ReadExpr(where));
      query->select.push_back(ValueItem(std::move(on)));
    } else {
      auto always = std::make_unique<Literal>(at);
      always->literal_kind = LiteralKind::kBool;
      always->bool_value = true;
      query->select.push_back(ValueItem(std::move(always)));
    }
    MergeClause clause;
    clause.matched = true;
    clause.action = MergeClause::Action::kUpdate;
    clause.location = at;
    FLOE_RETURN_IF_ERROR(ReadAssignments(body, "targetList", at, clause.columns, *query));
    clause.value_count = static_cast<int>(clause.columns.size());
    statement->merge_clauses.push_back(std::move(clause));
    statement->query = std::move(query);
    return statement;
  }

  // MERGE INTO t USING s ON c WHEN ... becomes the query SELECT *, c, <each clause's condition
  // and values> FROM t, s: every expression binds over the target's and the source's columns
  // as in a SELECT; the session pairs rows by the ON condition itself.
  Result<StatementPtr> ReadMerge(element body, int at) {
    auto statement = std::make_unique<Statement>(StatementKind::kMerge, at);
    element rel, source, on, other;
    if (!Get(body, "relation", rel)) return Malformed(at, "MERGE without a target table");
    FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
    if (Get(body, "withClause", other)) return Unsupported(at, "WITH ... MERGE");
    if (!Get(body, "sourceRelation", source)) return Malformed(at, "MERGE without a source");
    if (!Get(body, "joinCondition", on)) return Malformed(at, "MERGE without ON");
    auto query = std::make_unique<Query>(Query::Kind::kSelect, at);
    FLOE_ASSIGN_OR_RETURN(auto target_ref, TargetTableRef(rel, *statement));
    query->from.push_back(std::move(target_ref));
    FLOE_ASSIGN_OR_RETURN(auto source_ref, ReadTableRef(source));
    query->from.push_back(std::move(source_ref));
    query->select.push_back(StarItem(at));
    FLOE_ASSIGN_OR_RETURN(ExprPtr on_expr, ReadExpr(on));
    query->select.push_back(ValueItem(std::move(on_expr)));
    for (element node : List(body, "mergeWhenClauses")) {
      std::string_view clause_type;
      element clause_body;
      if (!Unwrap(node, clause_type, clause_body) || clause_type != "MergeWhenClause")
        return Malformed(at, "MERGE clause");
      MergeClause clause;
      clause.matched = Bool(clause_body, "matched");
      clause.location = at;
      std::string_view command = Str(clause_body, "commandType");
      if (command == "CMD_UPDATE") {
        clause.action = MergeClause::Action::kUpdate;
      } else if (command == "CMD_DELETE") {
        clause.action = MergeClause::Action::kDelete;
      } else if (command == "CMD_INSERT") {
        clause.action = MergeClause::Action::kInsert;
      } else if (command == "CMD_NOTHING") {
        clause.action = MergeClause::Action::kNothing;
      } else {
        return Malformed(at, "MERGE clause action");
      }
      if (Str(clause_body, "override") != "OVERRIDING_NOT_SET" && !Str(clause_body, "override").empty()) {
        return Unsupported(at, "MERGE ... OVERRIDING");
      }
      if (Get(clause_body, "condition", other)) {
        clause.has_condition = true;
        FLOE_ASSIGN_OR_RETURN(ExprPtr condition, ReadExpr(other));
        query->select.push_back(ValueItem(std::move(condition)));
      }
      if (clause.action == MergeClause::Action::kUpdate) {
        FLOE_RETURN_IF_ERROR(ReadAssignments(clause_body, "targetList", at, clause.columns, *query));
        clause.value_count = static_cast<int>(clause.columns.size());
      } else if (clause.action == MergeClause::Action::kInsert) {
        for (element target : List(clause_body, "targetList")) {
          std::string_view target_type;
          element target_body;
          if (!Unwrap(target, target_type, target_body)) return Malformed(at, "MERGE INSERT column");
          if (!List(target_body, "indirection").empty())
            return Unsupported(Loc(target_body), "INSERT into a nested field");
          clause.columns.push_back(Assignment{std::string(Str(target_body, "name")), Loc(target_body)});
        }
        auto values = List(clause_body, "values");
        if (values.empty()) return Unsupported(at, "MERGE ... INSERT DEFAULT VALUES");
        for (element value : values) {
          FLOE_ASSIGN_OR_RETURN(ExprPtr e, ReadExpr(value));
          query->select.push_back(ValueItem(std::move(e)));
          ++clause.value_count;
        }
      }
      statement->merge_clauses.push_back(std::move(clause));
    }
    if (statement->merge_clauses.empty()) return Malformed(at, "MERGE without WHEN clauses");
    statement->query = std::move(query);
    return statement;
  }

  // The table an UPDATE or MERGE writes, as the FROM item of its query.
  Result<TableRefPtr> TargetTableRef(element rel, const Statement& statement) {
    auto ref = std::make_unique<TableRef>(TableRef::Kind::kNamed, statement.name_location);
    ref->name = statement.name;
    FLOE_RETURN_IF_ERROR(ReadAlias(rel, *ref));
    return ref;
  }

  static SelectItem StarItem(int at) {
    SelectItem all;
    all.expr = std::make_unique<Star>(at);
    all.location = at;
    return all;
  }

  static SelectItem ValueItem(ExprPtr e) {
    SelectItem item;
    item.location = e->location;
    item.expr = std::move(e);
    return item;
  }

  // `SET c = v, ...`: the columns into `assignments`, the values onto the query's select list.
  Status ReadAssignments(element body, std::string_view key, int at, std::vector<Assignment>& assignments,
                         Query& query) {
    for (element target : List(body, key)) {
      std::string_view target_type;
      element target_body, value;
      if (!Unwrap(target, target_type, target_body) || target_type != "ResTarget") return Malformed(at, "SET item");
      if (!List(target_body, "indirection").empty()) return Unsupported(Loc(target_body), "SET of a nested field");
      if (!Get(target_body, "val", value)) return Malformed(Loc(target_body), "SET without a value");
      std::string_view value_type;
      element value_body;
      if (Unwrap(value, value_type, value_body) && value_type == "MultiAssignRef") {
        return Unsupported(Loc(target_body), "SET (a, b) = (...)");
      }
      assignments.push_back(Assignment{std::string(Str(target_body, "name")), Loc(target_body)});
      FLOE_ASSIGN_OR_RETURN(ExprPtr e, ReadExpr(value));
      query.select.push_back(ValueItem(std::move(e)));
    }
    if (assignments.empty()) return Malformed(at, "SET without columns");
    return OkStatus();
  }

  Status ReadRelationName(element rel, Statement& statement) {
    statement.name.clear();
    for (std::string_view key : {"catalogname", "schemaname", "relname"}) {
      std::string_view part = Str(rel, key);
      if (!part.empty()) statement.name.emplace_back(part);
    }
    statement.name_location = Loc(rel);
    if (statement.name.empty()) return Malformed(Loc(rel), "relation without a name");
    return OkStatus();
  }

  Result<ColumnDefinition> ReadColumnDef(element column, Statement& statement) {
    ColumnDefinition definition;
    definition.name = std::string(Str(column, "colname"));
    definition.location = Loc(column);
    element type_name;
    if (!Get(column, "typeName", type_name)) return Malformed(definition.location, "column without a type");
    FLOE_ASSIGN_OR_RETURN(definition.type, ReadTypeName(type_name));
    for (element constraint : List(column, "constraints")) {
      std::string_view constraint_type;
      element body;
      if (!Unwrap(constraint, constraint_type, body)) continue;
      std::string_view contype = Str(body, "contype");
      if (contype == "CONSTR_NOTNULL") {
        definition.not_null = true;
      } else if (contype == "CONSTR_PRIMARY") {
        definition.primary_key = true;
        definition.not_null = true;
      } else if (contype == "CONSTR_UNIQUE") {
        statement.unique_ignored = true;
      } else if (contype != "CONSTR_NULL") {
        return Unsupported(Loc(body), "this column constraint");
      }
    }
    return definition;
  }

  // PRIMARY KEY (a, b) names the key columns; UNIQUE (...) is accepted and not enforced (Iceberg
  // has identifier fields but no uniqueness); other table constraints are not supported.
  Status ReadTableConstraint(element body, Statement& statement) {
    std::string_view contype = Str(body, "contype");
    if (contype == "CONSTR_UNIQUE") {
      statement.unique_ignored = true;
      return OkStatus();
    }
    if (contype != "CONSTR_PRIMARY") return Unsupported(Loc(body), "this table constraint");
    if (!statement.primary_key.empty()) return SqlError(ErrorKind::kInvalidArgument, c_.original, Loc(body), "multiple primary keys");
    FLOE_ASSIGN_OR_RETURN(statement.primary_key, Strings(body, "keys"));
    statement.primary_key_location = Loc(body);
    return OkStatus();
  }

  Result<StatementPtr> ReadCreateTable(element body) {
    auto statement = std::make_unique<Statement>(StatementKind::kCreateTable, StatementStart());
    element rel;
    if (!Get(body, "relation", rel)) return Malformed(statement->location, "CREATE TABLE without a name");
    FLOE_RETURN_IF_ERROR(ReadRelationName(rel, *statement));
    statement->if_not_exists = Bool(body, "if_not_exists");
    for (element item : List(body, "tableElts")) {
      std::string_view item_type;
      element column;
      if (!Unwrap(item, item_type, column)) return Malformed(statement->location, "table element");
      if (item_type == "Constraint") {
        FLOE_RETURN_IF_ERROR(ReadTableConstraint(column, *statement));
        continue;
      }
      if (item_type != "ColumnDef") return Unsupported(Loc(column), "this table element");
      FLOE_ASSIGN_OR_RETURN(auto definition, ReadColumnDef(column, *statement));
      statement->columns.push_back(std::move(definition));
    }
    element ignored;
    if (Get(body, "partspec", ignored)) return Unsupported(statement->location, "PARTITION BY (use PARTITIONED BY)");
    if (Get(body, "inhRelations", ignored)) return Unsupported(statement->location, "INHERITS");
    return statement;
  }

  // ---------------------------------------------------------------- queries

  Result<std::unique_ptr<Query>> ReadSelect(element body) {
    std::string_view op = Str(body, "op");
    std::unique_ptr<Query> query;
    int at = StatementStart();
    if (!op.empty() && op != "SETOP_NONE") {
      query = std::make_unique<Query>(Query::Kind::kSetOp, at);
      query->set_op = op == "SETOP_UNION" ? SetOpKind::kUnion : op == "SETOP_INTERSECT" ? SetOpKind::kIntersect : SetOpKind::kExcept;
      query->set_all = Bool(body, "all");
      element left, right;
      if (!Get(body, "larg", left) || !Get(body, "rarg", right)) return Malformed(at, "set operation");
      FLOE_ASSIGN_OR_RETURN(query->left, ReadSelect(left));
      FLOE_ASSIGN_OR_RETURN(query->right, ReadSelect(right));
    } else if (auto rows = List(body, "valuesLists"); !rows.empty()) {
      query = std::make_unique<Query>(Query::Kind::kValues, at);
      for (element row : rows) {
        std::string_view row_type;
        element list;
        if (!Unwrap(row, row_type, list) || row_type != "List") return Malformed(at, "VALUES row");
        FLOE_ASSIGN_OR_RETURN(auto values, ReadExprList(list, "items"));
        query->values.push_back(std::move(values));
      }
    } else {
      query = std::make_unique<Query>(Query::Kind::kSelect, at);
      element distinct;
      if (Get(body, "distinctClause", distinct)) {
        // DISTINCT is a list holding one empty node; DISTINCT ON lists its expressions.
        for (element item : List(body, "distinctClause")) {
          std::string_view item_type;
          element ignored;
          if (!Unwrap(item, item_type, ignored)) continue;
          FLOE_ASSIGN_OR_RETURN(auto expr, ReadExpr(item));
          query->distinct_on.push_back(std::move(expr));
        }
        query->distinct = query->distinct_on.empty();
      }
      for (element target : List(body, "targetList")) {
        std::string_view target_type;
        element res;
        if (!Unwrap(target, target_type, res) || target_type != "ResTarget") return Malformed(at, "select item");
        SelectItem item;
        item.alias = std::string(Str(res, "name"));
        item.location = Loc(res);
        element value;
        if (!Get(res, "val", value)) return Malformed(item.location, "select item without a value");
        FLOE_ASSIGN_OR_RETURN(item.expr, ReadExpr(value));
        query->select.push_back(std::move(item));
      }
      element into;
      if (Get(body, "intoClause", into)) return Unsupported(at, "SELECT INTO");
      for (element from : List(body, "fromClause")) {
        FLOE_ASSIGN_OR_RETURN(auto ref, ReadTableRef(from));
        query->from.push_back(std::move(ref));
      }
      element where;
      if (Get(body, "whereClause", where)) {
        FLOE_ASSIGN_OR_RETURN(query->where, ReadExpr(where));
      }
      FLOE_RETURN_IF_ERROR(ReadGroupBy(body, query->group_by));
      if (Bool(body, "groupDistinct")) return Unsupported(at, "GROUP BY DISTINCT");
      element having;
      if (Get(body, "havingClause", having)) {
        FLOE_ASSIGN_OR_RETURN(query->having, ReadExpr(having));
      }
      for (element window : List(body, "windowClause")) {
        std::string_view window_type;
        element def;
        if (!Unwrap(window, window_type, def) || window_type != "WindowDef") return Malformed(at, "WINDOW clause");
        NamedWindow named;
        named.name = std::string(Str(def, "name"));
        FLOE_ASSIGN_OR_RETURN(named.spec, ReadWindowDef(def, true));
        query->windows.push_back(std::move(named));
      }
    }
    element with;
    if (Get(body, "withClause", with)) {
      query->with_recursive = Bool(with, "recursive");
      for (element cte_node : List(with, "ctes")) {
        std::string_view cte_type;
        element cte;
        if (!Unwrap(cte_node, cte_type, cte) || cte_type != "CommonTableExpr") return Malformed(at, "WITH item");
        CommonTableExpr item;
        item.name = std::string(Str(cte, "ctename"));
        item.location = Loc(cte);
        item.recursive = query->with_recursive;
        element clause;
        if (Get(cte, "search_clause", clause)) return Unsupported(item.location, "WITH RECURSIVE ... SEARCH");
        if (Get(cte, "cycle_clause", clause)) return Unsupported(item.location, "WITH RECURSIVE ... CYCLE");
        FLOE_ASSIGN_OR_RETURN(item.column_aliases, Strings(cte, "aliascolnames"));
        element inner;
        std::string_view inner_type;
        element inner_body;
        if (!Get(cte, "ctequery", inner) || !Unwrap(inner, inner_type, inner_body) || inner_type != "SelectStmt") {
          return Unsupported(item.location, "a WITH item that is not a query");
        }
        FLOE_ASSIGN_OR_RETURN(item.query, ReadSelect(inner_body));
        query->with.push_back(std::move(item));
      }
    }
    FLOE_ASSIGN_OR_RETURN(query->order_by, ReadSortList(body, "sortClause"));
    element limit;
    if (Get(body, "limitCount", limit)) {
      FLOE_ASSIGN_OR_RETURN(query->limit, ReadExpr(limit));
    }
    if (Str(body, "limitOption") == "LIMIT_OPTION_WITH_TIES") return Unsupported(at, "FETCH ... WITH TIES");
    element offset;
    if (Get(body, "limitOffset", offset)) {
      FLOE_ASSIGN_OR_RETURN(query->offset, ReadExpr(offset));
    }
    element locking;
    if (Get(body, "lockingClause", locking)) return Unsupported(at, "FOR UPDATE/SHARE");
    return query;
  }

  Result<std::vector<OrderItem>> ReadSortList(element body, std::string_view key) {
    std::vector<OrderItem> out;
    for (element node : List(body, key)) {
      std::string_view type;
      element sort;
      if (!Unwrap(node, type, sort) || type != "SortBy") return Malformed(StatementStart(), "ORDER BY item");
      OrderItem item;
      element expr;
      if (!Get(sort, "node", expr)) return Malformed(StatementStart(), "ORDER BY item without a value");
      FLOE_ASSIGN_OR_RETURN(item.expr, ReadExpr(expr));
      std::string_view direction = Str(sort, "sortby_dir");
      if (direction == "SORTBY_USING") return Unsupported(item.expr->location, "ORDER BY ... USING");
      item.descending = direction == "SORTBY_DESC";
      std::string_view nulls = Str(sort, "sortby_nulls");
      if (nulls == "SORTBY_NULLS_FIRST") item.nulls_first = true;
      if (nulls == "SORTBY_NULLS_LAST") item.nulls_first = false;
      out.push_back(std::move(item));
    }
    return out;
  }

  Result<TableRefPtr> ReadTableRef(element node) {
    std::string_view type;
    element body;
    if (!Unwrap(node, type, body)) return Malformed(StatementStart(), "FROM item");
    if (type == "RangeVar") {
      auto ref = std::make_unique<TableRef>(TableRef::Kind::kNamed, Loc(body));
      for (std::string_view key : {"catalogname", "schemaname", "relname"}) {
        std::string_view part = Str(body, key);
        if (!part.empty()) ref->name.emplace_back(part);
      }
      FLOE_RETURN_IF_ERROR(ReadAlias(body, *ref));
      int64_t rewritten_location = Int(body, "location", -1);
      for (const CutTimeTravel& cut : c_.rewritten->time_travel) {
        if (cut.name_offset != rewritten_location) continue;
        TimeTravel travel;
        travel.kind = cut.version ? TimeTravel::Kind::kVersion : TimeTravel::Kind::kTimestamp;
        travel.location = cut.for_offset;
        FLOE_ASSIGN_OR_RETURN(travel.value, c_.parse_expression(cut.value));
        ref->time_travel = std::move(travel);
      }
      return ref;
    }
    if (type == "RangeSubselect") {
      auto ref = std::make_unique<TableRef>(TableRef::Kind::kSubquery, StatementStart());
      ref->lateral = Bool(body, "lateral");
      element sub;
      std::string_view sub_type;
      element sub_body;
      if (!Get(body, "subquery", sub) || !Unwrap(sub, sub_type, sub_body) || sub_type != "SelectStmt") {
        return Malformed(StatementStart(), "subquery in FROM");
      }
      FLOE_ASSIGN_OR_RETURN(ref->subquery, ReadSelect(sub_body));
      ref->location = ref->subquery->location;
      FLOE_RETURN_IF_ERROR(ReadAlias(body, *ref));
      return ref;
    }
    if (type == "RangeFunction") {
      auto ref = std::make_unique<TableRef>(TableRef::Kind::kFunction, StatementStart());
      ref->lateral = Bool(body, "lateral");
      ref->ordinality = Bool(body, "ordinality");
      auto functions = List(body, "functions");
      if (functions.size() != 1) return Unsupported(StatementStart(), "ROWS FROM");
      std::string_view list_type;
      element list;
      if (!Unwrap(functions[0], list_type, list) || list_type != "List") return Malformed(StatementStart(), "table function");
      auto items = List(list, "items");
      if (items.empty()) return Malformed(StatementStart(), "table function");
      FLOE_ASSIGN_OR_RETURN(ref->function, ReadExpr(items[0]));
      ref->location = ref->function->location;
      FLOE_RETURN_IF_ERROR(ReadAlias(body, *ref));
      return ref;
    }
    if (type == "JoinExpr") {
      auto ref = std::make_unique<TableRef>(TableRef::Kind::kJoin, StatementStart());
      std::string_view join_type = Str(body, "jointype");
      if (join_type == "JOIN_INNER") {
        ref->join_type = JoinType::kInner;
      } else if (join_type == "JOIN_LEFT") {
        ref->join_type = JoinType::kLeft;
      } else if (join_type == "JOIN_RIGHT") {
        ref->join_type = JoinType::kRight;
      } else if (join_type == "JOIN_FULL") {
        ref->join_type = JoinType::kFull;
      } else {
        return Unsupported(StatementStart(), "this join type");
      }
      ref->natural = Bool(body, "isNatural");
      element left, right, quals;
      if (!Get(body, "larg", left) || !Get(body, "rarg", right)) return Malformed(StatementStart(), "join");
      FLOE_ASSIGN_OR_RETURN(ref->left, ReadTableRef(left));
      FLOE_ASSIGN_OR_RETURN(ref->right, ReadTableRef(right));
      ref->location = ref->left->location;
      FLOE_ASSIGN_OR_RETURN(ref->using_columns, Strings(body, "usingClause"));
      if (Get(body, "quals", quals)) {
        FLOE_ASSIGN_OR_RETURN(ref->condition, ReadExpr(quals));
      } else if (ref->join_type == JoinType::kInner && ref->using_columns.empty() && !ref->natural) {
        ref->join_type = JoinType::kCross;
      }
      element alias;
      if (Get(body, "alias", alias)) return Unsupported(ref->location, "an alias on a join");
      return ref;
    }
    if (type == "RangeTableSample") return Unsupported(StatementStart(), "TABLESAMPLE");
    return Unsupported(StatementStart(), fmt::format("FROM item {}", type));
  }

  Status ReadAlias(element body, TableRef& ref) {
    element alias;
    if (!Get(body, "alias", alias)) return OkStatus();
    ref.alias = std::string(Str(alias, "aliasname"));
    FLOE_ASSIGN_OR_RETURN(ref.column_aliases, Strings(alias, "colnames"));
    return OkStatus();
  }

  // ---------------------------------------------------------------- expressions

  Result<std::vector<ExprPtr>> ReadExprList(element body, std::string_view key) {
    std::vector<ExprPtr> out;
    for (element item : List(body, key)) {
      FLOE_ASSIGN_OR_RETURN(auto expr, ReadExpr(item));
      out.push_back(std::move(expr));
    }
    return out;
  }

  Result<TypeName> ReadTypeName(element body) {
    TypeName out;
    out.location = Loc(body);
    FLOE_ASSIGN_OR_RETURN(auto names, Strings(body, "names"));
    if (names.empty()) return Malformed(out.location, "type without a name");
    if (names.size() > 2 || (names.size() == 2 && names[0] != "pg_catalog")) {
      return SqlError(ErrorKind::kInvalidArgument, c_.original, out.location,
                      fmt::format("Unknown type: {}", fmt::join(names, ".")));
    }
    out.name = PgTypeName(names.back());
    if (Bool(body, "setof")) return Unsupported(out.location, "SETOF");
    if (!List(body, "arrayBounds").empty()) out.array = true;
    for (element mod : List(body, "typmods")) {
      std::string_view mod_type;
      element mod_body;
      element ival;
      if (!Unwrap(mod, mod_type, mod_body) || mod_type != "A_Const" || !Get(mod_body, "ival", ival)) {
        return SqlError(ErrorKind::kInvalidArgument, c_.original, out.location, "type parameters must be integer literals");
      }
      FLOE_ASSIGN_OR_RETURN(std::string text, IntegerText(mod_body, ival));
      int64_t value = 0;
      for (char ch : text) {
        if (ch == '-') continue;
        value = value * 10 + (ch - '0');
        if (value > 1'000'000'000) break;
      }
      if (text.starts_with('-')) value = -value;
      out.parameters.push_back(value);
    }
    if (out.name == "interval") {
      // The grammar encodes INTERVAL's field list as the first typmod (a bit mask).
      if (!out.parameters.empty()) out.interval_fields = static_cast<int>(out.parameters[0]);
      out.parameters.clear();
    }
    return out;
  }

  Result<std::unique_ptr<WindowSpec>> ReadWindowDef(element def, bool in_window_clause) {
    auto spec = std::make_unique<WindowSpec>();
    spec->location = Loc(def);
    spec->base_name = std::string(Str(def, in_window_clause ? "refname" : "name"));
    if (!in_window_clause && spec->base_name.empty()) spec->base_name = std::string(Str(def, "refname"));
    FLOE_ASSIGN_OR_RETURN(spec->partition_by, ReadExprList(def, "partitionClause"));
    FLOE_ASSIGN_OR_RETURN(spec->order_by, ReadSortList(def, "orderClause"));
    int64_t options = Int(def, "frameOptions", 0);
    if (options & 0x1) {
      spec->has_frame = true;
      if (options & kFrameExclusions) return Unsupported(spec->location, "frame EXCLUDE");
      spec->frame_mode = options & kFrameRows ? FrameMode::kRows : options & kFrameGroups ? FrameMode::kGroups : FrameMode::kRange;
      (void)kFrameRange;
      auto bound = [&](bool start, const char* offset_key) -> Result<FrameBound> {
        FrameBound b;
        int64_t unbounded_preceding = start ? kFrameStartUnboundedPreceding : kFrameEndUnboundedPreceding;
        int64_t unbounded_following = start ? kFrameStartUnboundedFollowing : kFrameEndUnboundedFollowing;
        int64_t current = start ? kFrameStartCurrentRow : kFrameEndCurrentRow;
        int64_t preceding = start ? kFrameStartOffsetPreceding : kFrameEndOffsetPreceding;
        int64_t following = start ? kFrameStartOffsetFollowing : kFrameEndOffsetFollowing;
        if (options & unbounded_preceding) {
          b.kind = FrameBoundKind::kUnboundedPreceding;
        } else if (options & unbounded_following) {
          b.kind = FrameBoundKind::kUnboundedFollowing;
        } else if (options & current) {
          b.kind = FrameBoundKind::kCurrentRow;
        } else if (options & (preceding | following)) {
          b.kind = options & preceding ? FrameBoundKind::kPreceding : FrameBoundKind::kFollowing;
          element offset;
          if (!Get(def, offset_key, offset)) return Malformed(spec->location, "frame offset");
          FLOE_ASSIGN_OR_RETURN(b.offset, ReadExpr(offset));
        } else {
          b.kind = start ? FrameBoundKind::kUnboundedPreceding : FrameBoundKind::kCurrentRow;
        }
        return b;
      };
      FLOE_ASSIGN_OR_RETURN(spec->frame_start, bound(true, "startOffset"));
      FLOE_ASSIGN_OR_RETURN(spec->frame_end, bound(false, "endOffset"));
    }
    return spec;
  }

  ExprPtr Call(std::string name, int location, std::vector<ExprPtr> args) {
    auto call = std::make_unique<FunctionCall>(location);
    call->names.push_back(std::move(name));
    call->args = std::move(args);
    return call;
  }

  Result<ExprPtr> ReadExpr(element node) {
    std::string_view type;
    element body;
    if (!Unwrap(node, type, body)) return Malformed(StatementStart(), "expression node");
    int at = Loc(body);
    if (type == "ColumnRef") {
      auto fields = List(body, "fields");
      std::vector<std::string> names;
      bool star = false;
      for (size_t i = 0; i < fields.size(); ++i) {
        std::string_view field_type;
        element field;
        if (!Unwrap(fields[i], field_type, field)) return Malformed(at, "column reference");
        if (field_type == "A_Star") {
          if (i + 1 != fields.size()) return Malformed(at, "'*' inside a name");
          star = true;
        } else if (field_type == "String") {
          names.emplace_back(Str(field, "sval"));
        } else {
          return Malformed(at, "column reference part");
        }
      }
      if (names.size() > 4) return SqlError(ErrorKind::kInvalidArgument, c_.original, at, "too many name parts");
      if (star) {
        auto all = std::make_unique<Star>(at);
        all->qualifier = std::move(names);
        return all;
      }
      auto ref = std::make_unique<ColumnRef>(at);
      ref->names = std::move(names);
      return ref;
    }
    if (type == "A_Const") {
      auto literal = std::make_unique<Literal>(at);
      element value;
      if (Bool(body, "isnull")) {
        literal->literal_kind = LiteralKind::kNull;
      } else if (Get(body, "ival", value)) {
        literal->literal_kind = LiteralKind::kInteger;
        FLOE_ASSIGN_OR_RETURN(literal->text, IntegerText(body, value));
      } else if (Get(body, "fval", value)) {
        literal->text = std::string(Str(value, "fval"));
        bool exponent = literal->text.find_first_of("eE") != std::string::npos;
        bool point = literal->text.find('.') != std::string::npos;
        literal->literal_kind = exponent ? LiteralKind::kDouble : point ? LiteralKind::kDecimal : LiteralKind::kInteger;
      } else if (Get(body, "sval", value)) {
        literal->literal_kind = LiteralKind::kString;
        literal->text = std::string(Str(value, "sval"));
      } else if (Get(body, "boolval", value)) {
        literal->literal_kind = LiteralKind::kBool;
        literal->bool_value = Bool(value, "boolval");
      } else if (Get(body, "bsval", value)) {
        std::string_view bits = Str(value, "bsval");
        if (bits.empty() || bits[0] != 'x') return Unsupported(at, "bit-string literals");
        literal->literal_kind = LiteralKind::kBinary;
        literal->text = std::string(bits.substr(1));
      } else {
        return Malformed(at, "constant");
      }
      return literal;
    }
    if (type == "ParamRef") {
      auto param = std::make_unique<Parameter>(at);
      param->parameter_index = static_cast<int>(Int(body, "number", 0));
      if (param->parameter_index <= 0) return Malformed(at, "parameter number");
      return param;
    }
    if (type == "A_Expr") return ReadAExpr(body, at);
    if (type == "BoolExpr") {
      std::string_view op = Str(body, "boolop");
      FLOE_ASSIGN_OR_RETURN(auto args, ReadExprList(body, "args"));
      if (op == "NOT_EXPR") {
        if (args.size() != 1) return Malformed(at, "NOT");
        auto out = std::make_unique<Unary>(at);
        out->op = "NOT";
        out->args = std::move(args);
        return out;
      }
      if (args.size() < 2) return Malformed(at, "AND/OR");
      ExprPtr out;
      if (op == "AND_EXPR") {
        out = std::make_unique<And>(at);
      } else {
        out = std::make_unique<Or>(at);
      }
      out->args = std::move(args);
      return out;
    }
    if (type == "FuncCall") return ReadFuncCall(body, at);
    if (type == "TypeCast") {
      auto cast = std::make_unique<Cast>(at);
      element arg, type_name;
      if (!Get(body, "arg", arg) || !Get(body, "typeName", type_name)) return Malformed(at, "CAST");
      FLOE_ASSIGN_OR_RETURN(auto inner, ReadExpr(arg));
      FLOE_ASSIGN_OR_RETURN(auto target, ReadTypeName(type_name));
      if (cast->location < 0) cast->location = target.location;  // DATE '...' has no own location.
      int64_t rewritten = Int(body, "location", -1);
      for (int offset : c_.rewritten->try_cast_offsets) {
        if (offset == rewritten) cast->try_cast = true;
      }
      cast->args.push_back(std::move(inner));
      cast->type = std::move(target);
      return cast;
    }
    if (type == "CaseExpr") {
      auto out = std::make_unique<Case>(at);
      element operand, otherwise;
      if (Get(body, "arg", operand)) {
        FLOE_ASSIGN_OR_RETURN(out->case_operand, ReadExpr(operand));
      }
      for (element when_node : List(body, "args")) {
        std::string_view when_type;
        element when;
        element condition, result;
        if (!Unwrap(when_node, when_type, when) || !Get(when, "expr", condition) || !Get(when, "result", result)) {
          return Malformed(at, "WHEN");
        }
        FLOE_ASSIGN_OR_RETURN(auto c, ReadExpr(condition));
        FLOE_ASSIGN_OR_RETURN(auto r, ReadExpr(result));
        out->args.push_back(std::move(c));
        out->args.push_back(std::move(r));
      }
      if (Get(body, "defresult", otherwise)) {
        FLOE_ASSIGN_OR_RETURN(out->case_else, ReadExpr(otherwise));
      }
      return out;
    }
    if (type == "NullTest") {
      auto out = std::make_unique<IsNull>(at);
      element arg;
      if (!Get(body, "arg", arg)) return Malformed(at, "IS NULL");
      FLOE_ASSIGN_OR_RETURN(auto inner, ReadExpr(arg));
      out->args.push_back(std::move(inner));
      out->negated = Str(body, "nulltesttype") == "IS_NOT_NULL";
      return out;
    }
    if (type == "BooleanTest") {
      std::string_view test = Str(body, "booltesttype");
      element arg;
      if (!Get(body, "arg", arg)) return Malformed(at, "IS TRUE");
      FLOE_ASSIGN_OR_RETURN(auto inner, ReadExpr(arg));
      if (test == "IS_UNKNOWN" || test == "IS_NOT_UNKNOWN") {
        auto out = std::make_unique<IsNull>(at);
        out->args.push_back(std::move(inner));
        out->negated = test == "IS_NOT_UNKNOWN";
        return out;
      }
      auto out = std::make_unique<IsBool>(at);
      out->args.push_back(std::move(inner));
      out->bool_value = test == "IS_TRUE" || test == "IS_NOT_TRUE";
      out->negated = test == "IS_NOT_TRUE" || test == "IS_NOT_FALSE";
      return out;
    }
    if (type == "SubLink") {
      std::string_view link = Str(body, "subLinkType");
      element sub;
      std::string_view sub_type;
      element sub_body;
      if (!Get(body, "subselect", sub) || !Unwrap(sub, sub_type, sub_body) || sub_type != "SelectStmt") {
        return Malformed(at, "subquery");
      }
      FLOE_ASSIGN_OR_RETURN(auto query, ReadSelect(sub_body));
      query->location = at;
      if (link == "EXPR_SUBLINK") {
        auto out = std::make_unique<Subquery>(at);
        out->subquery = std::move(query);
        return out;
      }
      if (link == "EXISTS_SUBLINK") {
        auto out = std::make_unique<Exists>(at);
        out->subquery = std::move(query);
        return out;
      }
      if (link == "ANY_SUBLINK" || link == "ALL_SUBLINK") {
        auto out = std::make_unique<InSubquery>(at);
        element test;
        if (!Get(body, "testexpr", test)) return Malformed(at, "IN subquery");
        FLOE_ASSIGN_OR_RETURN(auto left, ReadExpr(test));
        out->args.push_back(std::move(left));
        FLOE_ASSIGN_OR_RETURN(auto op_names, Strings(body, "operName"));
        out->op = op_names.empty() ? "=" : op_names.back();
        out->quantifier_all = link == "ALL_SUBLINK";
        out->subquery = std::move(query);
        return out;
      }
      return Unsupported(at, "this kind of subquery");
    }
    if (type == "A_Indirection") {
      element arg;
      if (!Get(body, "arg", arg)) return Malformed(at, "field access");
      FLOE_ASSIGN_OR_RETURN(auto base, ReadExpr(arg));
      for (element step : List(body, "indirection")) {
        std::string_view step_type;
        element step_body;
        if (!Unwrap(step, step_type, step_body)) return Malformed(at, "field access");
        if (step_type == "String") {
          auto access = std::make_unique<FieldAccess>(base->location);
          access->field = std::string(Str(step_body, "sval"));
          access->args.push_back(std::move(base));
          base = std::move(access);
        } else if (step_type == "A_Indices") {
          element index;
          if (Bool(step_body, "is_slice") || !Get(step_body, "uidx", index)) return Unsupported(base->location, "array slices");
          auto subscript = std::make_unique<Subscript>(base->location);
          FLOE_ASSIGN_OR_RETURN(auto index_expr, ReadExpr(index));
          subscript->args.push_back(std::move(base));
          subscript->args.push_back(std::move(index_expr));
          base = std::move(subscript);
        } else if (step_type == "A_Star") {
          return Unsupported(base->location, "(expr).*");
        } else {
          return Malformed(at, "field access");
        }
      }
      return base;
    }
    if (type == "CoalesceExpr") {
      FLOE_ASSIGN_OR_RETURN(auto args, ReadExprList(body, "args"));
      return Call("coalesce", at, std::move(args));
    }
    if (type == "MinMaxExpr") {
      FLOE_ASSIGN_OR_RETURN(auto args, ReadExprList(body, "args"));
      return Call(Str(body, "op") == "IS_GREATEST" ? "greatest" : "least", at, std::move(args));
    }
    if (type == "SQLValueFunction") {
      std::string_view op = Str(body, "op");
      auto out = std::make_unique<Current>(at);
      if (op == "SVFOP_CURRENT_DATE") {
        out->name = "current_date";
      } else if (op == "SVFOP_CURRENT_TIMESTAMP" || op == "SVFOP_CURRENT_TIMESTAMP_N") {
        out->name = "current_timestamp";
      } else if (op == "SVFOP_LOCALTIMESTAMP" || op == "SVFOP_LOCALTIMESTAMP_N") {
        out->name = "localtimestamp";
      } else if (op == "SVFOP_CURRENT_USER" || op == "SVFOP_USER" || op == "SVFOP_SESSION_USER") {
        out->name = "current_user";
      } else if (op == "SVFOP_CURRENT_CATALOG") {
        out->name = "current_catalog";
      } else if (op == "SVFOP_CURRENT_SCHEMA") {
        out->name = "current_schema";
      } else {
        return Unsupported(at, "this SQL value function");
      }
      return out;
    }
    if (type == "A_ArrayExpr") {
      auto out = std::make_unique<Array>(at);
      FLOE_ASSIGN_OR_RETURN(out->args, ReadExprList(body, "elements"));
      return out;
    }
    if (type == "RowExpr") {
      auto out = std::make_unique<Row>(at);
      FLOE_ASSIGN_OR_RETURN(out->args, ReadExprList(body, "args"));
      return out;
    }
    if (type == "CollateClause") return Unsupported(at, "COLLATE");
    if (type == "GroupingFunc") {
      // grouping(a, b): which of its arguments the row's grouping set leaves out (the binder).
      auto out = std::make_unique<FunctionCall>(at);
      out->names = {"grouping"};
      FLOE_ASSIGN_OR_RETURN(out->args, ReadExprList(body, "args"));
      return out;
    }
    return Unsupported(at, fmt::format("expression {}", type));
  }

  Result<ExprPtr> ReadAExpr(element body, int at) {
    std::string_view kind = Str(body, "kind");
    FLOE_ASSIGN_OR_RETURN(auto names, Strings(body, "name"));
    std::string op = names.empty() ? std::string() : names.back();
    element left_node, right_node;
    bool has_left = Get(body, "lexpr", left_node);
    bool has_right = Get(body, "rexpr", right_node);
    ExprPtr left, right;
    if (has_left) {
      FLOE_ASSIGN_OR_RETURN(left, ReadExpr(left_node));
    }
    auto read_list = [&]() -> Result<std::vector<ExprPtr>> {
      std::string_view list_type;
      element list;
      if (!has_right || !Unwrap(right_node, list_type, list) || list_type != "List") {
        return Malformed(at, "expression list");
      }
      return ReadExprList(list, "items");
    };
    if (kind == "AEXPR_OP") {
      if (!has_right) return Malformed(at, "operator without an operand");
      FLOE_ASSIGN_OR_RETURN(right, ReadExpr(right_node));
      if (!has_left) {
        auto out = std::make_unique<Unary>(at);
        out->op = op;
        out->args.push_back(std::move(right));
        return out;
      }
      if (op == "~~" || op == "!~~" || op == "~~*" || op == "!~~*") {
        auto out = std::make_unique<Like>(at);
        out->negated = op[0] == '!';
        out->case_insensitive = op.back() == '*';
        out->args.push_back(std::move(left));
        out->args.push_back(std::move(right));
        return out;
      }
      auto out = std::make_unique<Binary>(at);
      out->op = op;
      out->args.push_back(std::move(left));
      out->args.push_back(std::move(right));
      return out;
    }
    if (kind == "AEXPR_LIKE" || kind == "AEXPR_ILIKE") {
      auto out = std::make_unique<Like>(at);
      out->negated = op.starts_with("!");
      out->case_insensitive = kind == "AEXPR_ILIKE";
      FLOE_ASSIGN_OR_RETURN(right, ReadExpr(right_node));
      out->args.push_back(std::move(left));
      // `LIKE p ESCAPE e` arrives as like_escape(p, e).
      auto is_escape = [](const Expr& e) {
        if (e.kind != ExprKind::kFunction) return false;
        const auto& names = e.As<FunctionCall>().names;
        return !names.empty() && names.back() == "like_escape" && e.args.size() == 2;
      };
      if (is_escape(*right)) {
        out->args.push_back(std::move(right->args[0]));
        out->args.push_back(std::move(right->args[1]));
      } else {
        out->args.push_back(std::move(right));
      }
      return out;
    }
    if (kind == "AEXPR_IN") {
      auto out = std::make_unique<InList>(at);
      out->negated = op == "<>";
      out->args.push_back(std::move(left));
      FLOE_ASSIGN_OR_RETURN(auto items, read_list());
      for (auto& item : items) out->args.push_back(std::move(item));
      return out;
    }
    if (kind == "AEXPR_BETWEEN" || kind == "AEXPR_NOT_BETWEEN") {
      auto out = std::make_unique<Between>(at);
      out->negated = kind == "AEXPR_NOT_BETWEEN";
      FLOE_ASSIGN_OR_RETURN(auto bounds, read_list());
      if (bounds.size() != 2) return Malformed(at, "BETWEEN");
      out->args.push_back(std::move(left));
      out->args.push_back(std::move(bounds[0]));
      out->args.push_back(std::move(bounds[1]));
      return out;
    }
    if (kind == "AEXPR_DISTINCT" || kind == "AEXPR_NOT_DISTINCT") {
      auto out = std::make_unique<IsDistinct>(at);
      out->negated = kind == "AEXPR_NOT_DISTINCT";
      FLOE_ASSIGN_OR_RETURN(right, ReadExpr(right_node));
      out->args.push_back(std::move(left));
      out->args.push_back(std::move(right));
      return out;
    }
    if (kind == "AEXPR_NULLIF") {
      FLOE_ASSIGN_OR_RETURN(right, ReadExpr(right_node));
      std::vector<ExprPtr> args;
      args.push_back(std::move(left));
      args.push_back(std::move(right));
      return Call("nullif", at, std::move(args));
    }
    if (kind == "AEXPR_SIMILAR") return Unsupported(at, "SIMILAR TO");
    return Unsupported(at, "this operator form (ANY/ALL over arrays)");
  }

  // GROUP BY: plain expressions, or, when any item is GROUPING SETS / ROLLUP / CUBE / (), the
  // sets spelled out: the cross product of the items' sets (SQL:2011 7.9), each set a list of
  // indexes into group_by.expressions.
  Status ReadGroupBy(element body, ast::GroupBy& group_by) {
    std::vector<std::vector<int>> sets = {{}};
    bool any_set = false;
    for (element group : List(body, "groupClause")) {
      std::string_view type;
      element inner;
      any_set |= Unwrap(group, type, inner) && type == "GroupingSet";
      FLOE_ASSIGN_OR_RETURN(auto item_sets, ReadGroupingItem(group, group_by));
      std::vector<std::vector<int>> product;
      size_t entries = 0;
      for (const auto& left : sets) {
        for (const auto& right : item_sets) {
          entries += left.size() + right.size();
          if (product.size() == kMaxGroupingSets || entries > kMaxGroupingEntries) return TooManyGroupingSets(group);
          product.push_back(left);
          product.back().insert(product.back().end(), right.begin(), right.end());
        }
      }
      sets = std::move(product);
    }
    if (any_set) group_by.grouping_sets = std::move(sets);
    return OkStatus();
  }

  // Trino's bound on a query's grouping sets: each one multiplies the rows aggregated. The
  // keys of all sets together are bounded too, so a short text cannot spell a huge list.
  static constexpr size_t kMaxGroupingSets = 4096;
  static constexpr size_t kMaxGroupingEntries = size_t{1} << 16;

  std::unexpected<Error> TooManyGroupingSets(element at) const {
    std::string_view type;
    element body;
    Unwrap(at, type, body);
    return SqlError(ErrorKind::kInvalidArgument, c_.original, Loc(body),
                    fmt::format("GROUP BY has more than {} grouping sets, or more than {} keys in them all", kMaxGroupingSets,
                                kMaxGroupingEntries));
  }

  // The sets one GROUP BY item stands for: an expression is one set of itself; () the empty
  // set; ROLLUP (e1, ..., en) the n + 1 prefixes, longest first; CUBE every subset, all of
  // them first; GROUPING SETS the sets of each element in turn. Inside those, `(a, b)` is one
  // element of two columns.
  Result<std::vector<std::vector<int>>> ReadGroupingItem(element node, ast::GroupBy& group_by) {
    std::string_view type;
    element body;
    if (!Unwrap(node, type, body) || type != "GroupingSet") {
      FLOE_ASSIGN_OR_RETURN(auto columns, ReadGroupingElement(node, group_by));
      return std::vector<std::vector<int>>{std::move(columns)};
    }
    std::string_view kind = Str(body, "kind");
    std::vector<element> content = List(body, "content");
    if (kind == "GROUPING_SET_EMPTY") return std::vector<std::vector<int>>{{}};
    if (kind == "GROUPING_SET_SETS") {
      std::vector<std::vector<int>> sets;
      for (element e : content) {
        FLOE_ASSIGN_OR_RETURN(auto more, ReadGroupingItem(e, group_by));
        if (sets.size() + more.size() > kMaxGroupingSets) return TooManyGroupingSets(node);
        sets.insert(sets.end(), more.begin(), more.end());
      }
      return sets;
    }
    std::vector<std::vector<int>> elements;
    for (element e : content) {
      FLOE_ASSIGN_OR_RETURN(auto columns, ReadGroupingElement(e, group_by));
      elements.push_back(std::move(columns));
    }
    auto union_of = [&](auto chosen) {
      std::vector<int> set;
      for (size_t i = 0; i < elements.size(); ++i) {
        if (chosen(i)) set.insert(set.end(), elements[i].begin(), elements[i].end());
      }
      return set;
    };
    std::vector<std::vector<int>> sets;
    if (kind == "GROUPING_SET_SIMPLE") {
      sets.push_back(union_of([](size_t) { return true; }));
    } else if (kind == "GROUPING_SET_ROLLUP") {
      for (size_t n = elements.size() + 1; n-- > 0;) sets.push_back(union_of([n](size_t i) { return i < n; }));
    } else if (kind == "GROUPING_SET_CUBE") {
      if (elements.size() > 12) return TooManyGroupingSets(node);
      for (uint32_t mask = (1u << elements.size()); mask-- > 0;) {
        // Bit (n - 1 - i) stands for element i, so the first set has them all in order.
        sets.push_back(union_of([&](size_t i) { return (mask >> (elements.size() - 1 - i)) & 1u; }));
      }
    } else {
      return Malformed(Loc(body), fmt::format("grouping set kind {}", kind));
    }
    size_t entries = 0;
    for (const auto& set : sets) entries += set.size();
    if (entries > kMaxGroupingEntries) return TooManyGroupingSets(node);
    return sets;
  }

  // One element inside ROLLUP, CUBE or GROUPING SETS: `(a, b)` (an implicit row) is its
  // columns, anything else one expression.
  Result<std::vector<int>> ReadGroupingElement(element node, ast::GroupBy& group_by) {
    std::string_view type;
    element body;
    std::vector<int> columns;
    if (Unwrap(node, type, body) && type == "GroupingSet" && Str(body, "kind") == "GROUPING_SET_SIMPLE") {
      for (element e : List(body, "content")) {
        FLOE_ASSIGN_OR_RETURN(auto more, ReadGroupingElement(e, group_by));
        columns.insert(columns.end(), more.begin(), more.end());
      }
      return columns;
    }
    if (Unwrap(node, type, body) && type == "GroupingSet") return Unsupported(Loc(body), "a grouping set nested in ROLLUP or CUBE");
    if (type == "RowExpr" && Str(body, "row_format") == "COERCE_IMPLICIT_CAST") {
      for (element e : List(body, "args")) {
        FLOE_ASSIGN_OR_RETURN(auto expr, ReadExpr(e));
        columns.push_back(static_cast<int>(group_by.expressions.size()));
        group_by.expressions.push_back(std::move(expr));
      }
      return columns;
    }
    FLOE_ASSIGN_OR_RETURN(auto expr, ReadExpr(node));
    columns.push_back(static_cast<int>(group_by.expressions.size()));
    group_by.expressions.push_back(std::move(expr));
    return columns;
  }

  Result<ExprPtr> ReadFuncCall(element body, int at) {
    FLOE_ASSIGN_OR_RETURN(auto names, Strings(body, "funcname"));
    if (names.empty()) return Malformed(at, "function without a name");
    bool sql_syntax = Str(body, "funcformat") == "COERCE_SQL_SYNTAX";
    if (names.size() == 2 && names[0] == "pg_catalog") names.erase(names.begin());
    auto call = std::make_unique<FunctionCall>(at);
    bool any_named = false;
    for (element item : List(body, "args")) {
      std::string_view item_type;
      element item_body;
      if (Unwrap(item, item_type, item_body) && item_type == "NamedArgExpr") {
        element arg;
        if (!Get(item_body, "arg", arg)) return Malformed(Loc(item_body), "named argument");
        FLOE_ASSIGN_OR_RETURN(auto value, ReadExpr(arg));
        call->args.push_back(std::move(value));
        call->argument_names.resize(call->args.size());
        call->argument_names.back() = std::string(Str(item_body, "name"));
        any_named = true;
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto value, ReadExpr(item));
      call->args.push_back(std::move(value));
    }
    if (any_named) call->argument_names.resize(call->args.size());
    call->distinct = Bool(body, "agg_distinct");
    call->star_arg = Bool(body, "agg_star");
    if (Bool(body, "func_variadic")) return Unsupported(at, "VARIADIC");
    element filter, over;
    if (Get(body, "agg_filter", filter)) {
      FLOE_ASSIGN_OR_RETURN(call->filter, ReadExpr(filter));
    }
    FLOE_ASSIGN_OR_RETURN(call->order_by, ReadSortList(body, "agg_order"));
    if (Bool(body, "agg_within_group")) {
      // percentile_cont(f) WITHIN GROUP (ORDER BY x) is kept as order_by; the binder decides.
    }
    if (Get(body, "over", over)) {
      FLOE_ASSIGN_OR_RETURN(call->window, ReadWindowDef(over, false));
    }
    // SQL-syntax forms whose PostgreSQL spelling differs from Trino's function.
    std::string& name = names.back();
    if (sql_syntax) {
      if (name == "position" && call->args.size() == 2) {
        name = "strpos";
      } else if (name == "btrim" || name == "ltrim" || name == "rtrim") {
        name = name == "btrim" ? "trim" : name;
      }
    }
    call->names = std::move(names);
    return call;
  }

  const TreeContext& c_;
};

}  // namespace

Result<std::vector<StatementPtr>> ReadPgParseTree(std::string_view json, const TreeContext& context) {
  return Reader(context).Run(json);
}

}  // namespace floe::sql
