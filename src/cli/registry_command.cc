// `floe registry`: the Confluent-compatible Schema Registry (src/registry), kept in a compacted
// `_schemas` topic on the broker at --brokers.
#include <pthread.h>
#include <signal.h>

#include "auth/users.h"
#include "base/logging.h"
#include "cli/command.h"
#include "registry/registry_http.h"
#include "registry/schema_registry.h"
#include "registry/schema_topic_log.h"

namespace floe::cli {
namespace {

struct RegistryFlags {
  std::string listen = "127.0.0.1:8081";
  std::string brokers = "127.0.0.1:9092";
  std::string topic = std::string(registry::kDefaultSchemasTopic);
  std::string auth_file;
  bool insecure_bind = false;
  int threads = 4;
  int max_connections_per_ip = 64;
  std::string tls_cert, tls_key;
};

int RunRegistry(const RegistryFlags& flags) {
  auto fail = [](const Error& error) {
    fmt::print(stderr, "floe registry: {}\n", error.ToString());
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
  if (flags.threads < 1 || flags.max_connections_per_ip < 1) {
    return fail(Error(ErrorKind::kInvalidArgument, "--threads and --max-connections-per-ip must be positive"));
  }
  registry::RegistryServerOptions options;
  options.host = flags.listen.substr(0, colon);
  options.port = static_cast<uint16_t>(port);
  options.threads = flags.threads;
  options.max_connections_per_address = static_cast<size_t>(flags.max_connections_per_ip);
  if (flags.tls_cert.empty() != flags.tls_key.empty()) {
    return fail(Error(ErrorKind::kInvalidArgument, "--tls-cert and --tls-key go together"));
  }
  options.tls = net::TlsFiles{flags.tls_cert, flags.tls_key};
  if (auto exposed = CheckExposedBind("--listen", options.host, !flags.auth_file.empty(), flags.insecure_bind); !exposed) {
    return fail(exposed.error());
  }
  if (!flags.auth_file.empty()) {
    auto users = auth::LoadAuthFile(flags.auth_file);
    if (!users) return fail(users.error());
    options.users = std::move(*users);
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto log = registry::SchemaTopicLog::Open(flags.brokers, flags.topic);
  if (!log) return fail(log.error());
  registry::SchemaRegistry schemas(**log);
  // Serve only the state the whole topic defines: ids handed out before are never handed out again.
  if (auto replayed = (*log)->Replay([&](const std::string& key, const std::optional<std::string>& value) {
        schemas.ApplyReplayed(key, value);
      });
      !replayed) {
    return fail(replayed.error());
  }
  registry::RegistryServer server(schemas, std::move(options));
  if (auto started = server.Start(); !started) return fail(started.error());
  // Tests and scripts read the bound port from this line (port 0 picks a free one).
  fmt::print("floe registry listening on {} brokers {} topic {}\n", server.address(), flags.brokers, flags.topic);
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  Logger("registry")->info("signal {}: stopping", signal);
  server.Stop();
  return kExitOk;
}

}  // namespace

void RegisterRegistryCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<RegistryFlags>();
  CLI::App* app = registry.Add(root, "registry", "Run the Schema Registry (Confluent's REST API)", "registry",
                               [flags] { return RunRegistry(*flags); });
  app->add_option("--listen", flags->listen, "HOST:PORT to serve the REST API on (port 0: any free port)")
      ->capture_default_str();
  app->add_option("--brokers", flags->brokers, "Kafka bootstrap HOST:PORT holding the schemas topic")
      ->capture_default_str();
  app->add_option("--topic", flags->topic, "The compacted topic schemas are kept in")->capture_default_str();
  app->add_option("--auth-file", flags->auth_file,
                  "TOML of [[user]] entries (floe user add): HTTP basic auth; readers read, writers register, "
                  "admins delete and change config");
  app->add_flag("--insecure-bind", flags->insecure_bind,
                "Allow listening beyond loopback without --auth-file (anyone who reaches the port may use it)");
  app->add_option("--tls-cert", flags->tls_cert, "PEM certificate chain: serve HTTPS (with --tls-key)");
  app->add_option("--tls-key", flags->tls_key, "PEM private key of --tls-cert");
  app->add_option("--threads", flags->threads, "Request threads (registrations wait for the broker)")
      ->capture_default_str();
  app->add_option("--max-connections-per-ip", flags->max_connections_per_ip,
                  "Connections accepted at once from one client address")
      ->capture_default_str();
}

}  // namespace floe::cli
