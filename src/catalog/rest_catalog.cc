#include "catalog/rest_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "base/private_file.h"
#include "catalog/rest_error.h"
#include "iceberg/schema_json.h"
#include "iceberg/view_metadata.h"

namespace floe::catalog {
namespace {

using Json = nlohmann::json;

Result<Json> ParseJson(const std::string& body, std::string_view what) {
  // A catalog is a remote peer: its answers are outside input too.
  FLOE_RETURN_IF_ERROR_CTX(CheckJsonDepth(body), what);
  Json json = Json::parse(body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return Corruption("{}: the catalog answered with something other than a JSON object", what);
  }
  return json;
}

Json CommitToJson(const TableCommit& commit, bool with_identifier) {
  Json requirements = Json::array();
  for (const iceberg::TableRequirementPtr& requirement : commit.requirements) {
    requirements.push_back(requirement->ToJson());
  }
  Json updates = Json::array();
  for (const iceberg::TableUpdatePtr& update : commit.updates) {
    updates.push_back(update->ToJson());
  }
  Json body = {{"requirements", requirements}, {"updates", updates}};
  if (with_identifier) {
    body["identifier"] = {{"namespace", commit.id.ns}, {"name", commit.id.name}};
  }
  return body;
}

}  // namespace

Result<std::unique_ptr<RestCatalog>> RestCatalog::Open(std::string uri, std::string warehouse, std::string token,
                                                       std::string credential) {
  std::vector<std::string> bases;
  for (size_t start = 0; start <= uri.size();) {
    size_t comma = std::min(uri.find(',', start), uri.size());
    std::string base = uri.substr(start, comma - start);
    while (base.ends_with('/')) base.pop_back();
    if (base.ends_with("/v1")) base.resize(base.size() - 3);
    if (!base.starts_with("http://") && !base.starts_with("https://")) {
      return InvalidArgument("catalog URI '{}': each server is an http:// or https:// URL", uri);
    }
    bases.push_back(std::move(base));
    start = comma + 1;
  }
  if (bases.size() > kMaxRestCatalogServers) {
    return InvalidArgument("catalog URI '{}': at most {} servers", uri, kMaxRestCatalogServers);
  }
  if (token.empty()) {
    if (const char* env = std::getenv("FLOE_CATALOG_TOKEN"); env != nullptr) {
      token = env;
    }
  }
  if (credential.empty()) {
    if (const char* env = std::getenv("FLOE_CATALOG_CREDENTIAL"); env != nullptr) {
      credential = env;
    } else if (const char* file = std::getenv("FLOE_CATALOG_CREDENTIAL_FILE"); file != nullptr && *file != '\0') {
      // A file only its owner may read: what `floe up` gives the roles it starts, so the secret
      // is in no process's environment or argv.
      FLOE_RETURN_IF_ERROR(CheckPrivateFile(file, "FLOE_CATALOG_CREDENTIAL_FILE"));
      std::ifstream in(file);
      if (!std::getline(in, credential)) return IoError("cannot read FLOE_CATALOG_CREDENTIAL_FILE {}", file);
    }
  }
  std::unique_ptr<RestCatalog> catalog(
      new RestCatalog(std::move(bases), std::move(warehouse), std::move(token), std::move(credential)));
  if (!catalog->credential_.empty()) {
    FLOE_RETURN_IF_ERROR(catalog->FetchToken());
  }
  FLOE_RETURN_IF_ERROR(catalog->LoadConfig());
  return catalog;
}

Status RestCatalog::LoadConfig() {
  std::string path = "/v1/config";
  if (!warehouse_.empty()) {
    path += "?warehouse=" + net::PercentEncode(warehouse_);
  }
  prefix_ = "";
  FLOE_ASSIGN_OR_RETURN(net::HttpResponse response, Call("GET", path, "", "GET /v1/config"));
  FLOE_ASSIGN_OR_RETURN(Json config, ParseJson(response.body, "GET /v1/config"));
  std::string prefix;
  for (const char* section : {"defaults", "overrides"}) {
    if (config.contains(section) && config[section].is_object() && config[section].contains("prefix") &&
        config[section]["prefix"].is_string()) {
      prefix = config[section]["prefix"].get<std::string>();
    }
  }
  prefix_ = prefix.empty() ? "/v1" : "/v1/" + net::PercentEncode(prefix);
  return OkStatus();
}

Status RestCatalog::FetchToken() {
  size_t colon = credential_.find(':');
  if (colon == std::string::npos) {
    return InvalidArgument("catalog credential must be CLIENT_ID:SECRET");
  }
  std::string form = "grant_type=client_credentials&client_id=" + net::PercentEncode(credential_.substr(0, colon)) +
                     "&client_secret=" + net::PercentEncode(credential_.substr(colon + 1)) + "&scope=catalog";
  net::HttpClientRequest request;
  request.method = "POST";
  request.body = form;
  request.headers.Set("Content-Type", "application/x-www-form-urlencoded");
  FLOE_ASSIGN_OR_RETURN_CTX(net::HttpResponse response, SendToAnyServer(request, "/v1/oauth/tokens"),
                            "fetching a catalog token");
  Json json = Json::parse(response.body, nullptr, false);
  if (response.status != 200 || !json.is_object() || !json.contains("access_token") ||
      !json["access_token"].is_string()) {
    return Unauthenticated("the catalog refused the client credentials (HTTP {}): {}", response.status,
                           response.body.substr(0, 200));
  }
  std::lock_guard lock(token_mu_);
  token_ = json["access_token"].get<std::string>();
  int64_t expires_in = json.value("expires_in", int64_t{3600});
  // Refresh at 90% of the lifetime, before requests start failing.
  token_expiry_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(expires_in * 900);
  return OkStatus();
}

std::string RestCatalog::CurrentToken() {
  bool stale = false;
  {
    std::lock_guard lock(token_mu_);
    stale = !credential_.empty() && std::chrono::steady_clock::now() >= token_expiry_;
  }
  if (stale) {
    (void)FetchToken();  // On failure the old token is sent and the 401 path retries.
  }
  std::lock_guard lock(token_mu_);
  return token_;
}

Result<net::HttpResponse> RestCatalog::Call(std::string_view method, const std::string& path, const std::string& body,
                                            std::string_view what) {
  net::HttpClientRequest request;
  request.method = std::string(method);
  request.body = body;
  if (!body.empty()) {
    request.headers.Set("Content-Type", "application/json");
  }
  std::string token = CurrentToken();
  if (!token.empty()) {
    request.headers.Set("Authorization", "Bearer " + token);
  }
  FLOE_ASSIGN_OR_RETURN_CTX(net::HttpResponse response, SendToAnyServer(request, path), std::string(what));
  if ((response.status == 401 || response.status == 419) && !credential_.empty()) {
    // The server forgot or expired the token (a restart does both): exchange again, once.
    FLOE_RETURN_IF_ERROR(FetchToken());
    request.headers.Set("Authorization", "Bearer " + CurrentToken());
    FLOE_ASSIGN_OR_RETURN_CTX(response, SendToAnyServer(request, path), std::string(what));
  }
  if (response.status >= 400) {
    return std::unexpected(FromRestResponse(response.status, response.body, what));
  }
  return response;
}

Result<net::HttpResponse> RestCatalog::SendToAnyServer(net::HttpClientRequest& request, const std::string& path) {
  size_t first = preferred_.load();
  Result<net::HttpResponse> response = Unavailable("no catalog server");
  for (size_t i = 0; i < bases_.size(); ++i) {
    size_t at = (first + i) % bases_.size();
    request.url = bases_[at] + path;
    response = client_.Send(request);
    // Unavailable is a server that could not be reached or stopped answering; anything else
    // (an answer, a malformed one) is that server's word and is not asked of another.
    if (response || response.error().kind() != ErrorKind::kUnavailable) {
      preferred_.store(at);
      return response;
    }
  }
  return response;
}

std::string RestCatalog::NamespacePath(const Namespace& ns) const {
  return prefix_ + "/namespaces/" + net::PercentEncode(NamespaceToRestSegment(ns));
}

std::string RestCatalog::TablePath(const TableIdentifier& id) const {
  return NamespacePath(id.ns) + "/tables/" + net::PercentEncode(id.name);
}

Result<LoadedTable> RestCatalog::ParseLoadResult(const std::string& body) {
  FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(body, "load table"));
  LoadedTable table;
  table.metadata_location = json.value("metadata-location", "");
  if (!json.contains("metadata") || !json["metadata"].is_object()) {
    return Corruption("the catalog's table result has no 'metadata' object");
  }
  table.metadata = json["metadata"];
  if (json.contains("config") && json["config"].is_object()) {
    for (const auto& [key, value] : json["config"].items()) {
      if (value.is_string()) {
        table.config[key] = value.get<std::string>();
      }
    }
  }
  return table;
}

