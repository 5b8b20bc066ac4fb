#include "serve/trino_protocol.h"

#include "serve/basic_auth.h"

#include <charconv>

#include <fmt/format.h>

#include "auth/secure_random.h"
#include "serve/session_properties.h"
#include "serve/trino_json.h"

namespace floe::serve {
namespace {

using net::HttpRequest;
using net::HttpResponse;

std::string BaseUri(const HttpRequest& request) {
  auto host = request.headers.Get("Host");
  return fmt::format("{}://{}", request.scheme, host.has_value() && !host->empty() ? *host : "127.0.0.1");
}

// The paging slug of a statement's next URI: whoever knows a query's id and its slug can read
// its next page, so it comes from the secure generator (auth::SecureRandomU64).
Result<std::string> RandomSlug() {
  FLOE_ASSIGN_OR_RETURN(uint64_t value, auth::SecureRandomU64());
  return fmt::format("y{:016x}", value);
}

std::string Trim(std::string_view text) {
  size_t b = text.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  size_t e = text.find_last_not_of(" \t");
  return std::string(text.substr(b, e - b + 1));
}

// "a=1, b=x%20y" -> {a: 1, b: x y}; names and values percent-decoded (Java encodes ' ' as '+').
std::map<std::string, std::string> ParsePairs(std::string_view header) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start <= header.size()) {
    size_t comma = header.find(',', start);
    std::string_view part = header.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t eq = part.find('=');
    if (eq != std::string_view::npos) {
      auto name = net::PercentDecode(Trim(part.substr(0, eq)), true);
      auto value = net::PercentDecode(Trim(part.substr(eq + 1)), true);
      if (name && value && !name->empty()) out[*name] = *value;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

SessionState SessionFromHeaders(const HttpRequest& request) {
  SessionState session;
  auto get = [&](std::string_view name) -> std::optional<std::string_view> {
    if (auto v = request.headers.Get(fmt::format("X-Trino-{}", name))) return v;
    return request.headers.Get(fmt::format("X-Presto-{}", name));
  };
  if (auto v = get("User")) session.user = std::string(*v);
  if (auto v = get("Source")) session.source = std::string(*v);
  if (auto v = get("Catalog"); v && !v->empty()) session.catalog = std::string(*v);
  if (auto v = get("Schema"); v && !v->empty()) session.schema = std::string(*v);
  if (auto v = get("Time-Zone"); v && !v->empty()) session.time_zone = std::string(*v);
  // Several headers of one name are allowed; HttpHeaders keeps them in order.
  for (const auto& [name, value] : request.headers.fields()) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "x-trino-session" || lower == "x-presto-session") {
      for (auto& [k, v] : ParsePairs(value)) session.properties[k] = v;
    }
    if (lower == "x-trino-prepared-statement" || lower == "x-presto-prepared-statement") {
      for (auto& [k, v] : ParsePairs(value)) session.prepared[k] = v;
    }
  }
  return session;
}

nlohmann::json Stats(const Query& query, QueryState reported, int64_t rows) {
  bool queued = reported == QueryState::kQueued;
  bool done = reported == QueryState::kFinished || reported == QueryState::kFailed || reported == QueryState::kCanceled;
  std::string state(QueryStateName(reported == QueryState::kCanceled ? QueryState::kFailed : reported));
  return {
      {"state", state},
      {"queued", queued},
      {"scheduled", !queued},
      {"progressPercentage", done ? 100.0 : 0.0},
      {"runningPercentage", 0.0},
      {"nodes", 1},
      {"totalSplits", 1},
      {"queuedSplits", queued ? 1 : 0},
      {"runningSplits", !queued && !done ? 1 : 0},
      {"completedSplits", done ? 1 : 0},
      {"cpuTimeMillis", query.elapsed_millis() - query.queued_millis()},
      {"wallTimeMillis", query.elapsed_millis() - query.queued_millis()},
      {"queuedTimeMillis", query.queued_millis()},
      {"elapsedTimeMillis", query.elapsed_millis()},
      {"processedRows", rows},
      {"processedBytes", query.result_bytes()},
      {"physicalInputBytes", 0},
      {"physicalWrittenBytes", 0},
      {"peakMemoryBytes", query.peak_buffered_bytes()},
      {"spilledBytes", 0},
  };
}

void AddSessionHeaders(HttpResponse& response, const SessionState& before, const SessionState& after, bool use) {
  if (use || after.catalog != before.catalog) response.headers.Add("X-Trino-Set-Catalog", after.catalog);
  if (use || after.schema != before.schema) response.headers.Add("X-Trino-Set-Schema", after.schema);
  for (const auto& [name, value] : after.properties) {
    auto it = before.properties.find(name);
    if (it == before.properties.end() || it->second != value) {
      response.headers.Add("X-Trino-Set-Session", name + "=" + net::PercentEncode(value));
    }
  }
  for (const auto& [name, value] : before.properties) {
    if (!after.properties.contains(name)) response.headers.Add("X-Trino-Clear-Session", name);
  }
  for (const auto& [name, text] : after.prepared) {
    auto it = before.prepared.find(name);
    if (it == before.prepared.end() || it->second != text) {
      response.headers.Add("X-Trino-Added-Prepare", net::PercentEncode(name) + "=" + net::PercentEncode(text));
    }
  }
  for (const auto& [name, text] : before.prepared) {
    if (!after.prepared.contains(name)) response.headers.Add("X-Trino-Deallocated-Prepare", net::PercentEncode(name));
  }
}

HttpResponse JsonResponse(const nlohmann::json& body) {
  return HttpResponse::Json(200, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

HttpResponse NotFoundResponse(std::string_view what) {
  return HttpResponse::Text(404, fmt::format("{}\n", what));
}

}  // namespace

TrinoProtocol::TrinoProtocol(QueryManager& manager, TrinoProtocolOptions options)
    : manager_(manager),
      options_(std::move(options)),
      statements_(std::make_shared<TrinoStatements>(options_.version)),
      started_(std::chrono::steady_clock::now()) {}

Status TrinoProtocol::Register(net::HttpRouter& router) {
  auto bind = [this](HttpResponse (TrinoProtocol::*method)(HttpRequest&)) {
    return [this, method](HttpRequest& request) { return (this->*method)(request); };
  };
  FLOE_RETURN_IF_ERROR(router.Add("POST", "/v1/statement", bind(&TrinoProtocol::PostStatement)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/v1/statement/queued/{id}/{slug}/{token}", bind(&TrinoProtocol::GetPage)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/v1/statement/executing/{id}/{slug}/{token}", bind(&TrinoProtocol::GetPage)));
  FLOE_RETURN_IF_ERROR(
      router.Add("DELETE", "/v1/statement/queued/{id}/{slug}/{token}", bind(&TrinoProtocol::CancelStatement)));
  FLOE_RETURN_IF_ERROR(
      router.Add("DELETE", "/v1/statement/executing/{id}/{slug}/{token}", bind(&TrinoProtocol::CancelStatement)));
  FLOE_RETURN_IF_ERROR(router.Add("DELETE", "/v1/query/{id}", bind(&TrinoProtocol::CancelQuery)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/v1/query/{id}", bind(&TrinoProtocol::QueryInfo)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/v1/info", bind(&TrinoProtocol::ServerInfo)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/v1/info/state", [](HttpRequest&) {
    return HttpResponse::Json(200, "\"ACTIVE\"");
  }));
  return OkStatus();
}

HttpResponse TrinoProtocol::PostStatement(HttpRequest& request) {
  if (request.body.empty()) return HttpResponse::Text(400, "SQL statement is empty\n");
  SessionState session = SessionFromHeaders(request);
  if (!options_.users.empty()) {
    // The guard made sure X-Trino-User, if any, is the authenticated user.
    session.user = BasicAuthUserName(request);
    session.principal = auth::PrincipalOf(options_.users, session.user);
  }
  // As SET SESSION does: a value floe cannot use is refused, not silently replaced.
  for (const auto& [name, value] : session.properties) {
    if (auto valid = CheckSessionProperty(name, value); !valid) {
      return HttpResponse::Text(400, fmt::format("X-Trino-Session {}: {}\n", name, valid.error().message()));
    }
  }
  auto slug = RandomSlug();
  if (!slug) return HttpResponse::Text(500, slug.error().message() + "\n");
  QueryRequest query_request{.sql = request.body,
                             .session = std::move(session),
                             .protocol = "trino",
                             .interceptor = statements_,
                             .stream = true,
                             .last_statement_rows_only = true,
                             .abandon_after = options_.client_timeout};
  auto query = manager_.Submit(std::move(query_request));
  auto paging = std::make_shared<Paging>();
  paging->slug = std::move(*slug);
  {
    std::lock_guard lock(mu_);
    ForgetFinished(std::chrono::steady_clock::now());
    if (paging_.size() > 4 * manager_.options().history_size + 64) {
      for (auto it = paging_.begin(); it != paging_.end();) {
        it = manager_.Find(it->first) ? std::next(it) : paging_.erase(it);
      }
    }
    paging_[query->id()] = paging;
  }
  // The first answer never carries data: the npm client ignores data in it.
  std::string base = BaseUri(request);
  nlohmann::json body = {
      {"id", query->id()},
      {"infoUri", fmt::format("{}/ui/query.html?{}", base, query->id())},
      {"nextUri", fmt::format("{}/v1/statement/queued/{}/{}/1", base, query->id(), paging->slug)},
      {"stats", Stats(*query, QueryState::kQueued, 0)},
      {"warnings", nlohmann::json::array()},
  };
  return JsonResponse(body);
}

std::shared_ptr<Query> TrinoProtocol::Lookup(const HttpRequest& request, std::shared_ptr<Paging>* paging) {
  std::string_view id = request.Param("id");
  if (id.empty()) return nullptr;
  {
    std::lock_guard lock(mu_);
    auto it = paging_.find(id);
    if (it == paging_.end() || it->second->slug != request.Param("slug")) return nullptr;
    *paging = it->second;
  }
  return manager_.Find(id);
}

HttpResponse TrinoProtocol::GetPage(HttpRequest& request) {
  std::shared_ptr<Paging> paging;
  auto query = Lookup(request, &paging);
  if (!query || !query->stream()) return NotFoundResponse("Query not found");
  size_t token = 0;
  std::string_view text = request.Param("token");
  std::from_chars(text.data(), text.data() + text.size(), token);
  std::lock_guard lock(paging->mu);
  query->Touch();
  // A client retrying a GET gets the same page; pages before it are gone (as Trino answers).
  if (paging->last.has_value() && token == paging->token) return *paging->last;
  if (token != paging->token + 1) return HttpResponse::Text(410, "Page is gone\n");
  HttpResponse response = NextPage(request, query, *paging, token);
  paging->token = token;
  paging->last = response;
  if (paging->done) {
    std::lock_guard lock(mu_);
    auto now = std::chrono::steady_clock::now();
    finished_.emplace_back(now, query->id());
    ForgetFinished(now);
  }
  return response;
}

void TrinoProtocol::ForgetFinished(std::chrono::steady_clock::time_point now) {
  while (!finished_.empty() && now - finished_.front().first >= options_.final_page_linger) {
    paging_.erase(finished_.front().second);
    finished_.pop_front();
  }
}

HttpResponse TrinoProtocol::NextPage(const HttpRequest& request, const std::shared_ptr<Query>& query, Paging& paging,
                                     size_t token) {
  ResultStream& stream = *query->stream();
  auto page_bytes = static_cast<int64_t>(options_.target_page_bytes);
  // Timestamps with time zone go out in the request's X-Trino-Time-Zone (checked by the query).
  auto found_zone = TimeZone::Find(query->request().session.time_zone);
  const TimeZone& zone = found_zone ? **found_zone : *TimeZone::Utc();
  stream.WaitReadable(page_bytes, options_.max_wait);
  nlohmann::json data = nlohmann::json::array();
  for (StreamItem& item : stream.Take(page_bytes)) {
    switch (item.kind) {
      case StreamItem::Kind::kBegin: {
        const auto& result = item.statement->result;
        paging.columns = nullptr;
        if (!item.statement->has_rows) break;
        paging.columns = nlohmann::json::array();
        for (size_t i = 0; i < result.column_names.size(); ++i) {
          paging.columns.push_back(TrinoColumn(result.column_names[i], result.column_types[i]));
        }
        break;
      }
      case StreamItem::Kind::kRows:
        for (const ResultRow& row : item.rows) {
          nlohmann::json out = nlohmann::json::array();
          for (const auto& value : row) out.push_back(TrinoValue(value, zone));
          data.push_back(std::move(out));
        }
        break;
      case StreamItem::Kind::kEnd: paging.ended = item.statement; break;
    }
  }
  paging.rows_sent += static_cast<int64_t>(data.size());
  std::string base = BaseUri(request);
  nlohmann::json body = {
      {"id", query->id()},
      {"infoUri", fmt::format("{}/ui/query.html?{}", base, query->id())},
      {"warnings", nlohmann::json::array()},
  };
  if (!paging.columns.is_null()) body["columns"] = paging.columns;
  if (!data.empty()) body["data"] = std::move(data);
  if (!stream.Finished()) {
    // More to come: the query runs on (or its rows wait in the buffer) until the next poll.
    QueryState state = query->state() == QueryState::kQueued ? QueryState::kQueued : QueryState::kRunning;
    body["nextUri"] = fmt::format("{}/v1/statement/executing/{}/{}/{}", base, query->id(), paging.slug, token + 1);
    body["stats"] = Stats(*query, state, paging.rows_sent);
    return JsonResponse(body);
  }
  // The stream closes only once the query has ended, so its state is final here.
  QueryState state = query->state();
  paging.done = true;
  if (state != QueryState::kFinished) {
    body.erase("data");
    body["error"] = TrinoError(query->error().value_or(QueryError::Canceled()));
    body["stats"] = Stats(*query, QueryState::kFailed, paging.rows_sent);
    return JsonResponse(body);
  }
  if (paging.ended) {
    const StatementOutcome& outcome = *paging.ended;
    // Trino's warning shape; the code is floe's own (Trino reserves small codes for its engine).
    nlohmann::json warnings = nlohmann::json::array();
    for (const std::string& warning : outcome.result.warnings) {
      warnings.push_back({{"warningCode", {{"code", 0x0F10'0001}, {"name", "FLOE_ENGINE_WARNING"}}}, {"message", warning}});
    }
    body["warnings"] = std::move(warnings);
    if (!outcome.has_rows || (outcome.verb != "SELECT" && outcome.verb != "SHOW" && outcome.verb != "EXPLAIN" &&
                              outcome.verb != "DESCRIBE")) {
      if (!outcome.verb.empty()) body["updateType"] = outcome.verb;
      if (outcome.affected >= 0) body["updateCount"] = outcome.affected;
    }
  }
  body["stats"] = Stats(*query, QueryState::kFinished, paging.rows_sent);
  HttpResponse response = JsonResponse(body);
  bool use = false;
  for (const auto& outcome : query->outcomes()) use = use || outcome.verb == "USE";
  AddSessionHeaders(response, query->request().session, query->session_after(), use);
  return response;
}

HttpResponse TrinoProtocol::CancelStatement(HttpRequest& request) {
  std::shared_ptr<Paging> paging;
  auto query = Lookup(request, &paging);
  if (!query) return NotFoundResponse("Query not found");
  if (!MayTouch(request, *query)) return HttpResponse::Text(403, "Access Denied: cannot kill another user's query\n");
  query->Cancel();
  return HttpResponse::Text(204, "");
}

bool TrinoProtocol::MayTouch(const HttpRequest& request, const Query& query) const {
  if (options_.users.empty()) return true;
  std::string caller = BasicAuthUserName(request);
  return caller == query.request().session.user || auth::RoleOf(options_.users, caller) == auth::Role::kAdmin;
}

HttpResponse TrinoProtocol::CancelQuery(HttpRequest& request) {
  auto query = manager_.Find(request.Param("id"));
  if (!query) return NotFoundResponse("Query not found");
  // Only its owner or an admin may cancel a query (Trino's access control does the same).
  if (!MayTouch(request, *query)) return HttpResponse::Text(403, "Access Denied: cannot kill another user's query\n");
  if (!manager_.Cancel(request.Param("id"))) return NotFoundResponse("Query not found");
  return HttpResponse::Text(204, "");
}

HttpResponse TrinoProtocol::QueryInfo(HttpRequest& request) {
  auto query = manager_.Find(request.Param("id"));
  if (!query) return NotFoundResponse("Query not found");
  if (!MayTouch(request, *query)) return HttpResponse::Text(403, "Access Denied: cannot view another user's query\n");
  nlohmann::json info = query->Info();
  info["queryId"] = query->id();
  return JsonResponse(info);
}

HttpResponse TrinoProtocol::ServerInfo(HttpRequest&) {
  auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_);
  nlohmann::json body = {
      {"nodeVersion", {{"version", options_.version}}},
      {"environment", "floe"},
      {"coordinator", true},
      {"starting", false},
      {"uptime", fmt::format("{}s", uptime.count())},
  };
  return JsonResponse(body);
}

}  // namespace floe::serve
