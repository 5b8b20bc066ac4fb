#include "serve/pg_catalog_emulation.h"

#include <regex>
#include <set>

#include "serve/pg_types.h"
#include "serve/trino_statements.h"

namespace floe::serve::pg {
namespace {

using sql::Token;
using sql::TokenKind;

constexpr int64_t kFirstTableOid = 16384;

struct SelectItem {
  std::string expression;  // Lower-cased text.
  std::string name;        // Output column name.
};

struct TableEntry {
  std::string schema;
  std::string name;
  int64_t oid;
};

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The top-level select list of the first SELECT.
std::vector<SelectItem> SelectList(std::string_view text, const std::vector<Token>& tokens) {
  std::vector<SelectItem> items;
  size_t i = 0;
  while (i < tokens.size() && !tokens[i].IsKeyword("select")) ++i;
  if (i == tokens.size()) return items;
  ++i;
  if (i < tokens.size() && tokens[i].IsKeyword("distinct")) ++i;
  int depth = 0;
  size_t start = i;
  for (; i <= tokens.size(); ++i) {
    bool end = i == tokens.size();
    if (!end) {
      TokenKind kind = tokens[i].kind;
      if (kind == TokenKind::kLeftParen) ++depth;
      if (kind == TokenKind::kRightParen) --depth;
      if (depth > 0) continue;
      end = tokens[i].IsKeyword("from") || tokens[i].IsKeyword("where") || tokens[i].IsKeyword("order") ||
            tokens[i].kind == TokenKind::kSemicolon;
      if (!end && kind != TokenKind::kComma) continue;
    }
    if (i > start) {
      SelectItem item;
      size_t last = i;
      bool aliased = last - start >= 3 && tokens[last - 2].IsKeyword("as");
      if (aliased) {
        item.name = tokens[last - 1].value;
        last -= 2;
      } else if (tokens[last - 1].kind == TokenKind::kIdentifier || tokens[last - 1].kind == TokenKind::kQuotedIdentifier) {
        item.name = tokens[last - 1].value;
      } else {
        item.name = "?column?";
      }
      // A function call's name, not its last argument: "format_type(a.atttypid, a.atttypmod)".
      if (!aliased && tokens[last - 1].kind == TokenKind::kRightParen) {
        for (size_t k = start; k < last; ++k) {
          if (tokens[k].kind == TokenKind::kLeftParen && k > start && tokens[k - 1].kind == TokenKind::kIdentifier) {
            item.name = tokens[k - 1].value;
            break;
          }
        }
        if (tokens[start].IsKeyword("case")) item.name = "case";
      }
      item.expression = Lower(TokenText(text, tokens, start, last));
      items.push_back(std::move(item));
    }
    if (i == tokens.size() || tokens[i].kind != TokenKind::kComma) break;
    start = i + 1;
  }
  return items;
}

// A regular-expression condition on a column: `<column> OPERATOR(pg_catalog.~) '^(x)$'`,
// `<column> ~ 'x'` or `<column> !~ 'x'`.
struct PatternCondition {
  std::string pattern;
  bool negated = false;
};

std::vector<PatternCondition> PatternsFor(const std::vector<Token>& tokens, std::string_view column) {
  std::vector<PatternCondition> out;
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i].value != column || tokens[i].kind != TokenKind::kIdentifier) continue;
    size_t j = i + 1;
    std::string op;
    if (tokens[j].kind == TokenKind::kOperator) {
      op = tokens[j].value;
      ++j;
    } else if (tokens[j].IsKeyword("operator")) {
      // OPERATOR(pg_catalog.~): the operator is the token before the closing parenthesis.
      while (j < tokens.size() && tokens[j].kind != TokenKind::kRightParen) ++j;
      if (j >= tokens.size()) break;
      op = tokens[j - 1].value;
      ++j;
    }
    if ((op != "~" && op != "!~") || j >= tokens.size() || tokens[j].kind != TokenKind::kString) continue;
    out.push_back({UnquoteLiteral(tokens[j].value), op == "!~"});
  }
  return out;
}

// The literal in `<column> = '16384'` (or unquoted); comparisons with other columns are joins,
// not filters, and are skipped.
std::optional<int64_t> OidFilter(const std::vector<Token>& tokens, std::string_view column) {
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i].value != column || tokens[i + 1].value != "=") continue;
    const Token& value = tokens[i + 2];
    if (value.kind != TokenKind::kString && value.kind != TokenKind::kNumber) continue;
    try {
      return std::stoll(UnquoteLiteral(value.value));
    } catch (const std::exception&) {
      continue;
    }
  }
  return std::nullopt;
}

