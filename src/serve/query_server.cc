#include "serve/query_server.h"

#include "serve/basic_auth.h"
#include "serve/browser_guard.h"

#include <fmt/format.h>

namespace floe::serve {

QueryServer::QueryServer(sql::SqlCatalog& catalog, QueryServerOptions options)
    : catalog_(catalog), options_(std::move(options)) {
  if (options_.version.empty()) options_.version = FLOE_SERVE_VERSION;
}

QueryServer::~QueryServer() { Stop(); }

Status QueryServer::Start() {
  manager_ = std::make_unique<QueryManager>(catalog_, options_.queries, &metrics_);
  trino_ = std::make_unique<TrinoProtocol>(*manager_, TrinoProtocolOptions{.version = options_.version,
                                                                     .client_timeout = options_.trino_client_timeout,
                                                                     .final_page_linger = options_.trino_final_page_linger,
                                                                     .users = options_.pg.users});
  api_ = std::make_unique<HttpApi>(*manager_, options_.pipeline, options_.version, options_.pg.users);
  files_ = std::make_unique<StaticFiles>(options_.web_root);
  net::HttpRouter router;
  FLOE_RETURN_IF_ERROR(trino_->Register(router));
  FLOE_RETURN_IF_ERROR(api_->Register(router));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/metrics", [this](net::HttpRequest&) {
    net::HttpResponse response = net::HttpResponse::Text(200, metrics_.RenderPrometheusText());
    response.headers.Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    return response;
  }));
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/{path*}", [this](net::HttpRequest& request) {
    net::HttpResponse response = files_->Serve(request);
    AddContentSecurityHeaders(response);
    return response;
  }));
  router.SetGuard([users = options_.pg.users, host = options_.host](const net::HttpRequest& request)
                      -> std::optional<net::HttpResponse> {
    // Browser checks first: a cross-site request is refused whether or not it carries the
    // credentials the browser remembered for this origin.
    if (auto refused = CheckBrowserRequest(request, host)) return refused;
    if (users.empty()) return std::nullopt;
    // Everything but the liveness probes needs credentials once users are configured.
    if (request.path == "/v1/info" || request.path == "/v1/info/state") return std::nullopt;
    if (auto refused = CheckBasicAuth(users, request)) return refused;
    // The playground changes the pipeline; the roles' logs name other users (failed logins,
    // their queries' errors): both are an operator's.
    if (request.path.starts_with("/api/playground/") || request.path.starts_with("/api/logs/")) {
      const auth::AuthUser* user = auth::FindUser(users, BasicAuthUserName(request));
      if (user == nullptr || user->role != "admin") {
        return net::HttpResponse::Text(403, "the playground and the logs are for users with role admin\n");
      }
    }
    return std::nullopt;
  });
  net::HttpServerOptions http_options;
  http_options.tls = options_.tls;
  http_options.host = options_.host;
  http_options.port = options_.http_port;
  http_options.threads = options_.http_threads;
  http_options.max_body_bytes = 16 << 20;
  http_options.max_connections_per_address = options_.max_connections_per_address;
  http_options.server_name = "floe-query";
  http_ = std::make_unique<net::HttpServer>(http_options, std::move(router));
  FLOE_RETURN_IF_ERROR_CTX(http_->Start(), "starting the query server's HTTP port");
  if (options_.pg_enabled) {
    PgServerOptions pg = options_.pg;
    pg.host = options_.pg_host;
    pg.port = options_.pg_port;
    pg.version = options_.version;
    pg.tls = options_.tls;
    pg.max_connections_per_address = static_cast<int>(options_.max_connections_per_address);
    pg_ = std::make_unique<PgServer>(*manager_, pg, &metrics_);
    if (auto started = pg_->Start(); !started) {
      http_->Stop();
      return std::unexpected(std::move(started).error().WithContext("starting the PostgreSQL port"));
    }
  }
  return OkStatus();
}

void QueryServer::Stop() {
  if (pg_) pg_->Stop();
  if (http_) http_->Stop(std::chrono::milliseconds(2000));
  pg_.reset();
  http_.reset();
  manager_.reset();
}

std::string QueryServer::Describe() const {
  std::string out = fmt::format("Trino protocol, HTTP API and console on {}:{}", options_.host, http_port());
  if (pg_) out += fmt::format(", PostgreSQL wire on {}:{}", options_.pg_host, pg_port());
  return out;
}

}  // namespace floe::serve
