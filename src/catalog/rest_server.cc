#include "catalog/rest_server.h"

#include <openssl/evp.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "auth/authorize.h"
#include "base/json_depth.h"
#include "base/logging.h"
#include "catalog/rest_error.h"
#include "iceberg/schema_json.h"
#include "iceberg/view_metadata.h"

namespace floe::catalog {
namespace {

using net::HttpRequest;
using net::HttpResponse;
using Json = nlohmann::json;

HttpResponse ErrorResponse(const Error& error, bool committing = false) {
  RestError rest = ToRestError(error, committing);
  return HttpResponse::Json(rest.status, RestErrorBody(rest, error.message()));
}

HttpResponse Ok(const Json& body) { return HttpResponse::Json(200, body.dump()); }

HttpResponse NoContent() {
  HttpResponse response;
  response.status = 204;
  return response;
}

Result<Json> ParseBody(const HttpRequest& request) {
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(request.body));
  Json body = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return InvalidArgument("malformed JSON request body");
  }
  if (!body.is_object()) {
    return InvalidArgument("the request body must be a JSON object");
  }
  return body;
}

Result<Namespace> NamespaceParam(const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceFromRestSegment(request.Param("namespace")));
  if (ns.empty()) {
    return InvalidArgument("empty namespace in the path");
  }
  return ns;
}

Result<TableIdentifier> TableParam(const HttpRequest& request) {
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, NamespaceParam(request));
  id.name = std::string(request.Param("table"));
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  return id;
}

Result<Namespace> NamespaceFromJson(const Json& json, std::string_view what) {
  if (!json.is_array()) {
    return InvalidArgument("'{}' must be an array of strings", what);
  }
  Namespace ns;
  for (const Json& level : json) {
    if (!level.is_string()) {
      return InvalidArgument("'{}' must be an array of strings", what);
    }
    ns.push_back(level.get<std::string>());
  }
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  return ns;
}

Result<TableIdentifier> IdentifierFromJson(const Json& json, std::string_view what) {
  if (!json.is_object() || !json.contains("namespace") || !json.contains("name") || !json["name"].is_string()) {
    return InvalidArgument("'{}' must be an object with 'namespace' and 'name'", what);
  }
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, NamespaceFromJson(json["namespace"], what));
  id.name = json["name"].get<std::string>();
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  return id;
}

Json IdentifierToJson(const TableIdentifier& id) { return {{"namespace", id.ns}, {"name", id.name}}; }

Result<Properties> PropertiesFromJson(const Json& json, std::string_view what) {
  Properties properties;
  if (json.is_null()) {
    return properties;
  }
  if (!json.is_object()) {
    return InvalidArgument("'{}' must be an object of strings", what);
  }
  for (const auto& [key, value] : json.items()) {
    if (!value.is_string()) {
      return InvalidArgument("'{}': property '{}' must be a string", what, key);
    }
    properties[key] = value.get<std::string>();
  }
  return properties;
}

Result<TableIdentifier> ViewParam(const HttpRequest& request) {
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, NamespaceParam(request));
  id.name = std::string(request.Param("view"));
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  return id;
}

Json LoadViewResult(const LoadedView& view) {
  Json body = {{"metadata-location", view.metadata_location}, {"metadata", view.metadata}, {"config", Json::object()}};
  for (const auto& [key, value] : view.config) {
    body["config"][key] = value;
  }
  return body;
}

// A CreateViewRequest: {name, location?, schema, view-version, properties}.
Result<ViewCreation> ViewCreationFromJson(const Json& body) {
  ViewCreation creation;
  if (!body.contains("schema") || !body.contains("view-version")) {
    return InvalidArgument("a create-view request needs 'schema' and 'view-version'");
  }
  if (auto location = body.find("location"); location != body.end() && !location->is_null()) {
    if (!location->is_string()) return InvalidArgument("'location' must be a string");
    creation.location = location->get<std::string>();
  }
  FLOE_ASSIGN_OR_RETURN_CTX(creation.schema, iceberg::SchemaFromJsonValue(body["schema"]), "schema");
  FLOE_ASSIGN_OR_RETURN(creation.version, iceberg::ViewVersionFromJsonValue(body["view-version"]));
  FLOE_ASSIGN_OR_RETURN(creation.properties, PropertiesFromJson(body.value("properties", Json()), "properties"));
  return creation;
}