bool Matches(const std::vector<PatternCondition>& conditions, const std::string& name) {
  for (const auto& condition : conditions) {
    bool found = false;
    // std::regex throws on patterns it cannot compile: convert at this boundary.
    try {
      found = std::regex_search(name, std::regex(condition.pattern));
    } catch (const std::regex_error&) {
      return false;
    }
    if (found == condition.negated) return false;
  }
  return true;
}

std::vector<TableEntry> Tables(const sql::SqlCatalog& catalog) {
  std::vector<TableEntry> out;
  int64_t oid = kFirstTableOid;
  for (const std::string& catalog_name : catalog.CatalogNames()) {
    auto schemas = catalog.SchemaNames(catalog_name);
    if (!schemas) continue;
    for (const std::string& schema : *schemas) {
      if (schema == "information_schema") continue;
      auto names = catalog.TableNames(catalog_name, schema);
      if (!names) continue;
      for (const std::string& name : *names) out.push_back({schema, name, oid++});
    }
  }
  return out;
}

sql::Value Text(std::string text) { return sql::Value::String(sql::SqlType::Varchar(), std::move(text)); }
sql::Value Null() { return sql::Value::Null(sql::SqlType::Varchar()); }

bool Has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// A pg_class row's cell for a select item.
sql::Value ClassCell(const SelectItem& item, const TableEntry& table, const SessionState& session) {
  const std::string& e = item.expression;
  std::string name = Lower(item.name);
  if (name == "schema" || Has(e, "nspname")) return Text(table.schema);
  if (name == "name" || Has(e, "relname")) return Text(table.name);
  if (name == "type") return Text("table");
  if (name == "owner" || Has(e, "get_userbyid")) return Text(session.user);
  if (Has(e, "relkind")) return Text("r");
  if (Has(e, "relpersistence")) return Text("p");
  if (Has(e, "relreplident")) return Text("d");
  if (Has(e, "relchecks") || Has(e, "reltablespace")) return Text("0");
  if (Has(e, "relhas") || Has(e, "relrowsecurity") || Has(e, "relforcerowsecurity") || Has(e, "relispartition") ||
      Has(e, "relhasoids") || e == "false") {
    return Text("f");
  }
  if (e.ends_with(".oid") || e == "oid") return Text(std::to_string(table.oid));
  if (Has(e, "amname")) return Text("heap");
  return Text("");
}

sql::Value AttributeCell(const SelectItem& item, const sql::TableColumn& column, int number) {
  const std::string& e = item.expression;
  if (e.starts_with("(")) return Null();  // Defaults, collations: floe's columns have none.
  if (Has(e, "attname")) return Text(column.name);
  if (Has(e, "format_type")) return Text(std::string(TypeName(TypeOid(column.type))));
  if (Has(e, "attnotnull")) return Text(column.nullable ? "f" : "t");
  if (Has(e, "attnum")) return Text(std::to_string(number));
  if (Has(e, "attidentity") || Has(e, "attgenerated")) return Text("");
  if (Has(e, "attstorage")) return Text("p");
  return Null();
}

}  // namespace

