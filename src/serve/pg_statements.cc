#include "serve/pg_statements.h"

#include <set>

#include <fmt/format.h>

#include "serve/authorizing_catalog.h"
#include "serve/pg_catalog_emulation.h"
#include "serve/session_functions.h"
#include "serve/session_properties.h"
#include "serve/trino_statements.h"

namespace floe::serve::pg {
namespace {

using sql::Token;
using sql::TokenKind;

StatementOutcome Tag(std::string verb) {
  StatementOutcome outcome;
  outcome.verb = std::move(verb);
  return outcome;
}

StatementOutcome OneValue(const std::string& column, const std::string& value) {
  StatementOutcome outcome;
  outcome.verb = "SHOW";
  outcome.has_rows = true;
  outcome.result.column_names = {column};
  outcome.result.column_types = {sql::SqlType::Varchar()};
  outcome.result.rows = {{sql::Value::String(sql::SqlType::Varchar(), value)}};
  return outcome;
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// floe's own SHOW statements, which the engine answers.
bool IsEngineShow(const std::vector<Token>& tokens) {
  static const std::set<std::string> kEngine = {"catalogs", "schemas", "tables", "columns", "create",
                                                "functions", "session", "stats", "grants", "roles"};
  return tokens.size() > 1 && tokens[1].kind == TokenKind::kIdentifier && kEngine.contains(tokens[1].value);
}

}  // namespace

std::optional<std::string> DropQuoteIdent(std::string_view text, const std::vector<Token>& tokens) {
  std::string out;
  int copied = 0;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].IsKeyword("quote_ident") || tokens[i + 1].kind != TokenKind::kLeftParen) continue;
    if (i > 0 && tokens[i - 1].kind == TokenKind::kDot) continue;
    out.append(text.substr(copied, tokens[i].begin - copied));
    copied = tokens[i].end;  // Keep the parenthesised argument.
  }
  if (copied == 0) return std::nullopt;
  out.append(text.substr(copied));
  return out;
}

std::optional<std::string> PgStatements::Setting(std::string_view raw_name, const SessionState& session) {
  std::string name = Lower(std::string(raw_name));
  if (auto it = session.properties.find(name); it != session.properties.end()) return it->second;
  if (name == "server_version") return std::string(kServerVersion);
  if (name == "server_version_num") return std::string(kServerVersionNum);
  if (name == "server_encoding" || name == "client_encoding") return std::string("UTF8");
  if (name == "datestyle") return std::string("ISO, MDY");
  if (name == "intervalstyle") return std::string("postgres");
  if (name == "timezone" || name == "time zone") return session.time_zone;
  if (name == "standard_conforming_strings" || name == "integer_datetimes") return std::string("on");
  if (name == "search_path") return session.schema;
  if (name == "transaction_isolation" || name == "transaction isolation level") return std::string("read committed");
  if (name == "transaction_read_only" || name == "default_transaction_read_only" || name == "is_superuser") {
    return std::string("off");
  }
  if (name == "max_identifier_length") return std::string("63");
  if (name == "application_name") return std::string("");
  if (name == "lc_collate" || name == "lc_ctype") return std::string("C");
  if (name == "session_authorization") return session.user;
  return std::nullopt;
}