// A CommitViewRequest: {identifier?, requirements?, updates}.
Result<ViewCommit> ViewCommitFromJson(const Json& body, const TableIdentifier& id) {
  ViewCommit commit;
  commit.id = id;
  if (auto requirements = body.find("requirements"); requirements != body.end() && !requirements->is_null()) {
    if (!requirements->is_array()) return InvalidArgument("'requirements' must be an array");
    for (const Json& element : *requirements) {
      FLOE_ASSIGN_OR_RETURN(iceberg::AssertViewUuid requirement, iceberg::ViewRequirementFromJson(element));
      commit.requirements.push_back(std::move(requirement));
    }
  }
  auto updates = body.find("updates");
  if (updates == body.end()) return InvalidArgument("a view commit needs an 'updates' array");
  FLOE_ASSIGN_OR_RETURN(commit.updates, iceberg::ViewUpdatesFromJson(*updates));
  return commit;
}

Json LoadResult(const LoadedTable& table) {
  Json body = {{"metadata", table.metadata}, {"config", Json::object()}};
  if (!table.metadata_location.empty()) {
    body["metadata-location"] = table.metadata_location;
  }
  for (const auto& [key, value] : table.config) {
    body["config"][key] = value;
  }
  return body;
}

// A commit body: {"identifier"?, "requirements": [...], "updates": [...]}.
Result<TableCommit> CommitFromJson(const Json& json, std::optional<TableIdentifier> path_id) {
  if (!json.is_object()) {
    return InvalidArgument("a table commit must be an object");
  }
  TableCommit commit;
  if (path_id) {
    commit.id = *path_id;
  } else {
    auto identifier = json.find("identifier");
    if (identifier == json.end()) {
      return InvalidArgument("each table change needs an 'identifier'");
    }
    FLOE_ASSIGN_OR_RETURN(commit.id, IdentifierFromJson(*identifier, "identifier"));
  }
  auto requirements = json.find("requirements");
  auto updates = json.find("updates");
  if (requirements == json.end() || !requirements->is_array()) {
    return InvalidArgument("a commit needs a 'requirements' array");
  }
  if (updates == json.end() || !updates->is_array()) {
    return InvalidArgument("a commit needs an 'updates' array");
  }
  for (const Json& element : *requirements) {
    FLOE_ASSIGN_OR_RETURN(iceberg::TableRequirementPtr requirement, iceberg::TableRequirement::FromJson(element));
    commit.requirements.push_back(std::move(requirement));
  }
  for (const Json& element : *updates) {
    FLOE_ASSIGN_OR_RETURN(iceberg::TableUpdatePtr update, iceberg::TableUpdate::FromJson(element));
    commit.updates.push_back(std::move(update));
  }
  return commit;
}

// Offset-based pages: the token is the index of the next element.
template <typename T>
Result<std::pair<std::vector<T>, std::optional<std::string>>> Page(std::vector<T> all, const HttpRequest& request) {
  size_t start = 0;
  if (auto token = request.Query("pageToken"); token && !token->empty()) {
    try {
      start = std::stoul(*token);
    } catch (const std::exception&) {
      return InvalidArgument("bad pageToken '{}'", *token);
    }
  }
  size_t size = all.size();
  if (auto page_size = request.Query("pageSize"); page_size && !page_size->empty()) {
    try {
      size = std::stoul(*page_size);
    } catch (const std::exception&) {
      return InvalidArgument("bad pageSize '{}'", *page_size);
    }
    if (size == 0) {
      return InvalidArgument("pageSize must be positive");
    }
  }
  start = std::min(start, all.size());
  size_t end = std::min(all.size(), start + size);
  std::optional<std::string> next;
  if (end < all.size()) {
    next = std::to_string(end);
  }
  return std::pair{std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(start),
                                  all.begin() + static_cast<std::ptrdiff_t>(end)),
                   next};
}

// What a route needs (auth/authorize.h; issue #27): the operation, and the namespace it acts
// on when the path names one. GETs (and scan metrics reports) read; a table commit writes, or
// alters (CommitOperation narrows it on the body); creating, registering, dropping, purging and
// setting properties create, delete or alter. Decided on the header, before the body is read;
// routes whose namespace is in the body (create namespace, rename, transactions) are judged
// here on whether the caller may do the operation anywhere, and again on the body.
struct RouteNeed {
  auth::Operation operation = auth::Operation::kAlter;
  std::optional<std::string> ns;  // Levels joined by '.', as grants name namespaces.
};

