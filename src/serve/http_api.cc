#include "serve/http_api.h"

#include <fmt/format.h>

#include <charconv>
#include <utility>

#include "base/json_depth.h"
#include "serve/authorizing_catalog.h"
#include "serve/basic_auth.h"
#include "serve/session_properties.h"
#include "serve/trino_json.h"
#include "serve/trino_statements.h"

namespace floe::serve {
namespace {

using net::HttpRequest;
using net::HttpResponse;

HttpResponse Json(int status, const nlohmann::json& body) {
  return HttpResponse::Json(status, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

int StatusFor(const QueryError& error) {
  if (error.name == "QUERY_QUEUE_FULL") return 503;
  if (error.type == "USER_ERROR") return 400;
  if (error.type == "INSUFFICIENT_RESOURCES") return 429;
  return 500;
}

// "a"."b" quoting for identifiers built into SQL text.
std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

HttpResponse JsonError(int status, std::string_view message) {
  return Json(status, {{"error", {{"message", message}}}});
}

HttpApi::HttpApi(QueryManager& manager, PipelineControl* pipeline, std::string version, std::vector<auth::AuthUser> users)
    : manager_(manager),
      pipeline_(pipeline),
      statements_(std::make_shared<TrinoStatements>(std::move(version))),
      users_(std::move(users)) {}

Status HttpApi::Register(net::HttpRouter& router) {
  auto bind = [this](HttpResponse (HttpApi::*method)(HttpRequest&)) {
    return [this, method](HttpRequest& request) { return (this->*method)(request); };
  };
  FLOE_RETURN_IF_ERROR(router.Add("POST", "/api/query", bind(&HttpApi::PostQuery)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/api/queries", bind(&HttpApi::GetQueries)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/api/tables", bind(&HttpApi::GetTables)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/api/tables/{schema}/{table}", bind(&HttpApi::GetTable)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/api/pipeline", [this](HttpRequest& r) { return Pipeline(r, false); }));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/api/reconciliation", [this](HttpRequest& r) { return Pipeline(r, true); }));
  FLOE_RETURN_IF_ERROR(router.Add("POST", "/api/playground/{action}", bind(&HttpApi::Playground)));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/api/logs/{box}", bind(&HttpApi::Logs)));
  return OkStatus();
}

nlohmann::json HttpApi::RunQuery(const std::string& sql, const SessionState& session, int* status) {
  auto query = manager_.Submit({.sql = sql, .session = session, .protocol = "http", .interceptor = statements_});
  // The time limit ends every query; wait a little past it for the watchdog.
  query->Wait(manager_.options().limits.max_run_time + std::chrono::seconds(1));
  nlohmann::json body = {{"id", query->id()}};
  body["stats"] = {{"state", QueryStateName(query->state())},
                   {"queuedMillis", query->queued_millis()},
                   {"elapsedMillis", query->elapsed_millis()},
                   {"rows", query->result_rows()}};
  if (query->state() != QueryState::kFinished) {
    QueryError error = query->error().value_or(QueryError::Canceled());
    nlohmann::json e = {{"message", error.message}, {"errorName", error.name}, {"errorType", error.type}};
    if (error.line) e["line"] = *error.line;
    if (error.column) e["column"] = *error.column;
    body["error"] = std::move(e);
    *status = StatusFor(error);
    return body;
  }
  *status = 200;
  nlohmann::json columns = nlohmann::json::array();
  nlohmann::json rows = nlohmann::json::array();
  if (!query->outcomes().empty()) {
    const auto& result = query->outcomes().back().result;
    for (size_t i = 0; i < result.column_names.size(); ++i) {
      columns.push_back({{"name", result.column_names[i]}, {"type", result.column_types[i].ToString()}});
    }
    auto found_zone = TimeZone::Find(query->session_after().time_zone);
    const TimeZone& zone = found_zone ? **found_zone : *TimeZone::Utc();
    for (const auto& row : result.rows) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& value : row) out.push_back(TrinoValue(value, zone));
      rows.push_back(std::move(out));
    }
    if (!result.message.empty()) body["message"] = result.message;
  }
  body["columns"] = std::move(columns);
  body["rows"] = std::move(rows);
  return body;
}

HttpResponse HttpApi::PostQuery(HttpRequest& request) {
  if (!CheckJsonDepth(request.body)) return JsonError(400, "JSON nests too deeply");
  nlohmann::json input = nlohmann::json::parse(request.body, nullptr, false);
  if (input.is_discarded() || !input.is_object() || !input.contains("sql") || !input["sql"].is_string()) {
    return JsonError(400, "expected a JSON object {\"sql\": \"...\"}");
  }
  SessionState session;
  if (input.contains("schema") && input["schema"].is_string()) session.schema = input["schema"].get<std::string>();
  // Session properties for this one query, as SET SESSION would give them: the console's
  // dashboards choose {"freshness": "snapshot"} or "live" this way (docs/http-api.md).
  if (input.contains("session")) {
    constexpr size_t kMaxProperties = 16, kMaxNameBytes = 64, kMaxValueBytes = 256;
    const nlohmann::json& properties = input["session"];
    if (!properties.is_object() || properties.size() > kMaxProperties) {
      return JsonError(400, fmt::format("\"session\" must be an object of at most {} properties", kMaxProperties));
    }
    for (const auto& [name, value] : properties.items()) {
      if (!value.is_string() || name.empty() || name.size() > kMaxNameBytes ||
          value.get_ref<const std::string&>().size() > kMaxValueBytes) {
        return JsonError(400, fmt::format("session property '{}' must be a name of 1 to {} bytes with a string value "
                                          "of at most {} bytes",
                                          name.substr(0, kMaxNameBytes), kMaxNameBytes, kMaxValueBytes));
      }
      if (auto valid = CheckSessionProperty(name, value.get<std::string>()); !valid) {
        return JsonError(400, fmt::format("session property '{}': {}", name, valid.error().message()));
      }
      session.properties[name] = value.get<std::string>();
    }
  }
  // Who runs it comes from the credentials the guard checked, never from a header the caller
  // chooses (X-Floe-User was once trusted here).
  if (!users_.empty()) {
    session.user = BasicAuthUserName(request);
    session.principal = auth::PrincipalOf(users_, session.user);
  }
  int status = 200;
  nlohmann::json body = RunQuery(input["sql"].get<std::string>(), session, &status);
  return Json(status, body);
}

HttpResponse HttpApi::GetQueries(HttpRequest& request) {
  nlohmann::json queries = nlohmann::json::array();
  // With users, the history shows a user's own queries; an admin sees everyone's.
  std::string caller = users_.empty() ? "" : BasicAuthUserName(request);
  bool everyone = users_.empty() || auth::RoleOf(users_, caller) == auth::Role::kAdmin;
  for (const auto& query : manager_.Recent()) {
    if (everyone || query->request().session.user == caller) queries.push_back(query->Info());
  }
  return Json(200, {{"running", manager_.running()}, {"queued", manager_.queued()}, {"queries", std::move(queries)}});
}

HttpResponse HttpApi::GetTables(HttpRequest& request) {
  // The console lists what the caller may see (authorizing_catalog.h).
  const auth::Principal caller = users_.empty() ? auth::Principal{} : auth::PrincipalOf(users_, BasicAuthUserName(request));
  AuthorizingCatalog catalog(std::as_const(manager_.catalog()), caller);
  nlohmann::json tables = nlohmann::json::array();
  for (const std::string& catalog_name : catalog.CatalogNames()) {
    auto schemas = catalog.SchemaNames(catalog_name);
    if (!schemas) return JsonError(500, schemas.error().message());
    for (const std::string& schema : *schemas) {
      if (schema == "information_schema") continue;
      auto names = catalog.TableNames(catalog_name, schema);
      if (!names) return JsonError(500, names.error().message());
      for (const std::string& name : *names) {
        tables.push_back({{"catalog", catalog_name}, {"schema", schema}, {"name", name}});
      }
    }
  }
  return Json(200, {{"tables", std::move(tables)}});
}

HttpResponse HttpApi::GetTable(HttpRequest& request) {
  std::string schema(request.Param("schema"));
  std::string name(request.Param("table"));
  const auth::Principal caller = users_.empty() ? auth::Principal{} : auth::PrincipalOf(users_, BasicAuthUserName(request));
  auto table = AuthorizingCatalog(std::as_const(manager_.catalog()), caller).GetTable({"floe", schema, name}, sql::TableVersion{});
  if (!table) {
    ErrorKind kind = table.error().kind();
    return JsonError(kind == ErrorKind::kNotFound ? 404 : kind == ErrorKind::kPermissionDenied ? 403 : 500,
                     table.error().message());
  }
  const sql::CatalogTable& t = **table;
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& column : t.columns) {
    columns.push_back({{"name", column.name},
                       {"type", column.type.ToString()},
                       {"nullable", column.nullable},
                       {"field_id", column.field_id}});
  }
  nlohmann::json body = {
      {"schema", schema},
      {"name", name},
      {"location", t.location},
      {"columns", std::move(columns)},
      {"partition_columns", t.partition_columns},
      {"properties", t.properties},
  };
  if (t.estimated_rows) body["estimated_rows"] = *t.estimated_rows;
  // The metadata tables, through SQL like any client would read them.
  nlohmann::json errors = nlohmann::json::object();
  // The scalar columns of each: the page shows them as a table, and the executor does not read
  // map and row values yet (summary, column_sizes, bounds, the partition tuple).
  const std::pair<const char*, const char*> parts[] = {
      {"snapshots", "committed_at, snapshot_id, parent_id, operation, manifest_list"},
      {"files", "content, file_path, file_format, spec_id, record_count, file_size_in_bytes"},
      {"partitions", "record_count, file_count, total_size"},
  };
  for (const auto& [part, select] : parts) {
    std::string sql = fmt::format("SELECT {} FROM {}.{}", select, QuoteIdentifier(schema),
                                  QuoteIdentifier(name + "$" + part));
    int status = 200;
    SessionState session;
    session.principal = caller;  // Metadata tables are read as the caller reads.
    if (!users_.empty()) session.user = caller.name;
    nlohmann::json result = RunQuery(sql, session, &status);
    if (result.contains("error")) {
      body[part] = nullptr;
      errors[part] = result["error"]["message"];
      continue;
    }
    nlohmann::json objects = nlohmann::json::array();
    for (const auto& row : result["rows"]) {
      nlohmann::json object = nlohmann::json::object();
      for (size_t i = 0; i < row.size() && i < result["columns"].size(); ++i) {
        object[result["columns"][i]["name"].get<std::string>()] = row[i];
      }
      objects.push_back(std::move(object));
    }
    body[part] = std::move(objects);
  }
  if (!errors.empty()) body["errors"] = std::move(errors);
  return Json(200, body);
}

HttpResponse HttpApi::Pipeline(HttpRequest&, bool reconciliation) {
  if (pipeline_ == nullptr) return JsonError(404, "no pipeline");
  return Json(200, reconciliation ? pipeline_->Reconciliation() : pipeline_->Snapshot());
}

HttpResponse HttpApi::Logs(HttpRequest& request) {
  if (pipeline_ == nullptr) return JsonError(404, "no pipeline");
  size_t max = 200;
  if (auto lines = request.Query("lines")) {
    size_t parsed = 0;
    auto [end, error] = std::from_chars(lines->data(), lines->data() + lines->size(), parsed);
    if (error != std::errc() || end != lines->data() + lines->size() || parsed == 0 || parsed > 1000) {
      return JsonError(400, "lines: expected a number from 1 to 1000");
    }
    max = parsed;
  }
  auto logs = pipeline_->Logs(request.Param("box"), max);
  if (!logs) return JsonError(logs.error().kind() == ErrorKind::kNotFound ? 404 : 500, logs.error().message());
  return Json(200, *logs);
}

HttpResponse HttpApi::Playground(HttpRequest& request) {
  if (pipeline_ == nullptr) return JsonError(404, "no pipeline");
  if (!CheckJsonDepth(request.body)) return JsonError(400, "JSON nests too deeply");
  nlohmann::json input = request.body.empty() ? nlohmann::json::object()
                                              : nlohmann::json::parse(request.body, nullptr, false);
  if (input.is_discarded() || !input.is_object()) return JsonError(400, "expected a JSON object");
  std::string_view action = request.Param("action");
  auto number = [&](const char* key) -> std::optional<double> {
    if (!input.contains(key) || !input[key].is_number()) return std::nullopt;
    return input[key].get<double>();
  };
  auto text = [&](const char* key) -> std::optional<std::string> {
    if (!input.contains(key) || !input[key].is_string()) return std::nullopt;
    return input[key].get<std::string>();
  };
  Status status;
  if (action == "traffic") {
    auto rate = number("events_per_second");
    if (!rate || *rate < 0) return JsonError(400, "expected {\"events_per_second\": n >= 0}");
    status = pipeline_->SetTraffic(*rate);
  } else if (action == "burst") {
    auto events = number("events");
    if (!events || *events < 1) return JsonError(400, "expected {\"events\": n >= 1}");
    status = pipeline_->Burst(static_cast<int64_t>(*events));
  } else if (action == "take-down" || action == "bring-up") {
    auto role = text("role");
    if (!role) return JsonError(400, "expected {\"role\": \"name\"}");
    status = action == "take-down" ? pipeline_->TakeDown(*role) : pipeline_->BringUp(*role);
  } else if (action == "storage-faults") {
    status = pipeline_->SetStorageFaults(input);
  } else if (action == "stream") {
    status = pipeline_->RewireStream(input);
  } else if (action == "catalog-backend") {
    auto backend = text("backend");
    if (!backend) return JsonError(400, "expected {\"backend\": \"sqlite\" or \"postgresql://...\"}");
    auto switched = pipeline_->SwitchCatalogBackend(*backend);
    if (switched) return Json(200, {{"ok", true}, {"switch", *switched}});
    status = std::unexpected(switched.error());
  } else if (action == "freshness-probe") {
    auto probe = pipeline_->ProbeFreshness();
    if (probe) return Json(200, {{"ok", true}, {"event_id", (*probe)["event_id"]}});
    status = std::unexpected(probe.error());
  } else {
    return JsonError(404, fmt::format("no playground action '{}'", action));
  }
  if (!status) {
    ErrorKind kind = status.error().kind();
    int code = kind == ErrorKind::kNotFound          ? 404
               : kind == ErrorKind::kInvalidArgument ? 400
               : kind == ErrorKind::kConflict        ? 409  // A freshness probe still running.
               : kind == ErrorKind::kNotImplemented  ? 501  // Not with --processes.
               : kind == ErrorKind::kUnavailable     ? 503  // The role it needs is down.
                                                     : 500;
    HttpResponse response = JsonError(code, status.error().message());
    if (status.error().code() != ErrorCode::kUnspecified) {
      // The domain reason, for a client that must tell errors of one kind apart (a store that
      // does not answer from one that holds another history).
      response = Json(
          code,
          {{"error",
            {{"message", status.error().message()}, {"code", std::string(ErrorCodeName(status.error().code()))}}}});
    }
    return response;
  }
  return Json(200, {{"ok", true}});
}

}  // namespace floe::serve
