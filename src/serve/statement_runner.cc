#include "serve/statement_runner.h"

#include <chrono>
#include <thread>

#include "serve/authorizing_catalog.h"
#include "serve/statement_access.h"

#include "serve/result_stream.h"
#include "serve/session_properties.h"
#include "sql/parser/pre_parser.h"

namespace floe::serve {
namespace {

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// `sql` with every byte outside [begin, end) blanked (line breaks kept), so the engine's
// error positions are true to the whole text.
std::string Isolate(std::string_view sql, int begin, int end) {
  std::string out(sql);
  for (int i = 0; i < static_cast<int>(out.size()); ++i) {
    if ((i < begin || i >= end) && out[i] != '\n') out[i] = ' ';
  }
  return out;
}

// The session property `testing_delay_ms` makes each statement the engine runs wait first (watching for
// cancellation), so tests can hold a query running: cancellation, time limits, admission.
void TestingDelay(const SessionState& session, const std::atomic<bool>* cancel) {
  auto it = session.properties.find("testing_delay_ms");
  if (it == session.properties.end()) return;
  int64_t millis = 0;
  try {
    millis = std::stoll(it->second);
  } catch (const std::exception&) {
    return;
  }
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::min<int64_t>(millis, 600'000));
  while (std::chrono::steady_clock::now() < until && !(cancel != nullptr && cancel->load())) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

sql::QueryOptions EngineOptions(const SessionState& session, const std::atomic<bool>* cancel, const RunOptions& run) {
  sql::QueryOptions options = QueryOptionsFor(session, cancel);
  if (run.memory_limit_bytes > 0) options.memory_limit_bytes = run.memory_limit_bytes;
  if (!run.spill_dir.empty()) options.spill_dir = run.spill_dir;
  return options;
}

}  // namespace

std::string StatementVerb(const std::vector<sql::Token>& tokens) {
  if (tokens.empty() || tokens[0].kind != sql::TokenKind::kIdentifier) return "";
  std::string verb = Upper(tokens[0].value);
  if ((verb == "CREATE" || verb == "DROP" || verb == "ALTER") && tokens.size() > 1 &&
      tokens[1].kind == sql::TokenKind::kIdentifier) {
    verb.push_back(' ');
    verb.append(Upper(tokens[1].value));
  }
  if (verb == "WITH" || verb == "VALUES" || verb == "TABLE") verb = "SELECT";
  return verb;
}

RunOutput RunStatements(sql::SqlCatalog& unchecked_catalog, std::string_view sql, SessionState session,
                        StatementInterceptor* interceptor, const std::atomic<bool>* cancel, RunOptions run) {
  RunOutput out;
  // Every table the engine touches is checked against the user's role and grants.
  const auth::Principal principal = session.principal;
  AuthorizingCatalog catalog(unchecked_catalog, principal);
  auto fail = [&](Error error, std::string text) {
    out.error = std::move(error);
    out.failed_text = std::move(text);
    out.session = session;
    return std::move(out);
  };
  auto tokens = sql::Tokenize(sql);
  if (!tokens) return fail(tokens.error(), std::string(sql));
  auto ranges = sql::SplitStatements(*tokens);
  for (size_t index = 0; index < ranges.size(); ++index) {
    const sql::TokenRange& range = ranges[index];
    if (cancel != nullptr && cancel->load()) break;
    bool keep_rows = !run.last_statement_rows_only || index + 1 == ranges.size();
    std::vector<sql::Token> statement_tokens(tokens->begin() + range.first, tokens->begin() + range.last);
    int begin = statement_tokens.front().begin;
    int end = statement_tokens.back().end;
    std::string text = Isolate(sql, begin, end);
    StatementOutcome outcome;
    outcome.verb = StatementVerb(statement_tokens);
    // A rewrite (EXECUTE of a prepared statement, say) is offered to the interceptor again.
    bool answered = false;
    for (int round = 0; interceptor != nullptr && round < 4; ++round) {
      Interception interception = interceptor->Intercept(text, statement_tokens, session);
      if (interception.answer.has_value()) {
        if (!interception.answer->has_value()) return fail(interception.answer->error(), text);
        StatementOutcome answer = std::move(interception.answer->value());
        if (answer.verb.empty()) answer.verb = outcome.verb;
        answer.has_rows = answer.has_rows || !answer.result.column_names.empty();
        answer.rows = static_cast<int64_t>(answer.result.rows.size());
        if (run.stream != nullptr) {
          std::vector<ResultRow> rows = std::move(answer.result.rows);
          answer.result.rows.clear();
          run.stream->Begin(answer);
          if (keep_rows) {
            if (auto pushed = run.stream->Push(std::move(rows)); !pushed) return fail(pushed.error(), text);
          }
          run.stream->End(answer);
        }
        out.outcomes.push_back(std::move(answer));
        answered = true;
        break;
      }
      if (!interception.rewritten.has_value()) break;
      text = std::move(*interception.rewritten);
      auto retokenized = sql::Tokenize(text);
      if (!retokenized) return fail(retokenized.error(), text);
      statement_tokens = std::move(*retokenized);
      if (statement_tokens.empty()) break;
      outcome.verb = StatementVerb(statement_tokens);
    }
    if (answered) continue;
    // The statement the engine will run (after any rewrite) must be one the user may do in some
    // schema; which schemas, the catalog checks as the engine touches them.
    if (auth::Operation needed = StatementOperation(statement_tokens);
        !auth::AllowedSomewhere(principal, auth::ResourceKind::kNamespace, needed)) {
      return fail(Error(ErrorKind::kPermissionDenied,
                        fmt::format("permission denied: user '{}' has role {} and no grant of {}; {} needs {}",
                                    session.user, auth::RoleName(principal.role), auth::OperationName(needed),
                                    outcome.verb, auth::OperationName(needed))),
                  text);
    }
    TestingDelay(session, cancel);
    if (cancel != nullptr && cancel->load()) break;
    auto zone = TimeZone::Find(session.time_zone);
    if (!zone) {
      return fail(Error(ErrorKind::kInvalidArgument, zone.error().message(), ErrorCode::kInvalidParameterValue), text);
    }
    sql::SqlSession engine(catalog, sql::BindOptions{session.catalog, session.schema, *zone});
    if (run.stream != nullptr) {
      // Each statement's rows go out batch by batch as the executor makes them.
      StatementOutcome header = outcome;
      sql::StreamCallbacks callbacks;
      callbacks.on_columns = [&](const std::vector<std::string>& names, const std::vector<sql::SqlType>& types) -> Status {
        header.has_rows = true;
        header.result.column_names = names;
        header.result.column_types = types;
        run.stream->Begin(header);
        return OkStatus();
      };
      callbacks.on_batch = [&](const sql::ResultBatch& batch) -> Status {
        if (!keep_rows) return OkStatus();
        std::vector<ResultRow> rows;
        rows.reserve(static_cast<size_t>(batch.rows()));
        for (int64_t i = 0; i < batch.rows(); ++i) rows.push_back(batch.Row(i));
        return run.stream->Push(std::move(rows));
      };
      auto summaries = engine.RunStreaming(text, EngineOptions(session, cancel, run), callbacks);
      if (!summaries) return fail(summaries.error(), text);
      session.catalog = engine.options().catalog;
      session.schema = engine.options().schema;
      if (engine.options().time_zone) session.time_zone = engine.options().time_zone->name();
      for (auto& summary : *summaries) {
        StatementOutcome each = header;
        each.result.message = summary.message;
        each.result.update_count = summary.update_count;
        each.result.warnings = std::move(summary.warnings);
        each.rows = summary.rows;
        if (summary.update_count) each.affected = *summary.update_count;
        if (!each.has_rows) run.stream->Begin(each);
        run.stream->End(each);
        out.outcomes.push_back(std::move(each));
      }
      continue;
    }
    auto results = engine.Run(text, EngineOptions(session, cancel, run));
    if (!results) return fail(results.error(), text);
    session.catalog = engine.options().catalog;
    session.schema = engine.options().schema;
    if (engine.options().time_zone) session.time_zone = engine.options().time_zone->name();
    for (auto& result : *results) {
      StatementOutcome each = outcome;
      each.has_rows = !result.column_names.empty();
      if (result.update_count) each.affected = *result.update_count;
      each.rows = static_cast<int64_t>(result.rows.size());
      each.result = std::move(result);
      out.outcomes.push_back(std::move(each));
    }
  }
  out.session = std::move(session);
  return out;
}

}  // namespace floe::serve