Interception PgStatements::Intercept(std::string_view text, const std::vector<Token>& tokens, SessionState& session) {
  Interception result;
  auto keyword = [&](size_t i, std::string_view word) { return i < tokens.size() && tokens[i].IsKeyword(word); };
  if (tokens.empty()) return result;
  const std::string& first = tokens[0].value;

  if (keyword(0, "set")) {
    // SET [SESSION | LOCAL] name { TO | = } value [, ...] | SET TIME ZONE value
    size_t i = 1;
    if (keyword(i, "session") && !keyword(i + 1, "authorization")) ++i;
    if (keyword(i, "local")) ++i;
    std::string name;
    size_t value_at;
    if (keyword(i, "time") && keyword(i + 1, "zone")) {
      name = "timezone";
      value_at = i + 2;
    } else {
      while (i < tokens.size() && tokens[i].kind != TokenKind::kOperator && !tokens[i].IsKeyword("to")) {
        name += tokens[i].kind == TokenKind::kDot ? "." : tokens[i].value;
        ++i;
      }
      value_at = i + 1;
    }
    std::vector<std::string> values = SplitArguments(text, tokens, value_at);
    std::string value;
    for (const auto& v : values) value += (value.empty() ? "" : ", ") + UnquoteLiteral(v);
    name = Lower(name);
    // PostgreSQL's SET TIME ZONE LOCAL / DEFAULT go back to the server's zone, which is UTC.
    if (name == "timezone" && (Lower(value) == "local" || Lower(value) == "default")) value = "UTC";
    if (auto valid = CheckSessionProperty(name, value); !valid) {
      result.answer = std::unexpected(valid.error());
      return result;
    }
    if (name == "timezone") session.time_zone = value;
    if (name == "search_path" && !values.empty()) {
      std::string schema = UnquoteLiteral(values.front());
      if (schema.size() >= 2 && schema.front() == '"') schema = schema.substr(1, schema.size() - 2);
      if (schema != "$user" && schema != "public" && schema != "pg_catalog") session.schema = schema;
    }
    session.properties[name] = value;
    result.answer = Tag("SET");
    return result;
  }
  if (keyword(0, "reset")) {
    if (keyword(1, "all")) {
      session.properties.clear();
    } else if (tokens.size() > 1) {
      session.properties.erase(Lower(tokens[1].value));
    }
    result.answer = Tag("RESET");
    return result;
  }
  if (keyword(0, "show") && !IsEngineShow(tokens)) {
    if (keyword(1, "all")) {
      StatementOutcome outcome;
      outcome.verb = "SHOW";
      outcome.has_rows = true;
      outcome.result.column_names = {"name", "setting", "description"};
      outcome.result.column_types = {sql::SqlType::Varchar(), sql::SqlType::Varchar(), sql::SqlType::Varchar()};
      for (const char* name : {"client_encoding", "DateStyle", "integer_datetimes", "search_path", "server_encoding",
                               "server_version", "standard_conforming_strings", "TimeZone"}) {
        auto v = Setting(name, session);
        outcome.result.rows.push_back({sql::Value::String(sql::SqlType::Varchar(), name),
                                       sql::Value::String(sql::SqlType::Varchar(), v.value_or("")),
                                       sql::Value::String(sql::SqlType::Varchar(), "")});
      }
      result.answer = std::move(outcome);
      return result;
    }
    std::string name;
    for (size_t i = 1; i < tokens.size(); ++i) name += (name.empty() ? "" : " ") + tokens[i].value;
    auto value = Setting(name, session);
    if (!value) {
      result.answer = NotFound("unrecognized configuration parameter \"{}\"", name);
      return result;
    }
    std::string column = name == "transaction isolation level" ? "transaction_isolation" : name == "time zone" ? "TimeZone" : name;
    result.answer = OneValue(column, *value);
    return result;
  }
  if (first == "begin" || (first == "start" && keyword(1, "transaction"))) {
    result.answer = Tag(first == "begin" ? "BEGIN" : "START TRANSACTION");
    return result;
  }
  if (first == "commit" || first == "end") {
    result.answer = Tag("COMMIT");
    return result;
  }
  if (first == "rollback" || first == "abort") {
    result.answer = Tag("ROLLBACK");
    return result;
  }
  if (first == "savepoint" || first == "release") {
    result.answer = Tag(first == "savepoint" ? "SAVEPOINT" : "RELEASE");
    return result;
  }
  if (first == "discard" || first == "deallocate" || first == "listen" || first == "unlisten" ||
      (first == "close" && keyword(1, "all"))) {
    std::string verb = fmt::format("{}", first);
    for (char& c : verb) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (first == "discard" && keyword(1, "all")) verb = "DISCARD ALL";
    if (first == "deallocate" && keyword(1, "all")) verb = "DEALLOCATE ALL";
    result.answer = Tag(verb);
    return result;
  }
  // psql's catalog queries list only what the user may see (authorizing_catalog.h).
  AuthorizingCatalog visible(catalog_, session.principal);
  if (auto answer = AnswerCatalogQuery(visible, text, tokens, session)) {
    result.answer = std::move(*answer);
    return result;
  }
  SessionFunctionValues values{
      .version = fmt::format("PostgreSQL {} (floe {})", kServerVersion, floe_version_),
      .setting = [&session](std::string_view name) { return Setting(name, session); }};
  result.rewritten = RewriteSessionFunctions(text, tokens, session, values);
  if (!result.rewritten.has_value()) result.rewritten = DropQuoteIdent(text, tokens);
  return result;
}

}  // namespace floe::serve::pg