std::optional<Result<StatementOutcome>> AnswerCatalogQuery(const sql::SqlCatalog& catalog, std::string_view text,
                                                          const std::vector<Token>& tokens,
                                                          const SessionState& session) {
  static const std::set<std::string> kCatalogTables = {
      "pg_class", "pg_namespace", "pg_attribute", "pg_type", "pg_database", "pg_roles", "pg_user", "pg_settings",
      "pg_proc", "pg_index", "pg_constraint", "pg_description", "pg_am", "pg_inherits", "pg_policy",
      "pg_statistic_ext", "pg_publication", "pg_publication_rel", "pg_trigger", "pg_collation", "pg_tables",
      "pg_views", "pg_matviews", "pg_extension", "pg_enum", "pg_attrdef", "pg_rewrite", "pg_foreign_table",
      "pg_partitioned_table", "pg_sequence", "pg_event_trigger", "pg_opclass", "pg_operator", "pg_language"};
  std::set<std::string> used;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kIdentifier || !kCatalogTables.contains(tokens[i].value)) continue;
    // A table reference: after FROM/JOIN, or qualified by pg_catalog.
    bool qualified = i >= 2 && tokens[i - 1].kind == TokenKind::kDot && tokens[i - 2].value == "pg_catalog";
    bool after_from = i >= 1 && (tokens[i - 1].IsKeyword("from") || tokens[i - 1].IsKeyword("join"));
    if (qualified || after_from) used.insert(tokens[i].value);
  }
  if (used.empty()) return std::nullopt;

  std::vector<SelectItem> items = SelectList(text, tokens);
  StatementOutcome outcome;
  outcome.verb = "SELECT";
  outcome.has_rows = true;
  for (const auto& item : items) {
    outcome.result.column_names.push_back(item.name);
    outcome.result.column_types.push_back(sql::SqlType::Varchar());
  }
  auto& rows = outcome.result.rows;
  std::vector<TableEntry> tables = Tables(catalog);
  auto table_by_oid = [&](int64_t oid) -> const TableEntry* {
    for (const auto& t : tables) {
      if (t.oid == oid) return &t;
    }
    return nullptr;
  };
  // Only the outermost FROM decides; subqueries in the select list are answered by their cells.
  std::string from;
  {
    int depth = 0;
    for (size_t i = 0; i + 1 < tokens.size(); ++i) {
      if (tokens[i].kind == TokenKind::kLeftParen) ++depth;
      if (tokens[i].kind == TokenKind::kRightParen) --depth;
      if (depth == 0 && tokens[i].IsKeyword("from")) {
        size_t k = i + 1;
        if (k + 2 < tokens.size() && tokens[k].value == "pg_catalog" && tokens[k + 1].kind == TokenKind::kDot) k += 2;
        from = tokens[k].value;
        break;
      }
    }
  }
  if (from == "pg_attribute") {
    if (auto oid = OidFilter(tokens, "attrelid")) {
      if (const TableEntry* t = table_by_oid(*oid)) {
        auto table = catalog.GetTable({"floe", t->schema, t->name}, sql::TableVersion{});
        if (table) {
          int number = 0;
          for (const auto& column : (*table)->columns) {
            std::vector<sql::Value> row;
            ++number;
            for (const auto& item : items) row.push_back(AttributeCell(item, column, number));
            rows.push_back(std::move(row));
          }
        }
      }
    }
  } else if (from == "pg_class") {
    std::optional<int64_t> oid = OidFilter(tokens, "oid");
    auto name_pattern = PatternsFor(tokens, "relname");
    auto schema_pattern = PatternsFor(tokens, "nspname");
    // Queries that join pg_class to indexes, constraints, inheritance, policies ... ask about
    // things floe's tables do not have.
    bool listing = true;
    for (const char* other : {"pg_inherits", "pg_index", "pg_constraint", "pg_trigger", "pg_policy", "pg_publication",
                              "pg_publication_rel", "pg_partitioned_table", "pg_rewrite", "pg_statistic_ext",
                              "pg_foreign_table", "pg_sequence"}) {
      if (used.contains(other)) listing = false;
    }
    for (const auto& item : items) {
      // Catalog queries about indexes list nothing: floe has tables only.
      if (Has(item.expression, "indisprimary")) listing = false;
    }
    for (const auto& t : tables) {
      if (!listing) break;
      if (oid.has_value() && t.oid != *oid) continue;
      if (!Matches(name_pattern, t.name) || !Matches(schema_pattern, t.schema)) continue;
      std::vector<sql::Value> row;
      for (const auto& item : items) row.push_back(ClassCell(item, t, session));
      rows.push_back(std::move(row));
    }
  } else if (from == "pg_namespace") {
    std::set<std::string> schemas;
    for (const auto& t : tables) schemas.insert(t.schema);
    for (const auto& name : catalog.SchemaNames("floe").value_or(std::vector<std::string>{})) {
      if (name != "information_schema") schemas.insert(name);
    }
    auto pattern = PatternsFor(tokens, "nspname");
    for (const auto& schema : schemas) {
      if (!Matches(pattern, schema)) continue;
      std::vector<sql::Value> row;
      for (const auto& item : items) {
        std::string name = Lower(item.name);
        if (name == "name" || Has(item.expression, "nspname")) {
          row.push_back(Text(schema));
        } else if (name == "owner" || Has(item.expression, "userbyid")) {
          row.push_back(Text(session.user));
        } else {
          row.push_back(Null());
        }
      }
      rows.push_back(std::move(row));
    }
  } else if (from == "pg_database") {
    std::vector<sql::Value> row;
    for (const auto& item : items) {
      std::string name = Lower(item.name);
      if (name == "name" || Has(item.expression, "datname")) {
        row.push_back(Text(session.catalog));
      } else if (name == "owner" || Has(item.expression, "userbyid")) {
        row.push_back(Text(session.user));
      } else if (name == "encoding" || Has(item.expression, "encoding")) {
        row.push_back(Text("UTF8"));
      } else {
        row.push_back(Null());
      }
    }
    rows.push_back(std::move(row));
  }
  return Result<StatementOutcome>(std::move(outcome));
}

}  // namespace floe::serve::pg
