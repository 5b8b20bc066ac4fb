// `floe catalog`: the Iceberg REST catalog server (src/catalog).
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "auth/users.h"
#include "base/logging.h"
#include "base/metrics.h"
#include "catalog/oauth_tokens.h"
#include "catalog/open_catalog.h"
#include "catalog/rest_server.h"
#include "cli/command.h"

namespace floe::cli {
namespace {

struct CatalogFlags {
  std::string listen = "127.0.0.1:8181";
  std::string backend = "sqlite:./floe-data/catalog.db";
  std::string warehouse;
  std::vector<std::string> allowed_locations;
  std::string catalog_name = "default";
  int threads = 8;
  std::string auth_file;
  bool insecure_bind = false;
  std::string tls_cert, tls_key;
  int token_lifetime_s = 3600;
  int max_connections_per_ip = 64;
};

int RunCatalog(const CatalogFlags& flags) {
  auto fail = [](const Error& error) {
    fmt::print(stderr, "floe catalog: {}\n", error.ToString());
    return ExitCodeFor(error);
  };
  size_t colon = flags.listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos) {
    try {
      port = std::stoi(flags.listen.substr(colon + 1));
    } catch (const std::exception&) {
      port = -1;
    }
  }
  if (port < 0 || port > 65535) {
    return fail(Error(ErrorKind::kInvalidArgument, fmt::format("--listen '{}': expected HOST:PORT", flags.listen)));
  }
  std::string warehouse = flags.warehouse;
  if (warehouse.empty()) {
    std::error_code ignored;
    warehouse = "file://" + std::filesystem::absolute("./floe-data/warehouse", ignored).lexically_normal().string();
  }
  if (flags.backend.starts_with("http://") || flags.backend.starts_with("https://")) {
    return fail(Error(ErrorKind::kInvalidArgument, "--backend must be sqlite:PATH or postgresql://..."));
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto catalog = catalog::OpenCatalog({flags.backend, warehouse, flags.catalog_name, flags.allowed_locations});
  if (!catalog) return fail(catalog.error());
  std::vector<auth::AuthUser> users;
  if (!flags.auth_file.empty()) {
    // The users of the shared auth file are OAuth2 clients: client id = name, secret = password.
    auto file_users = auth::LoadAuthFile(flags.auth_file);
    if (!file_users) return fail(file_users.error());
    users = std::move(*file_users);
  }
  catalog::OAuthTokens tokens(std::move(users), std::chrono::seconds(flags.token_lifetime_s));
  MetricsRegistry metrics;
  catalog::RestServerOptions options;
  options.host = flags.listen.substr(0, colon);
  if (auto exposed = CheckExposedBind("--listen", options.host, !flags.auth_file.empty(), flags.insecure_bind); !exposed) {
    return fail(exposed.error());
  }
  options.port = static_cast<uint16_t>(port);
  options.threads = flags.threads;
  if (flags.max_connections_per_ip < 1) return fail(Error(ErrorKind::kInvalidArgument, "--max-connections-per-ip must be positive"));
  options.max_connections_per_address = static_cast<size_t>(flags.max_connections_per_ip);
  options.warehouse = warehouse;
  options.metrics = &metrics;
  options.tokens = &tokens;
  options.tls = net::TlsFiles{flags.tls_cert, flags.tls_key};
  catalog::RestCatalogServer server(**catalog, options);
  if (auto started = server.Start(); !started) return fail(started.error());
  // Tests and scripts read the bound port from this line (port 0 picks a free one).
  fmt::print("floe catalog listening on {} backend {} warehouse {}\n", server.address(), flags.backend, warehouse);
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  Logger("catalog")->info("signal {}: stopping", signal);
  server.Stop();
  return kExitOk;
}

}  // namespace

void RegisterCatalogCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<CatalogFlags>();
  CLI::App* app = registry.Add(root, "catalog", "Run the Iceberg REST catalog server", "catalog",
                               [flags] { return RunCatalog(*flags); });
  app->add_option("--listen", flags->listen, "HOST:PORT to serve the REST API on (port 0: any free port)")
      ->capture_default_str();
  app->add_option("--backend", flags->backend, "sqlite:PATH or postgresql://... holding the table pointers")
      ->capture_default_str();
  app->add_option("--warehouse", flags->warehouse,
                  "file:///abs/path or s3://bucket/prefix for new tables (default: ./floe-data/warehouse)");
  app->add_option("--allowed-location", flags->allowed_locations,
                  "A root tables may live under (repeatable; default: the warehouse). Locations outside are refused "
                  "(403): a table's location is what a purge deletes");
  app->add_option("--catalog-name", flags->catalog_name, "The catalog_name the SQL tables are keyed by")
      ->capture_default_str();
  app->add_option("--threads", flags->threads, "Request threads (handlers block on the database and store)")
      ->capture_default_str();
  app->add_flag("--insecure-bind", flags->insecure_bind,
               "Allow listening beyond loopback without --auth-file (anyone who reaches the port may use it)");
  app->add_option("--auth-file", flags->auth_file,
                  "TOML of [[user]] entries (floe user add): each user is an OAuth2 client (client id = name, secret = password) "
                  "that must get a token");
  app->add_option("--tls-cert", flags->tls_cert, "PEM certificate chain: serve HTTPS (with --tls-key)");
  app->add_option("--tls-key", flags->tls_key, "PEM private key of --tls-cert");
  app->add_option("--token-lifetime-s", flags->token_lifetime_s, "Lifetime of issued tokens")->capture_default_str();
  app->add_option("--max-connections-per-ip", flags->max_connections_per_ip,
                  "Connections accepted at once from one client address")
      ->capture_default_str();
}

}  // namespace floe::cli