Result<RouteNeed> RouteNeedOf(std::string_view method, std::string_view path) {
  std::vector<std::string_view> segments;
  for (size_t at = 0; at < path.size();) {
    size_t slash = path.find('/', at);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > at) segments.push_back(path.substr(at, slash - at));
    at = slash + 1;
  }
  RouteNeed need;
  size_t i = 0;
  while (i < segments.size() && segments[i] != "namespaces") ++i;
  // After "namespaces": the namespace, then "tables" and a table, "properties" or "register".
  const bool under_namespaces = i < segments.size();
  const size_t rest = under_namespaces ? segments.size() - i - 1 : 0;
  if (rest >= 1) {
    FLOE_ASSIGN_OR_RETURN(std::string decoded, net::PercentDecode(segments[i + 1]));
    FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceFromRestSegment(decoded));
    need.ns = NamespaceToString(ns);
  }
  if (method == "GET" || method == "HEAD") {
    need.operation = auth::Operation::kRead;
  } else if (method == "DELETE") {
    need.operation = auth::Operation::kDelete;  // A namespace, or a table (purged or not).
  } else if (method != "POST") {
    need.operation = auth::Operation::kAlter;
  } else if (path.ends_with("/transactions/commit")) {
    need.operation = auth::Operation::kWrite;
  } else if (path.ends_with("/tables/rename") || path.ends_with("/views/rename")) {
    need.operation = auth::Operation::kAlter;
  } else if (under_namespaces && rest == 0) {
    need.operation = auth::Operation::kCreate;  // POST /namespaces: the new namespace is in the body.
  } else if (rest == 2 &&
             (segments[i + 2] == "tables" || segments[i + 2] == "views" || segments[i + 2] == "register")) {
    need.operation = auth::Operation::kCreate;
  } else if (rest == 3 && segments[i + 2] == "tables") {
    need.operation = auth::Operation::kWrite;  // A table commit.
  } else if (rest == 3 && segments[i + 2] == "views") {
    need.operation = auth::Operation::kAlter;  // A view commit changes its definition, as a schema change would.
  } else if (rest == 4 && segments[i + 2] == "tables" && segments[i + 4] == "metrics") {
    need.operation = auth::Operation::kRead;
  } else {
    need.operation = auth::Operation::kAlter;  // Namespace properties, and anything unforeseen.
  }
  return need;
}

// A commit that only adds snapshots and moves refs to them (append, overwrite, delete: what a
// writer's INSERT/UPDATE/DELETE/MERGE or Produce-fed stream job makes) or records statistics of
// the data (ANALYZE, compaction) writes data; any other update (schema, partition spec, sort
// order, location, properties, removing snapshots or refs, ...) alters the table.
auth::Operation CommitOperation(const TableCommit& commit) {
  for (const iceberg::TableUpdatePtr& update : commit.updates) {
    std::string_view action = update->action();
    if (action != "add-snapshot" && action != "set-snapshot-ref" && action != "set-statistics" &&
        action != "remove-statistics") {
      return auth::Operation::kAlter;
    }
  }
  return auth::Operation::kWrite;
}

// Who the bearer token of `request` belongs to: the unrestricted principal when the catalog has
// no users (nothing is restricted, as on every listener).
auth::Principal CallerOf(OAuthTokens* tokens, const HttpRequest& request) {
  if (tokens == nullptr) return auth::Principal{};
  auto user = tokens->UserOf(request.headers.Get("Authorization").value_or(""));
  return auth::PrincipalOf(tokens->users(), user.value_or(""));
}

// kPermissionDenied (403 ForbiddenException) unless `caller` may do `operation` on namespace
// `ns`, or, without a namespace, on some namespace.
Status CheckNamespace(const auth::Principal& caller, auth::Operation operation, const std::optional<std::string>& ns) {
  bool allowed = ns ? auth::Authorize(caller, {auth::ResourceKind::kNamespace, *ns}, operation)
                    : auth::AllowedSomewhere(caller, auth::ResourceKind::kNamespace, operation);
  if (allowed) return OkStatus();
  if (ns) {
    return PermissionDenied("user '{}' (role {}) may not {} in namespace '{}' (the auth file's role and grants)",
                            caller.name, auth::RoleName(caller.role), auth::OperationName(operation), *ns);
  }
  return PermissionDenied("user '{}' (role {}) may not {} in any namespace (the auth file's role and grants)",
                          caller.name, auth::RoleName(caller.role), auth::OperationName(operation));
}