Status RestCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  Json body = {{"namespace", ns}, {"properties", properties}};
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", prefix_ + "/namespaces", body.dump(), "create namespace"));
  return OkStatus();
}

Result<std::vector<Namespace>> RestCatalog::ListNamespaces(const Namespace& parent) {
  std::vector<Namespace> all;
  std::string token;
  do {
    std::string path = prefix_ + "/namespaces?pageSize=1000";
    if (!parent.empty()) {
      path += "&parent=" + net::PercentEncode(NamespaceToRestSegment(parent));
    }
    if (!token.empty()) {
      path += "&pageToken=" + net::PercentEncode(token);
    }
    FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", path, "", "list namespaces"));
    FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(response.body, "list namespaces"));
    Json namespaces = json.value("namespaces", Json::array());
    for (const Json& ns : namespaces) {
      all.push_back(ns.get<Namespace>());
    }
    token = json.contains("next-page-token") && json["next-page-token"].is_string()
                ? json["next-page-token"].get<std::string>()
                : "";
  } while (!token.empty());
  return all;
}

Result<bool> RestCatalog::NamespaceExists(const Namespace& ns) {
  auto response = Call("HEAD", NamespacePath(ns), "", "namespace exists");
  if (!response) {
    if (response.error().kind() == ErrorKind::kNotFound) {
      return false;
    }
    return std::unexpected(response.error());
  }
  return true;
}

