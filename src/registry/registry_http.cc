#include "registry/registry_http.h"

#include <charconv>

#include "auth/role.h"
#include "base/base64.h"
#include "formats/protobuf/proto_descriptor_writer.h"
#include "registry/registry_request.h"
#include "serve/basic_auth.h"

namespace floe::registry {
namespace {

using net::HttpRequest;
using net::HttpResponse;
using Json = nlohmann::json;

constexpr std::string_view kContentType = "application/vnd.schemaregistry.v1+json";

HttpResponse JsonResponse(int status, std::string body) {
  HttpResponse response = HttpResponse::Json(status, std::move(body));
  response.headers.Set("Content-Type", kContentType);
  return response;
}

HttpResponse ErrorResponse(const RegistryError& error) { return JsonResponse(error.HttpStatus(), error.ToJson()); }

HttpResponse Answer(const RegistryResult<Json>& result) {
  if (!result) return ErrorResponse(result.error());
  return JsonResponse(200, result->dump());
}

bool QueryFlag(const HttpRequest& request, std::string_view name) { return request.Query(name).value_or("") == "true"; }

// `?format=serialized`: a PROTOBUF schema registered as .proto text answered as the base64 of
// its FileDescriptorProto, as Confluent's registry does for its JavaScript serializers (which
// read only that form). One with references is parsed with their files, and its descriptor's
// dependencies are its imports, which the client resolves by reference name. Text floe cannot
// parse stays as it is.
RegistryResult<Json> Formatted(const SchemaRegistry& registry, RegistryResult<Json> found, const HttpRequest& request) {
  if (!found || request.Query("format").value_or("") != "serialized") return found;
  Json& body = *found;
  if (!body.contains("schemaType") || body["schemaType"] != "PROTOBUF") return found;
  const std::string& text = body["schema"].get_ref<const std::string&>();
  if (text.find_first_of(" ;{") == std::string::npos) return found;  // Already a serialized descriptor.
  SchemaContent content{"PROTOBUF", text, {}};
  for (const Json& reference : body.value("references", Json::array())) {
    content.references.push_back(
        {reference.value("name", ""), reference.value("subject", ""), reference.value("version", 0)});
  }
  auto schema = registry.ParseProtobuf(content);
  if (schema) body["schema"] = Base64Encode(protobuf::SerializeDescriptor(*schema, "default.proto"));
  return found;
}

RegistryResult<int> IdParam(const HttpRequest& request) {
  std::string_view text = request.Param("id");
  int id = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size() || id < 1) {
    return Fail(RegistryErrorCode::kSchemaNotFound, "Schema {} not found", text);
  }
  return id;
}

// What a route needs of the caller's role: reads and checks (lookups and compatibility tests
// POST, but change nothing) need a reader, registering a writer, the rest an admin.
auth::Role NeededRole(const HttpRequest& request) {
  if (request.method == "GET" || request.method == "HEAD") return auth::Role::kReader;
  if (request.method == "POST") {
    if (request.path.starts_with("/compatibility/")) return auth::Role::kReader;
    // POST /subjects/{s} is a lookup; POST /subjects/{s}/versions registers.
    if (request.path.ends_with("/versions")) return auth::Role::kWriter;
    return auth::Role::kReader;
  }
  return auth::Role::kAdmin;
}

}  // namespace