Status CheckNamespace(const auth::Principal& caller, auth::Operation operation, const Namespace& ns) {
  return CheckNamespace(caller, operation, std::optional<std::string>(NamespaceToString(ns)));
}

// Wraps a handler body that returns Result<HttpResponse>: errors become the spec's error body.
net::HttpHandler Handle(std::function<Result<HttpResponse>(HttpRequest&)> body, bool committing = false) {
  return [body = std::move(body), committing](HttpRequest& request) {
    Result<HttpResponse> response = body(request);
    if (!response) {
      return ErrorResponse(response.error(), committing);
    }
    return std::move(*response);
  };
}

}  // namespace

Result<net::HttpRouter> MakeRestCatalogRouter(Catalog& catalog, const RestServerOptions& options) {
  net::HttpRouter router;
  Catalog* c = &catalog;

  Json endpoints = Json::array();
  MetricsRegistry* metrics = options.metrics;
  OAuthTokens* tokens = options.tokens != nullptr && options.tokens->enabled() ? options.tokens : nullptr;
  // With users configured, everything but the token endpoint and /metrics needs a bearer
  // token. It is the router's guard, so the server checks it before reading a request's body.
  if (tokens != nullptr) {
    router.SetGuard([tokens](const HttpRequest& request) -> std::optional<HttpResponse> {
      if (request.path == "/v1/oauth/tokens" || request.path == "/metrics") return std::nullopt;
      auto user = tokens->UserOf(request.headers.Get("Authorization").value_or(""));
      if (!user) {
        HttpResponse response = ErrorResponse(Error(ErrorKind::kUnauthenticated, "missing, unknown or expired bearer token"));
        response.headers.Set("WWW-Authenticate", "Bearer");
        return response;
      }
      auto need = RouteNeedOf(request.method, request.path);
      if (!need) return ErrorResponse(need.error());  // 400: a namespace segment that does not decode.
      if (auto allowed = CheckNamespace(auth::PrincipalOf(tokens->users(), *user), need->operation, need->ns);
          !allowed) {
        return ErrorResponse(allowed.error());  // 403 ForbiddenException
      }
      return std::nullopt;
    });
  }
  auto add = [&](std::string_view method, const std::string& path, net::HttpHandler handler) -> Status {
    endpoints.push_back(fmt::format("{} /v1/{{prefix}}{}", method, path));
    if (metrics != nullptr) {
      std::string route = fmt::format("{} /v1/{{prefix}}{}", method, path);
      Histogram* latency = &metrics->GetHistogram("floe_catalog_request_seconds", "REST catalog request latency",
                                                  {{"route", route}});
      handler = [metrics, route, latency, inner = std::move(handler)](HttpRequest& request) {
        auto start = std::chrono::steady_clock::now();
        HttpResponse response = inner(request);
        latency->Observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        metrics->GetCounter("floe_catalog_requests_total", "REST catalog requests by route and status",
                            {{"route", route}, {"status", std::to_string(response.status)}})
            .Increment();
        return response;
      };
    }
    FLOE_RETURN_IF_ERROR(router.Add(method, "/v1" + path, handler));
    return router.Add(method, "/v1/{prefix}" + path, std::move(handler));
  };

  FLOE_RETURN_IF_ERROR(add("GET", "/namespaces", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
    Namespace parent;
    if (auto text = request.Query("parent"); text && !text->empty()) {
      FLOE_ASSIGN_OR_RETURN(parent, NamespaceFromRestSegment(*text));
    }
    FLOE_ASSIGN_OR_RETURN(auto all, c->ListNamespaces(parent));
    FLOE_ASSIGN_OR_RETURN(auto page, Page(std::move(all), request));
    Json body = {{"namespaces", page.first}};
    body["next-page-token"] = page.second ? Json(*page.second) : Json(nullptr);
    return Ok(body);
  })));

  FLOE_RETURN_IF_ERROR(add("POST", "/namespaces", Handle([c, tokens](HttpRequest& request) -> Result<HttpResponse> {
    FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
    if (!body.contains("namespace")) {
      return InvalidArgument("a create-namespace request needs 'namespace'");
    }
    FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceFromJson(body["namespace"], "namespace"));
    if (ns.empty()) {
      return InvalidArgument("'namespace' must have at least one level");
    }
    FLOE_ASSIGN_OR_RETURN(Properties properties, PropertiesFromJson(body.value("properties", Json()), "properties"));
    FLOE_RETURN_IF_ERROR(CheckNamespace(CallerOf(tokens, request), auth::Operation::kCreate, ns));
    FLOE_RETURN_IF_ERROR(c->CreateNamespace(ns, properties));
    return Ok({{"namespace", ns}, {"properties", properties}});
  })));

  FLOE_RETURN_IF_ERROR(add("GET", "/namespaces/{namespace}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
    FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
    FLOE_ASSIGN_OR_RETURN(Properties properties, c->LoadNamespaceProperties(ns));
    return Ok({{"namespace", ns}, {"properties", properties}});
  })));

  FLOE_RETURN_IF_ERROR(add("HEAD", "/namespaces/{namespace}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
    FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
    FLOE_ASSIGN_OR_RETURN(bool exists, c->NamespaceExists(ns));
    if (!exists) {
      HttpResponse missing;
      missing.status = 404;
      return missing;
    }
    return NoContent();
  })));

  FLOE_RETURN_IF_ERROR(
      add("DELETE", "/namespaces/{namespace}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
        FLOE_RETURN_IF_ERROR(c->DropNamespace(ns));
        return NoContent();
      })));

  FLOE_RETURN_IF_ERROR(
      add("POST", "/namespaces/{namespace}/properties", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
        FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
        std::vector<std::string> removals;
        if (auto it = body.find("removals"); it != body.end() && !it->is_null()) {
          if (!it->is_array()) {
            return InvalidArgument("'removals' must be an array of strings");
          }
          for (const Json& key : *it) {
            if (!key.is_string()) {
              return InvalidArgument("'removals' must be an array of strings");
            }
            removals.push_back(key.get<std::string>());
          }
        }
        FLOE_ASSIGN_OR_RETURN(Properties updates, PropertiesFromJson(body.value("updates", Json()), "updates"));
        FLOE_ASSIGN_OR_RETURN(PropertiesUpdate change, c->UpdateNamespaceProperties(ns, removals, updates));
        return Ok({{"updated", change.updated}, {"removed", change.removed}, {"missing", change.missing}});
      })));

  FLOE_RETURN_IF_ERROR(
      add("GET", "/namespaces/{namespace}/tables", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
        FLOE_ASSIGN_OR_RETURN(auto all, c->ListTables(ns));
        FLOE_ASSIGN_OR_RETURN(auto page, Page(std::move(all), request));
        Json identifiers = Json::array();
        for (const TableIdentifier& id : page.first) {
          identifiers.push_back(IdentifierToJson(id));
        }
        Json body = {{"identifiers", identifiers}};
        body["next-page-token"] = page.second ? Json(*page.second) : Json(nullptr);
        return Ok(body);
      })));

  FLOE_RETURN_IF_ERROR(
      add("POST", "/namespaces/{namespace}/tables", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
        FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
        if (!body.contains("name") || !body["name"].is_string()) {
          return InvalidArgument("a create-table request needs a string 'name'");
        }
        TableIdentifier id{ns, body["name"].get<std::string>()};
        FLOE_ASSIGN_OR_RETURN(TableCreation creation, TableCreation::FromRequest(body));
        bool stage = body.value("stage-create", false);
        FLOE_ASSIGN_OR_RETURN(LoadedTable table, c->CreateTable(id, creation, stage));
        return Ok(LoadResult(table));
      })));

  FLOE_RETURN_IF_ERROR(
      add("GET", "/namespaces/{namespace}/tables/{table}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableParam(request));
        FLOE_ASSIGN_OR_RETURN(LoadedTable table, c->LoadTable(id));
        return Ok(LoadResult(table));
      })));

  FLOE_RETURN_IF_ERROR(
      add("HEAD", "/namespaces/{namespace}/tables/{table}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableParam(request));
        FLOE_ASSIGN_OR_RETURN(bool exists, c->TableExists(id));
        if (!exists) {
          HttpResponse missing;
          missing.status = 404;
          return missing;
        }
        return NoContent();
      })));

  FLOE_RETURN_IF_ERROR(add("POST", "/namespaces/{namespace}/tables/{table}",
                           Handle(
                               [c, tokens](HttpRequest& request) -> Result<HttpResponse> {
                                 FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableParam(request));
                                 FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
                                 FLOE_ASSIGN_OR_RETURN(TableCommit commit, CommitFromJson(body, id));
                                 if (body.contains("identifier")) {
                                   FLOE_ASSIGN_OR_RETURN(TableIdentifier named,
                                                         IdentifierFromJson(body["identifier"], "identifier"));
                                   if (!(named == id)) {
                                     return InvalidArgument("the body's identifier {} is not the path's {}",
                                                            IdentifierToString(named), IdentifierToString(id));
                                   }
                                 }
                                 FLOE_RETURN_IF_ERROR(CheckNamespace(CallerOf(tokens, request), CommitOperation(commit), id.ns));
                                 FLOE_ASSIGN_OR_RETURN(LoadedTable table, c->CommitTable(commit));
                                 return Ok({{"metadata-location", table.metadata_location},
                                            {"metadata", table.metadata}});
                               },
                               /*committing=*/true)));

  FLOE_RETURN_IF_ERROR(add("DELETE", "/namespaces/{namespace}/tables/{table}",
                           Handle([c](HttpRequest& request) -> Result<HttpResponse> {
                             FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableParam(request));
                             std::string purge = request.Query("purgeRequested").value_or("false");
                             FLOE_RETURN_IF_ERROR(c->DropTable(id, purge == "true"));
                             return NoContent();
                           })));

  FLOE_RETURN_IF_ERROR(add("POST", "/namespaces/{namespace}/tables/{table}/metrics",
                           Handle([](HttpRequest& request) -> Result<HttpResponse> {
                             FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
                             (void)body;
                             return NoContent();
                           })));

  FLOE_RETURN_IF_ERROR(
      add("POST", "/namespaces/{namespace}/register", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
        FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
        FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
        if (!body.contains("name") || !body["name"].is_string() || !body.contains("metadata-location") ||
            !body["metadata-location"].is_string()) {
          return InvalidArgument("a register request needs string 'name' and 'metadata-location'");
        }
        TableIdentifier id{ns, body["name"].get<std::string>()};
        FLOE_ASSIGN_OR_RETURN(LoadedTable table, c->RegisterTable(id, body["metadata-location"].get<std::string>(),
                                                                  body.value("overwrite", false)));
        return Ok(LoadResult(table));
      })));

  FLOE_RETURN_IF_ERROR(add("POST", "/tables/rename", Handle([c, tokens](HttpRequest& request) -> Result<HttpResponse> {
    FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
    if (!body.contains("source") || !body.contains("destination")) {
      return InvalidArgument("a rename request needs 'source' and 'destination'");
    }
    FLOE_ASSIGN_OR_RETURN(TableIdentifier from, IdentifierFromJson(body["source"], "source"));
    FLOE_ASSIGN_OR_RETURN(TableIdentifier to, IdentifierFromJson(body["destination"], "destination"));
    // A rename alters the table where it is and creates it where it goes.
    auth::Principal caller = CallerOf(tokens, request);
    FLOE_RETURN_IF_ERROR(CheckNamespace(caller, auth::Operation::kAlter, from.ns));
    FLOE_RETURN_IF_ERROR(CheckNamespace(caller, auth::Operation::kCreate, to.ns));
    FLOE_RETURN_IF_ERROR(c->RenameTable(from, to));
    return NoContent();
  })));

  FLOE_RETURN_IF_ERROR(
      add("GET", "/namespaces/{namespace}/views", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
            FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
            FLOE_ASSIGN_OR_RETURN(auto all, c->ListViews(ns));
            FLOE_ASSIGN_OR_RETURN(auto page, Page(std::move(all), request));
            Json identifiers = Json::array();
            for (const TableIdentifier& id : page.first) {
              identifiers.push_back(IdentifierToJson(id));
            }
            Json body = {{"identifiers", identifiers}};
            body["next-page-token"] = page.second ? Json(*page.second) : Json(nullptr);
            return Ok(body);
          })));

  FLOE_RETURN_IF_ERROR(
      add("POST", "/namespaces/{namespace}/views", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
            FLOE_ASSIGN_OR_RETURN(Namespace ns, NamespaceParam(request));
            FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
            if (!body.contains("name") || !body["name"].is_string()) {
              return InvalidArgument("a create-view request needs a string 'name'");
            }
            TableIdentifier id{ns, body["name"].get<std::string>()};
            FLOE_ASSIGN_OR_RETURN(ViewCreation creation, ViewCreationFromJson(body));
            FLOE_ASSIGN_OR_RETURN(LoadedView view, c->CreateView(id, creation));
            return Ok(LoadViewResult(view));
          })));

  FLOE_RETURN_IF_ERROR(
      add("GET", "/namespaces/{namespace}/views/{view}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
            FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ViewParam(request));
            FLOE_ASSIGN_OR_RETURN(LoadedView view, c->LoadView(id));
            return Ok(LoadViewResult(view));
          })));

  FLOE_RETURN_IF_ERROR(
      add("HEAD", "/namespaces/{namespace}/views/{view}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
            FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ViewParam(request));
            FLOE_ASSIGN_OR_RETURN(bool exists, c->ViewExists(id));
            if (!exists) {
              HttpResponse missing;
              missing.status = 404;
              return missing;
            }
            return NoContent();
          })));

  FLOE_RETURN_IF_ERROR(add("POST", "/namespaces/{namespace}/views/{view}",
                           Handle(
                               [c](HttpRequest& request) -> Result<HttpResponse> {
                                 FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ViewParam(request));
                                 FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
                                 if (body.contains("identifier") && !body["identifier"].is_null()) {
                                   FLOE_ASSIGN_OR_RETURN(TableIdentifier named,
                                                         IdentifierFromJson(body["identifier"], "identifier"));
                                   if (!(named == id)) {
                                     return InvalidArgument("the body's identifier {} is not the path's {}",
                                                            IdentifierToString(named), IdentifierToString(id));
                                   }
                                 }
                                 FLOE_ASSIGN_OR_RETURN(ViewCommit commit, ViewCommitFromJson(body, id));
                                 FLOE_ASSIGN_OR_RETURN(LoadedView view, c->CommitView(commit));
                                 return Ok(LoadViewResult(view));
                               },
                               /*committing=*/true)));

  FLOE_RETURN_IF_ERROR(
      add("DELETE", "/namespaces/{namespace}/views/{view}", Handle([c](HttpRequest& request) -> Result<HttpResponse> {
            FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ViewParam(request));
            FLOE_RETURN_IF_ERROR(c->DropView(id));
            return NoContent();
          })));

  FLOE_RETURN_IF_ERROR(add("POST", "/views/rename", Handle([c, tokens](HttpRequest& request) -> Result<HttpResponse> {
                             FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
                             if (!body.contains("source") || !body.contains("destination")) {
                               return InvalidArgument("a rename request needs 'source' and 'destination'");
                             }
                             FLOE_ASSIGN_OR_RETURN(TableIdentifier from, IdentifierFromJson(body["source"], "source"));
                             FLOE_ASSIGN_OR_RETURN(TableIdentifier to,
                                                   IdentifierFromJson(body["destination"], "destination"));
                             auth::Principal caller = CallerOf(tokens, request);
                             FLOE_RETURN_IF_ERROR(CheckNamespace(caller, auth::Operation::kAlter, from.ns));
                             FLOE_RETURN_IF_ERROR(CheckNamespace(caller, auth::Operation::kCreate, to.ns));
                             FLOE_RETURN_IF_ERROR(c->RenameView(from, to));
                             return NoContent();
                           })));

  FLOE_RETURN_IF_ERROR(add("POST", "/transactions/commit",
                           Handle(
                               [c, tokens](HttpRequest& request) -> Result<HttpResponse> {
                                 FLOE_ASSIGN_OR_RETURN(Json body, ParseBody(request));
                                 auto changes = body.find("table-changes");
                                 if (changes == body.end() || !changes->is_array() || changes->empty()) {
                                   return InvalidArgument("a transaction needs a non-empty 'table-changes' array");
                                 }
                                 std::vector<TableCommit> commits;
                                 for (const Json& change : *changes) {
                                   FLOE_ASSIGN_OR_RETURN(TableCommit commit, CommitFromJson(change, std::nullopt));
                                   commits.push_back(std::move(commit));
                                 }
                                 auth::Principal caller = CallerOf(tokens, request);
                                 for (const TableCommit& commit : commits) {
                                   FLOE_RETURN_IF_ERROR(
                                       CheckNamespace(caller, CommitOperation(commit), commit.id.ns));
                                 }
                                 FLOE_RETURN_IF_ERROR(c->CommitTransaction(commits));
                                 return NoContent();
                               },
                               /*committing=*/true)));

  Json config = {{"defaults", Json::object()}, {"overrides", Json::object()}, {"endpoints", endpoints}};
  if (!options.warehouse.empty()) {
    config["defaults"]["warehouse"] = options.warehouse;
  }
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/v1/config", [config](HttpRequest&) { return Ok(config); }));
  if (tokens != nullptr) {
    // The spec's (deprecated, still widely used) client-credentials flow: a form body.
    FLOE_RETURN_IF_ERROR(router.Add("POST", "/v1/oauth/tokens", [tokens](HttpRequest& request) {
      auto oauth_error = [](int status, const char* error, const char* description) {
        return HttpResponse::Json(status, Json{{"error", error}, {"error_description", description}}.dump());
      };
      auto form = net::ParseQuery(request.body);
      if (!form) {
        return oauth_error(400, "invalid_request", "the body must be application/x-www-form-urlencoded");
      }
      std::map<std::string, std::string> fields(form->begin(), form->end());
      if (fields["grant_type"] != "client_credentials") {
        return oauth_error(400, "unsupported_grant_type", "only client_credentials is supported");
      }
      std::string client_id = fields["client_id"];
      std::string secret = fields["client_secret"];
      if (client_id.empty()) {
        // RFC 6749 also allows the credentials in a Basic Authorization header.
        std::string_view basic = request.headers.Get("Authorization").value_or("");
        if (basic.starts_with("Basic ")) {
          std::string decoded;
          decoded.resize(basic.size());
          int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(decoded.data()),
                                       reinterpret_cast<const unsigned char*>(basic.data() + 6),
                                       static_cast<int>(basic.size() - 6));
          decoded.resize(length > 0 ? static_cast<size_t>(length) : 0);
          decoded = decoded.substr(0, decoded.find('\0'));
          size_t colon = decoded.find(':');
          if (colon != std::string::npos) {
            client_id = decoded.substr(0, colon);
            secret = decoded.substr(colon + 1);
          }
        }
      }
      auto token = tokens->Issue(client_id, secret);
      if (!token) {
        Logger("catalog")->warn("token request of client '{}' from {} refused: {}", client_id, request.remote_address,
                                token.error().message());
        HttpResponse refused = token.error().kind() == ErrorKind::kUnauthenticated
                                   ? oauth_error(401, "invalid_client", "unknown client or wrong secret")
                                   : oauth_error(500, "server_error", "no token could be made");
        // Answered after the failed-login delay, without holding a thread (net::HttpResponse).
        refused.delay = auth::kFailedLoginDelay;
        return refused;
      }
      return Ok({{"access_token", *token},
                 {"token_type", "bearer"},
                 {"expires_in", tokens->lifetime().count()},
                 {"issued_token_type", "urn:ietf:params:oauth:token-type:access_token"}});
    }));
  }
  if (metrics != nullptr) {
    FLOE_RETURN_IF_ERROR(router.Add("GET", "/metrics", [metrics](HttpRequest&) {
      HttpResponse response = HttpResponse::Text(200, metrics->RenderPrometheusText());
      response.headers.Set("Content-Type", "text/plain; version=0.0.4");
      return response;
    }));
  }
  return router;
}

Status RestCatalogServer::Start() {
  FLOE_ASSIGN_OR_RETURN(net::HttpRouter router, MakeRestCatalogRouter(catalog_, options_));
  net::HttpServerOptions http;
  http.tls = options_.tls;
  http.host = options_.host;
  http.port = options_.port;
  http.threads = options_.threads;
  http.max_connections_per_address = options_.max_connections_per_address;
  http.server_name = "floe-catalog";
  server_ = std::make_unique<net::HttpServer>(http, std::move(router));
  return server_->Start();
}

void RestCatalogServer::Stop() {
  if (server_) {
    server_->Stop();
  }
}

}  // namespace floe::catalog