Result<Properties> RestCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", NamespacePath(ns), "", "load namespace"));
  FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(response.body, "load namespace"));
  Properties properties;
  Json object = json.value("properties", Json::object());
  for (const auto& [key, value] : object.items()) {
    properties[key] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return properties;
}

Result<PropertiesUpdate> RestCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                                                const std::vector<std::string>& removals,
                                                                const Properties& updates) {
  Json body = {{"removals", removals}, {"updates", updates}};
  FLOE_ASSIGN_OR_RETURN(auto response,
                        Call("POST", NamespacePath(ns) + "/properties", body.dump(), "update namespace properties"));
  FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(response.body, "update namespace properties"));
  PropertiesUpdate result;
  result.updated = json.value("updated", std::vector<std::string>{});
  result.removed = json.value("removed", std::vector<std::string>{});
  result.missing = json.value("missing", std::vector<std::string>{});
  return result;
}

Status RestCatalog::DropNamespace(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("DELETE", NamespacePath(ns), "", "drop namespace"));
  return OkStatus();
}

Result<std::vector<TableIdentifier>> RestCatalog::ListTables(const Namespace& ns) {
  std::vector<TableIdentifier> all;
  std::string token;
  do {
    std::string path = NamespacePath(ns) + "/tables?pageSize=1000";
    if (!token.empty()) {
      path += "&pageToken=" + net::PercentEncode(token);
    }
    FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", path, "", "list tables"));
    FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(response.body, "list tables"));
    Json identifiers = json.value("identifiers", Json::array());
    for (const Json& id : identifiers) {
      all.push_back({id.value("namespace", Namespace{}), id.value("name", "")});
    }
    token = json.contains("next-page-token") && json["next-page-token"].is_string()
                ? json["next-page-token"].get<std::string>()
                : "";
  } while (!token.empty());
  return all;
}