Result<net::HttpRouter> MakeRegistryRouter(SchemaRegistry& registry, const RegistryServerOptions& options) {
  net::HttpRouter router;
  SchemaRegistry* r = &registry;
  auto add = [&](std::string_view method, std::string_view pattern, net::HttpHandler handler) {
    return router.Add(method, pattern, std::move(handler));
  };
  auto with_schema = [](const HttpRequest& request) { return ParseSchemaRequest(request.body); };

  FLOE_RETURN_IF_ERROR(add("GET", "/", [](HttpRequest&) { return JsonResponse(200, "{}"); }));
  FLOE_RETURN_IF_ERROR(add("GET", "/schemas/types", [](HttpRequest&) {
    return JsonResponse(200, Json::array({"JSON", "PROTOBUF", "AVRO"}).dump());
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/subjects", [r](HttpRequest& request) {
    return JsonResponse(200, r->Subjects(QueryFlag(request, "deleted")).dump());
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/subjects/{subject}/versions", [r](HttpRequest& request) {
    return Answer(r->Versions(request.Param("subject"), QueryFlag(request, "deleted")));
  }));
  FLOE_RETURN_IF_ERROR(add("POST", "/subjects/{subject}/versions", [r, with_schema](HttpRequest& request) {
    auto content = with_schema(request);
    if (!content) return ErrorResponse(content.error());
    return Answer(r->Register(request.Param("subject"), *content));
  }));
  FLOE_RETURN_IF_ERROR(add("POST", "/subjects/{subject}", [r, with_schema](HttpRequest& request) {
    auto content = with_schema(request);
    if (!content) return ErrorResponse(content.error());
    return Answer(r->Lookup(request.Param("subject"), *content, QueryFlag(request, "deleted")));
  }));
  FLOE_RETURN_IF_ERROR(add("DELETE", "/subjects/{subject}", [r](HttpRequest& request) {
    return Answer(r->DeleteSubject(request.Param("subject"), QueryFlag(request, "permanent")));
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/subjects/{subject}/versions/{version}", [r](HttpRequest& request) {
    auto version = ParseVersion(request.Param("version"));
    if (!version) return ErrorResponse(version.error());
    return Answer(
        Formatted(*r, r->Version(request.Param("subject"), *version, QueryFlag(request, "deleted")), request));
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/subjects/{subject}/versions/{version}/schema", [r](HttpRequest& request) {
    auto version = ParseVersion(request.Param("version"));
    if (!version) return ErrorResponse(version.error());
    auto found = r->Version(request.Param("subject"), *version, QueryFlag(request, "deleted"));
    if (!found) return ErrorResponse(found.error());
    // The schema itself, as its text (Confluent answers the raw schema, not a JSON string).
    return JsonResponse(200, (*found)["schema"].get<std::string>());
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/subjects/{subject}/versions/{version}/referencedby", [r](HttpRequest& request) {
    auto version = ParseVersion(request.Param("version"));
    if (!version) return ErrorResponse(version.error());
    return Answer(r->ReferencedBy(request.Param("subject"), *version));
  }));
  FLOE_RETURN_IF_ERROR(add("DELETE", "/subjects/{subject}/versions/{version}", [r](HttpRequest& request) {
    auto version = ParseVersion(request.Param("version"));
    if (!version) return ErrorResponse(version.error());
    return Answer(r->DeleteVersion(request.Param("subject"), *version, QueryFlag(request, "permanent")));
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/schemas/ids/{id}", [r](HttpRequest& request) {
    auto id = IdParam(request);
    if (!id) return ErrorResponse(id.error());
    return Answer(Formatted(*r, r->SchemaById(*id), request));
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/schemas/ids/{id}/schema", [r](HttpRequest& request) {
    auto id = IdParam(request);
    if (!id) return ErrorResponse(id.error());
    auto found = r->SchemaById(*id);
    if (!found) return ErrorResponse(found.error());
    return JsonResponse(200, (*found)["schema"].get<std::string>());
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/schemas/ids/{id}/versions", [r](HttpRequest& request) {
    auto id = IdParam(request);
    if (!id) return ErrorResponse(id.error());
    return Answer(r->SubjectVersionsById(*id));
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/schemas/ids/{id}/subjects", [r](HttpRequest& request) {
    auto id = IdParam(request);
    if (!id) return ErrorResponse(id.error());
    auto found = r->SubjectVersionsById(*id);
    if (!found) return ErrorResponse(found.error());
    Json subjects = Json::array();
    for (const Json& entry : *found) {
      if (std::find(subjects.begin(), subjects.end(), entry["subject"]) == subjects.end()) {
        subjects.push_back(entry["subject"]);
      }
    }
    return JsonResponse(200, subjects.dump());
  }));
  FLOE_RETURN_IF_ERROR(
      add("POST", "/compatibility/subjects/{subject}/versions/{version}", [r, with_schema](HttpRequest& request) {
        auto version = ParseVersion(request.Param("version"));
        if (!version) return ErrorResponse(version.error());
        auto content = with_schema(request);
        if (!content) return ErrorResponse(content.error());
        return Answer(r->TestCompatibility(request.Param("subject"), *version, *content, QueryFlag(request, "verbose")));
      }));
  FLOE_RETURN_IF_ERROR(add("POST", "/compatibility/subjects/{subject}/versions", [r, with_schema](HttpRequest& request) {
    auto content = with_schema(request);
    if (!content) return ErrorResponse(content.error());
    return Answer(r->TestCompatibility(request.Param("subject"), kLatestVersion, *content, QueryFlag(request, "verbose")));
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/config", [r](HttpRequest&) { return Answer(r->Config("", true)); }));
  FLOE_RETURN_IF_ERROR(add("GET", "/config/{subject}", [r](HttpRequest& request) {
    return Answer(r->Config(request.Param("subject"), QueryFlag(request, "defaultToGlobal")));
  }));
  auto put_config = [r](std::string_view subject, const HttpRequest& request) {
    auto level = ParseConfigRequest(request.body);
    if (!level) return ErrorResponse(level.error());
    return Answer(r->SetConfig(subject, *level));
  };
  FLOE_RETURN_IF_ERROR(add("PUT", "/config", [put_config](HttpRequest& request) { return put_config("", request); }));
  FLOE_RETURN_IF_ERROR(add("PUT", "/config/{subject}", [put_config](HttpRequest& request) {
    return put_config(request.Param("subject"), request);
  }));
  FLOE_RETURN_IF_ERROR(add("GET", "/mode", [r](HttpRequest&) { return Answer(r->Mode("", true)); }));
  FLOE_RETURN_IF_ERROR(add("GET", "/mode/{subject}", [r](HttpRequest& request) {
    return Answer(r->Mode(request.Param("subject"), QueryFlag(request, "defaultToGlobal")));
  }));
  auto put_mode = [r](std::string_view subject, const HttpRequest& request) {
    auto mode = ParseModeRequest(request.body);
    if (!mode) return ErrorResponse(mode.error());
    return Answer(r->SetMode(subject, *mode));
  };
  FLOE_RETURN_IF_ERROR(add("PUT", "/mode", [put_mode](HttpRequest& request) { return put_mode("", request); }));
  FLOE_RETURN_IF_ERROR(add("PUT", "/mode/{subject}", [put_mode](HttpRequest& request) {
    return put_mode(request.Param("subject"), request);
  }));

  if (!options.users.empty()) {
    // Decided on the header alone, before the body is read (net::HttpRouter::SetGuard).
    router.SetGuard([users = options.users](const HttpRequest& request) -> std::optional<HttpResponse> {
      if (auto refused = serve::CheckBasicAuth(users, request)) {
        // Confluent's clients read the error body: keep the challenge, answer in its format.
        HttpResponse response = JsonResponse(
            refused->status,
            RegistryError{refused->status == 401 ? RegistryErrorCode::kUnauthorized : RegistryErrorCode::kForbidden,
                          refused->status == 401 ? "Unauthorized" : "Forbidden"}
                .ToJson());
        if (auto challenge = refused->headers.Get("WWW-Authenticate")) response.headers.Set("WWW-Authenticate", *challenge);
        response.delay = refused->delay;
        return response;
      }
      std::string user = serve::BasicAuthUserName(request);
      auth::Role role = auth::RoleOf(users, user);
      auth::Role needed = NeededRole(request);
      if (static_cast<int>(role) < static_cast<int>(needed)) {
        return ErrorResponse({RegistryErrorCode::kForbidden,
                              fmt::format("user '{}' with role {} may not {} {}; it needs role {}", user,
                                          auth::RoleName(role), request.method, request.path, auth::RoleName(needed))});
      }
      return std::nullopt;
    });
  }
  return router;
}

Status RegistryServer::Start() {
  FLOE_ASSIGN_OR_RETURN(net::HttpRouter router, MakeRegistryRouter(registry_, options_));
  net::HttpServerOptions http;
  http.host = options_.host;
  http.port = options_.port;
  http.threads = options_.threads;
  http.max_body_bytes = kMaxRequestBodyBytes;
  http.max_connections_per_address = options_.max_connections_per_address;
  http.server_name = "floe-registry";
  http.tls = options_.tls;
  server_ = std::make_unique<net::HttpServer>(http, std::move(router));
  return server_->Start();
}

void RegistryServer::Stop() {
  if (server_) server_->Stop();
}

}  // namespace floe::registry
