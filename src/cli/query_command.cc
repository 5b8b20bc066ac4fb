// `floe query`: the query server: Trino protocol, PostgreSQL wire, HTTP API and console (src/serve).
#include <pthread.h>
#include <signal.h>

#include "base/logging.h"
#include "cli/command.h"
#include "serve/pg_auth.h"
#include "serve/query_catalog.h"
#include "serve/query_server.h"

namespace floe::cli {
namespace {

struct QueryFlags {
  std::string listen = "127.0.0.1:8080";
  std::string pg_listen = "127.0.0.1:5433";
  std::string catalog, warehouse, web_root, auth_file, tls_cert, tls_key, spill_dir;
  bool insecure_bind = false;
  int max_running = 4;
  int max_queued = 1000;
  int query_timeout_s = 300;
  int query_memory_mb = 1024;
  int client_timeout_s = 300;
  int64_t result_buffer_kb = 4096;
  int threads = 16;
  int max_connections_per_ip = 64;
};

// "host:port" -> (host, port); false when malformed.
bool SplitHostPort(const std::string& text, std::string* host, uint16_t* port) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  try {
    int p = std::stoi(text.substr(colon + 1));
    if (p < 0 || p > 65535) return false;
    *port = static_cast<uint16_t>(p);
  } catch (const std::exception&) {
    return false;
  }
  *host = text.substr(0, colon);
  return true;
}

int RunQuery(const QueryFlags& flags) {
  auto usage = [](const std::string& message) {
    fmt::print(stderr, "floe query: {}\n", message);
    return kExitUsage;
  };
  serve::QueryServerOptions options;
  if (!SplitHostPort(flags.listen, &options.host, &options.http_port)) {
    return usage(fmt::format("--listen '{}': expected HOST:PORT", flags.listen));
  }
  options.pg_enabled = !flags.pg_listen.empty() && flags.pg_listen != "off";
  if (options.pg_enabled && !SplitHostPort(flags.pg_listen, &options.pg_host, &options.pg_port)) {
    return usage(fmt::format("--pg-listen '{}': expected HOST:PORT or off", flags.pg_listen));
  }
  for (auto [flag, host] : {std::pair<const char*, std::string>{"--listen", options.host}, {"--pg-listen", options.pg_host}}) {
    if (std::string_view(flag) == "--pg-listen" && !options.pg_enabled) continue;
    if (auto exposed = CheckExposedBind(flag, host, !flags.auth_file.empty(), flags.insecure_bind); !exposed) {
      return usage(exposed.error().message());
    }
  }
  if (flags.max_running < 1 || flags.max_queued < 0 || flags.query_timeout_s < 1 || flags.query_memory_mb < 1) {
    return usage("--max-running-queries, --query-timeout-s and --query-memory-mb must be positive");
  }
  if (!flags.auth_file.empty()) {
    auto users = serve::pg::LoadAuthFile(flags.auth_file);
    if (!users) return usage(users.error().message());
    options.pg.users = std::move(*users);
  }
  options.tls = net::TlsFiles{flags.tls_cert, flags.tls_key};
  options.queries.max_running = flags.max_running;
  options.queries.max_queued = flags.max_queued;
  options.queries.limits.max_run_time = std::chrono::seconds(flags.query_timeout_s);
  options.queries.limits.max_memory_bytes = int64_t{flags.query_memory_mb} << 20;
  options.queries.limits.spill_dir = flags.spill_dir;
  if (flags.client_timeout_s < 1 || flags.result_buffer_kb < 1) {
    return usage("--client-timeout-s and --result-buffer-kb must be positive");
  }
  options.queries.limits.max_buffered_bytes = flags.result_buffer_kb << 10;
  options.trino_client_timeout = std::chrono::seconds(flags.client_timeout_s);
  options.http_threads = flags.threads;
  if (flags.max_connections_per_ip < 1) return usage("--max-connections-per-ip must be positive");
  options.max_connections_per_address = static_cast<size_t>(flags.max_connections_per_ip);
  options.web_root = flags.web_root.empty() ? serve::StaticFiles::FindDefaultRoot() : flags.web_root;

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::string note;
  auto catalog = serve::OpenQueryCatalog({.catalog = flags.catalog, .warehouse = flags.warehouse}, &note);
  if (!catalog) {
    fmt::print(stderr, "floe query: {}\n", catalog.error().ToString());
    return kExitFailure;
  }
  if (!note.empty()) fmt::print(stderr, "floe query: {}\n", note);
  serve::QueryServer server(**catalog, options);
  if (auto started = server.Start(); !started) {
    fmt::print(stderr, "floe query: {}\n", started.error().ToString());
    return kExitFailure;
  }
  // Tests and scripts read the bound ports from this line (port 0 picks a free one).
  fmt::print("floe query listening on {}:{} pg {}:{} web {}\n", options.host, server.http_port(), options.pg_host,
             server.pg_port(), options.web_root.empty() ? "(none)" : options.web_root);
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  Logger("serve")->info("signal {}: stopping", signal);
  server.Stop();
  return kExitOk;
}

}  // namespace

void RegisterQueryCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<QueryFlags>();
  CLI::App* app = registry.Add(root, "query", "Serve SQL over the Trino protocol, PostgreSQL wire and HTTP", "query",
                               [flags] { return RunQuery(*flags); });
  app->add_option("--listen", flags->listen, "HOST:PORT for the Trino protocol, HTTP API and console (port 0: any)")
      ->capture_default_str();
  app->add_option("--pg-listen", flags->pg_listen, "HOST:PORT for the PostgreSQL wire protocol, or off")
      ->capture_default_str();
  app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
  app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
  app->add_option("--web-root", flags->web_root, "The console's files (default: web/ of the source tree beside the build)");
  app->add_flag("--insecure-bind", flags->insecure_bind,
               "Allow listening beyond loopback without --auth-file (anyone who reaches the port may use it)");
  app->add_option("--auth-file", flags->auth_file,
                  "TOML with [[user]] name/password/method: PostgreSQL clients authenticate with it and the HTTP port "
                  "(Trino protocol, API, console) requires basic auth (default: trust loopback)");
  app->add_option("--tls-cert", flags->tls_cert, "PEM certificate chain: HTTPS on --listen and TLS required on --pg-listen");
  app->add_option("--tls-key", flags->tls_key, "PEM private key of --tls-cert");
  app->add_option("--max-running-queries", flags->max_running, "Queries run at once; more wait in a queue")
      ->capture_default_str();
  app->add_option("--max-queued-queries", flags->max_queued, "Queries that may wait; more fail with QUERY_QUEUE_FULL")
      ->capture_default_str();
  app->add_option("--query-timeout-s", flags->query_timeout_s, "Per-query run time limit")->capture_default_str();
  app->add_option("--query-memory-mb", flags->query_memory_mb, "Per-query memory limit")->capture_default_str();
  app->add_option("--spill-dir", flags->spill_dir,
                  "Where joins and aggregations past the memory limit spill (default: the temporary folder)");
  app->add_option("--client-timeout-s", flags->client_timeout_s,
                  "A Trino query whose client stops polling this long is canceled")
      ->capture_default_str();
  app->add_option("--result-buffer-kb", flags->result_buffer_kb,
                  "Per-query buffer of result rows not yet sent; a slower client holds the query back")
      ->capture_default_str();
  app->add_option("--threads", flags->threads, "HTTP threads (Trino polls wait on them)")->capture_default_str();
  app->add_option("--max-connections-per-ip", flags->max_connections_per_ip,
                  "Connections accepted at once from one client address, on the HTTP port and the PostgreSQL port each")
      ->capture_default_str();
}

}  // namespace floe::cli