Result<bool> RestCatalog::TableExists(const TableIdentifier& id) {
  auto response = Call("HEAD", TablePath(id), "", "table exists");
  if (!response) {
    if (response.error().kind() == ErrorKind::kNotFound) {
      return false;
    }
    return std::unexpected(response.error());
  }
  return true;
}

Result<LoadedTable> RestCatalog::LoadTable(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", TablePath(id), "", "load table " + IdentifierToString(id)));
  return ParseLoadResult(response.body);
}

Result<LoadedTable> RestCatalog::CreateTable(const TableIdentifier& id, const TableCreation& creation, bool stage) {
  Json body = {{"name", id.name}, {"schema", creation.schema}, {"stage-create", stage}};
  if (!creation.location.empty()) {
    body["location"] = creation.location;
  }
  if (!creation.partition_spec.is_null()) {
    body["partition-spec"] = creation.partition_spec;
  }
  if (!creation.write_order.is_null()) {
    body["write-order"] = creation.write_order;
  }
  body["properties"] = creation.properties;
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", NamespacePath(id.ns) + "/tables", body.dump(),
                                            "create table " + IdentifierToString(id)));
  return ParseLoadResult(response.body);
}

Result<LoadedTable> RestCatalog::RegisterTable(const TableIdentifier& id, std::string_view metadata_location,
                                               bool overwrite) {
  Json body = {{"name", id.name}, {"metadata-location", metadata_location}, {"overwrite", overwrite}};
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", NamespacePath(id.ns) + "/register", body.dump(),
                                            "register table " + IdentifierToString(id)));
  return ParseLoadResult(response.body);
}

Status RestCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  Json body = {{"source", {{"namespace", from.ns}, {"name", from.name}}},
               {"destination", {{"namespace", to.ns}, {"name", to.name}}}};
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", prefix_ + "/tables/rename", body.dump(), "rename table"));
  return OkStatus();
}

Status RestCatalog::DropTable(const TableIdentifier& id, bool purge) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("DELETE", TablePath(id) + (purge ? "?purgeRequested=true" : ""), "",
                                            "drop table " + IdentifierToString(id)));
  return OkStatus();
}

Result<LoadedTable> RestCatalog::CommitTable(const TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", TablePath(commit.id), CommitToJson(commit, true).dump(),
                                            "commit " + IdentifierToString(commit.id)));
  FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(response.body, "commit"));
  if (!json.contains("metadata") || !json.contains("metadata-location")) {
    return Corruption("the catalog's commit response lacks metadata or metadata-location");
  }
  return LoadedTable{json["metadata-location"].get<std::string>(), json["metadata"], {}};
}

Status RestCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  Json changes = Json::array();
  for (const TableCommit& commit : commits) {
    changes.push_back(CommitToJson(commit, true));
  }
  Json body = {{"table-changes", changes}};
  FLOE_ASSIGN_OR_RETURN(auto response,
                        Call("POST", prefix_ + "/transactions/commit", body.dump(), "commit transaction"));
  return OkStatus();
}

std::string RestCatalog::ViewPath(const TableIdentifier& id) const {
  return NamespacePath(id.ns) + "/views/" + net::PercentEncode(id.name);
}

// A LoadViewResult: the metadata is checked to be Iceberg view metadata here, so a malformed
// answer is an error at the catalog boundary rather than later in a query.
Result<LoadedView> RestCatalog::ParseLoadViewResult(const std::string& body) {
  FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(body, "load view"));
  if (!json.contains("metadata") || !json["metadata"].is_object() || !json.contains("metadata-location") ||
      !json["metadata-location"].is_string()) {
    return Corruption("the catalog's view result lacks 'metadata' or 'metadata-location'");
  }
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::ViewMetadata metadata, iceberg::ViewMetadataFromJsonValue(json["metadata"]),
                            "the catalog's view result");
  LoadedView view;
  view.metadata_location = json["metadata-location"].get<std::string>();
  view.metadata = iceberg::ViewMetadataToJsonValue(metadata);
  if (json.contains("config") && json["config"].is_object()) {
    for (const auto& [key, value] : json["config"].items()) {
      if (value.is_string()) {
        view.config[key] = value.get<std::string>();
      }
    }
  }
  return view;
}

Result<std::vector<TableIdentifier>> RestCatalog::ListViews(const Namespace& ns) {
  std::vector<TableIdentifier> all;
  std::string token;
  do {
    std::string path = NamespacePath(ns) + "/views?pageSize=1000";
    if (!token.empty()) {
      path += "&pageToken=" + net::PercentEncode(token);
    }
    FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", path, "", "list views"));
    FLOE_ASSIGN_OR_RETURN(Json json, ParseJson(response.body, "list views"));
    Json identifiers = json.value("identifiers", Json::array());
    for (const Json& id : identifiers) {
      all.push_back({id.value("namespace", Namespace{}), id.value("name", "")});
    }
    token = json.contains("next-page-token") && json["next-page-token"].is_string()
                ? json["next-page-token"].get<std::string>()
                : "";
  } while (!token.empty());
  return all;
}

Result<bool> RestCatalog::ViewExists(const TableIdentifier& id) {
  auto response = Call("HEAD", ViewPath(id), "", "view exists");
  if (!response) {
    if (response.error().kind() == ErrorKind::kNotFound) {
      return false;
    }
    return std::unexpected(response.error());
  }
  return true;
}

Result<LoadedView> RestCatalog::LoadView(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", ViewPath(id), "", "load view " + IdentifierToString(id)));
  return ParseLoadViewResult(response.body);
}

Result<LoadedView> RestCatalog::CreateView(const TableIdentifier& id, const ViewCreation& creation) {
  Json body = {{"name", id.name},
               {"schema", iceberg::SchemaToJsonValue(creation.schema)},
               {"view-version", iceberg::ViewVersionToJsonValue(creation.version)},
               {"properties", creation.properties}};
  if (!creation.location.empty()) {
    body["location"] = creation.location;
  }
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", NamespacePath(id.ns) + "/views", body.dump(),
                                            "create view " + IdentifierToString(id)));
  return ParseLoadViewResult(response.body);
}

Result<LoadedView> RestCatalog::CommitView(const ViewCommit& commit) {
  Json requirements = Json::array();
  for (const iceberg::AssertViewUuid& requirement : commit.requirements) {
    requirements.push_back(iceberg::ViewRequirementToJson(requirement));
  }
  Json updates = Json::array();
  for (const iceberg::ViewUpdate& update : commit.updates) {
    updates.push_back(update.body);
  }
  Json body = {{"identifier", {{"namespace", commit.id.ns}, {"name", commit.id.name}}},
               {"requirements", std::move(requirements)},
               {"updates", std::move(updates)}};
  FLOE_ASSIGN_OR_RETURN(
      auto response, Call("POST", ViewPath(commit.id), body.dump(), "replace view " + IdentifierToString(commit.id)));
  return ParseLoadViewResult(response.body);
}

Status RestCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  Json body = {{"source", {{"namespace", from.ns}, {"name", from.name}}},
               {"destination", {{"namespace", to.ns}, {"name", to.name}}}};
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", prefix_ + "/views/rename", body.dump(), "rename view"));
  return OkStatus();
}

Status RestCatalog::DropView(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto response, Call("DELETE", ViewPath(id), "", "drop view " + IdentifierToString(id)));
  return OkStatus();
}

}  // namespace floe::catalog
