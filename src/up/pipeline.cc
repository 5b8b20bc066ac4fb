#include "up/pipeline.h"

#include <fmt/format.h>
#include <signal.h>
#include <stdlib.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>

#include "auth/secure_random.h"
#include "base/logging.h"
#include "base/private_file.h"
#include "broker/client/kafka_client_config.h"
#include "catalog/catalog_store_move.h"
#include "catalog/open_catalog.h"
#include "generator/ledger.h"
#include "generator/order_event.h"
#include "generator/payment_event.h"
#include "generator/shipment_event.h"
#include "stream/stream_runner.h"
#include "up/broker_role.h"
#include "up/catalog_role.h"
#include "up/generator_role.h"
#include "up/process_role.h"
#include "up/query_role.h"
#include "up/registry_role.h"
#include "up/stream_role.h"

namespace floe::up {
namespace {

std::string HostPortText(const std::string& host, int port) { return fmt::format("{}:{}", host, port); }

std::string AbsolutePath(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::absolute(path, ignored).lexically_normal().string();
}

// What the map shows for the stream job child.
std::string StreamJobDescription(const StreamSettings& s) {
  return fmt::format("topic orders into shop.orders every {} ms, partitioned by {}, files up to {} MB, compaction {}",
                     s.trigger_millis, PartitionText(s), s.target_file_size_mb,
                     s.compaction ? fmt::format("to {} MB", s.compaction_target_mb) : "off");
}

// What the map shows for a linked topic's job child.
std::string LinkedJobDescription(const LinkedTopic& linked, const StreamSettings& s) {
  return fmt::format("topic {} into {} every {} ms, partitioned by {}", linked.topic, linked.table, s.trigger_millis,
                     PartitionText(s));
}

// The linked topic whose job is `job`, or null.
const LinkedTopic* LinkedJob(std::string_view job) {
  for (const LinkedTopic& linked : kLinkedTopics) {
    if (linked.job == job) return &linked;
  }
  return nullptr;
}

// `floe stream` reading `config`'s topic into its table, the schema from `schema_path`: what
// every stream job's child starts from; each adds its own flags.
std::vector<std::string> StreamChildArgv(const std::string& floe_binary, const stream::StreamConfig& config,
                                         const std::string& schema_path) {
  return {floe_binary, "stream",     "--brokers",        config.brokers,       "--topic",     config.topic,
          "--table",   config.table, "--catalog",        config.catalog,       "--warehouse", config.warehouse,
          "--schema",  schema_path,  "--timestamp-unit", config.timestamp_unit};
}

// With --processes each worker of the stream job is a `floe stream` child of the job's consumer
// group, named as the in-process workers are, so the console tells them apart in the group; as
// in-process, only the first maintains the table (two compacting it at once would only conflict).
std::vector<std::string> StreamWorkerArgv(std::vector<std::string> argv, int worker) {
  if (worker > 1) {
    for (size_t i = 0; i + 1 < argv.size(); ++i) {
      if (argv[i] == "--maintenance-interval") argv[i + 1] = "0ms";
    }
  }
  argv.push_back("--consumer-config");
  argv.push_back("client.id=" + StreamRole::WorkerClientId(worker));
  return argv;
}

// The console and `floe up` call the stream job "stream job"; "stream" is accepted too.
std::string_view CanonicalRole(std::string_view role) { return role == "stream" ? "stream job" : role; }

}  // namespace

Pipeline::Pipeline(UpOptions options)
    : options_(std::move(options)), faults_(std::make_shared<StorageFaults>()) {
  catalog_backend_ = options_.catalog_backend.empty() ? DefaultCatalogBackend() : options_.catalog_backend;
  for (const LinkedTopic& linked : kLinkedTopics) {
    // A few events a second: a file a day's partition per commit is plenty.
    StreamSettings settings = options_.stream;
    settings.partition = {"day(ts)"};
    settings.workers = 1;
    linked_settings_[std::string(linked.job)] = settings;
  }
  ConsoleSources sources{
      .brokers = HostPortText(options_.host, options_.broker_port), .catalog = CatalogUrls(), .warehouse = Warehouse()};
  for (const LinkedTopic& linked : kLinkedTopics) {
    sources.linked_tables.push_back({std::string(linked.topic), std::string(linked.table), std::string(linked.job)});
  }
  console_ = std::make_unique<PipelineConsole>(*this, std::move(sources));
}

Pipeline::~Pipeline() {
  Stop();
  console_.reset();
}

std::vector<std::unique_ptr<Role>> Pipeline::MakeInProcessRoles() {
  std::vector<std::unique_ptr<Role>> roles;
  broker::BrokerConfig broker_config;
  broker_config.listen = {options_.host, static_cast<uint16_t>(options_.broker_port)};
  broker_config.data_dir = options_.data + "/broker";
  broker_config.default_partitions = options_.partitions;
  broker_config.users = users_;
  broker_config.tls = {options_.tls_cert, options_.tls_key};
  std::string metrics =
      options_.broker_metrics_port < 0 ? "" : HostPortText(options_.broker_metrics_host, options_.broker_metrics_port);
  roles.push_back(std::make_unique<BrokerRole>(broker_config, metrics));
  std::string backend = catalog_backend();
  roles.push_back(std::make_unique<CatalogRole>(options_.catalog_host, options_.catalog_port, backend, Warehouse(),
                                                users_, net::TlsFiles{options_.tls_cert, options_.tls_key}));
  if (options_.catalog_replica_port >= 0) {
    roles.push_back(std::make_unique<CatalogRole>(
        options_.catalog_replica_host, options_.catalog_replica_port, backend, Warehouse(), users_,
        net::TlsFiles{options_.tls_cert, options_.tls_key}, std::string(kCatalogReplica)));
  }
  roles.push_back(std::make_unique<RegistryRole>(options_.registry_host, options_.registry_port,
                                                 HostPortText(options_.host, options_.broker_port), users_,
                                                 net::TlsFiles{options_.tls_cert, options_.tls_key}));
  auto stream = std::make_unique<StreamRole>(StreamConfigFor());
  stream->set_workers(static_cast<int>(options_.stream.workers));
  roles.push_back(std::move(stream));
  roles.push_back(std::make_unique<StreamRole>(OrderStateConfigFor(), "state job"));
  for (const LinkedTopic& linked : kLinkedTopics) {
    roles.push_back(std::make_unique<StreamRole>(LinkedTopicConfigFor(linked), std::string(linked.job)));
  }
  roles.push_back(MakeQueryRole());
  return roles;
}

// The query server runs in this process in both modes: it serves the console, which drives the
// pipeline through control().
std::unique_ptr<Role> Pipeline::MakeQueryRole() {
  serve::QueryServerOptions query;
  query.host = options_.query_host;
  query.http_port = static_cast<uint16_t>(options_.query_port);
  query.pg_host = options_.pg_host;
  query.pg_port = static_cast<uint16_t>(options_.pg_port);
  query.web_root = serve::StaticFiles::FindDefaultRoot();
  query.pg.users = users_;
  query.tls = {options_.tls_cert, options_.tls_key};
  std::string catalog = options_.processes ? "" : CatalogUrls();
  return std::make_unique<QueryRole>(query, catalog, Warehouse(), &control());
}

nlohmann::json Pipeline::Endpoints() const {
  bool tls = !options_.tls_cert.empty();
  return {{"brokers", HostPortText(options_.host, options_.broker_port)},
          {"catalog", CatalogUrl()},
          {"catalog_backend", CatalogBackendShown()},
          {"warehouse", Warehouse()},
          {"query_http",
           fmt::format("{}://{}", tls ? "https" : "http", HostPortText(options_.query_host, options_.query_port))},
          {"postgres", HostPortText(options_.pg_host, options_.pg_port)},
          {"registry", RegistryUrl()},
          {"topic", "orders"},
          {"table", "shop.orders"},
          {"partitions", options_.partitions},
          {"authentication", !options_.auth_file.empty()},
          {"tls", tls}};
}

std::string Pipeline::Warehouse() const { return "file://" + AbsolutePath(options_.data + "/warehouse"); }

stream::StreamConfig Pipeline::StreamConfigFor() const {
  stream::StreamConfig config;
  config.brokers = HostPortText(options_.host, options_.broker_port);
  config.topic = "orders";
  config.table = "shop.orders";
  config.catalog = CatalogUrls();
  config.warehouse = Warehouse();
  config.schema_json = std::string(generator::OrdersSchemaJson(/*line_items=*/true));
  config.timestamp_unit = "ms";
  ApplyStreamSettings(options_.stream, &config);
  // Producers may publish the orders as JSON or Confluent-framed (Avro registered in this
  // pipeline's registry); the job and fresh reads tell them apart per record.
  config.format = "auto";
  config.registry = RegistryUrl();
  return config;
}

std::string Pipeline::RegistryUrl() const {
  std::string host = options_.registry_host;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host == "::") host = "::1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return fmt::format("{}://{}", options_.tls_cert.empty() ? "http" : "https",
                     HostPortText(host, options_.registry_port));
}

stream::StreamConfig Pipeline::OrderStateConfigFor() const {
  stream::StreamConfig config = StreamConfigFor();
  config.table = "shop.order_state";
  config.partition.clear();  // A keyed table is partitioned by its key or not at all.
  config.evolve_partition_spec = false;  // Its spec stays what it was made with.
  config.key_columns = {"order_id"};
  // Upsert mode reads JSON change events only.
  config.format = "json";
  config.registry.clear();
  return config;
}

stream::StreamConfig Pipeline::LinkedTopicConfigFor(const LinkedTopic& linked) const {
  stream::StreamConfig config = StreamConfigFor();
  config.topic = std::string(linked.topic);
  config.table = std::string(linked.table);
  config.schema_json = std::string(linked.schema_json());
  // Its own settings; a new partition spec is partition evolution, as for the orders.
  ApplyStreamSettings(linked_settings_.at(std::string(linked.job)), &config);
  config.format = "json";
  config.registry.clear();
  return config;
}

std::vector<std::unique_ptr<Role>> Pipeline::MakeProcessRoles() {
  std::vector<std::unique_ptr<Role>> roles;
  std::string brokers = HostPortText(options_.host, options_.broker_port);
  std::string logs = options_.data + "/logs";
  std::filesystem::create_directories(logs);
  std::vector<std::string> broker_argv = {
      options_.floe_binary, "broker", "--listen", brokers, "--data", options_.data + "/broker", "--partitions",
      std::to_string(options_.partitions), "--metrics-listen",
      options_.broker_metrics_port < 0 ? "" : HostPortText(options_.broker_metrics_host, options_.broker_metrics_port)};
  std::vector<std::string> catalog_argv = {
      options_.floe_binary, "catalog",
      "--listen",           HostPortText(options_.catalog_host, options_.catalog_port),
      "--backend",          catalog_backend(),
      "--warehouse",        Warehouse()};
  std::vector<std::string> registry_argv = {options_.floe_binary, "registry", "--listen",
                                            HostPortText(options_.registry_host, options_.registry_port), "--brokers",
                                            brokers};
  for (auto* argv : {&broker_argv, &catalog_argv, &registry_argv}) {
    if (!users_.empty()) argv->insert(argv->end(), {"--auth-file", auth_copy_});
    // floe up checked its listeners already (a non-loopback bind without users needed its own
    // --insecure-bind); its children take that decision as made.
    if (users_.empty()) argv->push_back("--insecure-bind");
    if (!options_.tls_cert.empty()) {
      argv->insert(argv->end(),
                   {"--tls-cert", AbsolutePath(options_.tls_cert), "--tls-key", AbsolutePath(options_.tls_key)});
    }
  }
  roles.push_back(std::make_unique<ProcessRole>("broker", "Kafka protocol on " + brokers, std::move(broker_argv),
                                                logs + "/broker.log", options_.host, options_.broker_port));
  std::vector<std::string> replica_argv = catalog_argv;
  replica_argv[3] = HostPortText(options_.catalog_replica_host, options_.catalog_replica_port);  // --listen
  roles.push_back(std::make_unique<ProcessRole>(
      "catalog", fmt::format("Iceberg REST catalog on {}", CatalogUrl()),
      std::move(catalog_argv), logs + "/catalog.log", options_.catalog_host, options_.catalog_port));
  if (options_.catalog_replica_port >= 0) {
    roles.push_back(
        std::make_unique<ProcessRole>(std::string(kCatalogReplica),
                                      fmt::format("a second Iceberg REST catalog on {}:{}, same database",
                                                  options_.catalog_replica_host, options_.catalog_replica_port),
                                      std::move(replica_argv), logs + "/catalog-replica.log",
                                      options_.catalog_replica_host, options_.catalog_replica_port));
  }
  roles.push_back(std::make_unique<ProcessRole>(
      "registry", fmt::format("Schema Registry on {}:{}", options_.registry_host, options_.registry_port),
      std::move(registry_argv), logs + "/registry.log", options_.registry_host, options_.registry_port));
  // The child reads the table's schema from a file; the same schema the in-process job embeds.
  stream::StreamConfig stream = StreamConfigFor();
  std::string schema_path = options_.data + "/orders.schema.json";
  std::ofstream(schema_path) << stream.schema_json;
  std::vector<std::string> stream_argv = StreamChildArgv(options_.floe_binary, stream, schema_path);
  stream_argv.insert(stream_argv.end(), {"--format", stream.format, "--registry", stream.registry});
  for (auto& [flag, value] : StreamSettingsArguments(options_.stream)) {
    stream_argv.push_back(flag);
    stream_argv.push_back(value);
  }
  for (const std::string& partition : stream.partition) {
    stream_argv.push_back("--partition");
    stream_argv.push_back(partition);
  }
  stream_argv.push_back("--evolve-partition");
  stream::StreamConfig state = OrderStateConfigFor();
  std::vector<std::string> state_argv = StreamChildArgv(options_.floe_binary, state, schema_path);
  state_argv.insert(state_argv.end(), {"--trigger", fmt::format("{}ms", state.trigger.interval_millis), "--mode",
                                       "upsert", "--key", state.key_columns[0]});
  auto stream_job = std::make_unique<ProcessRole>("stream job", StreamJobDescription(options_.stream),
                                                  std::move(stream_argv), logs + "/stream.log", options_.host, -1);
  stream_job->SetCopies(static_cast<int>(options_.stream.workers), StreamWorkerArgv);
  roles.push_back(std::move(stream_job));
  roles.push_back(std::make_unique<ProcessRole>(
      "state job", fmt::format("topic {} into {} (upserts by {}) every {} ms", state.topic, state.table,
                               state.key_columns[0], state.trigger.interval_millis),
      std::move(state_argv), logs + "/state.log", options_.host, -1));
  for (const LinkedTopic& linked : kLinkedTopics) {
    stream::StreamConfig config = LinkedTopicConfigFor(linked);
    std::string linked_schema_path = fmt::format("{}/{}.schema.json", options_.data, linked.topic);
    std::ofstream(linked_schema_path) << config.schema_json;
    std::vector<std::string> argv = StreamChildArgv(options_.floe_binary, config, linked_schema_path);
    argv.insert(argv.end(), {"--trigger", fmt::format("{}ms", config.trigger.interval_millis), "--partition",
                             config.partition[0], "--evolve-partition"});
    roles.push_back(std::make_unique<ProcessRole>(
        std::string(linked.job), LinkedJobDescription(linked, linked_settings_.at(std::string(linked.job))),
        std::move(argv), fmt::format("{}/{}.log", logs, linked.topic), options_.host, -1));
  }
  roles.push_back(MakeQueryRole());
  if (options_.traffic >= 0) {
    roles.push_back(std::make_unique<ProcessRole>(
        "generator",
        fmt::format(
            "{} order events/s into topic orders, their payments and shipments into topics payments and shipments",
            options_.traffic),
        std::vector<std::string>{options_.floe_binary, "produce", "--brokers", brokers, "--topic", "orders", "--rate",
                                 fmt::format("{}", options_.traffic), "--malformed-rate",
                                 fmt::format("{}", options_.malformed_rate), "--ledger", options_.data + "/ledger.json",
                                 "--line-items", "--payments-topic", std::string(kLinkedTopics[0].topic),
                                 "--shipments-topic", std::string(kLinkedTopics[1].topic)},
        logs + "/generator.log", options_.host, -1));
  }
  return roles;
}

std::string Pipeline::CatalogUrl() const {
  return fmt::format("{}://{}:{}", options_.tls_cert.empty() ? "http" : "https", options_.catalog_host, options_.catalog_port);
}

std::string Pipeline::CatalogUrls() const {
  if (options_.catalog_replica_port < 0) return CatalogUrl();
  return fmt::format("{},{}://{}:{}", CatalogUrl(), options_.tls_cert.empty() ? "http" : "https",
                     options_.catalog_replica_host, options_.catalog_replica_port);
}

Status Pipeline::ConfigureClients() {
  bool tls = !options_.tls_cert.empty();
  std::vector<std::string> properties;  // librdkafka settings, "key=value"
  if (!options_.auth_file.empty()) {
    FLOE_ASSIGN_OR_RETURN_CTX(users_, auth::LoadAuthFile(options_.auth_file), "--auth-file");
    if (users_.empty()) {
      return InvalidArgument("--auth-file {} names no user; the pipeline's own clients need one", options_.auth_file);
    }
    // The pipeline's own clients (stream job, generator, fresh reads, the console's probe) get
    // in as a user of their own, with a random password made for this run: the auth file
    // holds verifiers, from which no password can be recovered. It is an admin, as the stream
    // job creates its table and topic.
    if (auth::FindUser(users_, kPipelineUser) != nullptr) {
      return InvalidArgument("{} names user {}, which floe up keeps for its own clients", options_.auth_file, kPipelineUser);
    }
    FLOE_ASSIGN_OR_RETURN(std::string random, auth::SecureRandomBytes(24));
    std::string password;
    for (unsigned char b : random) password += fmt::format("{:02x}", b);
    FLOE_ASSIGN_OR_RETURN(auth::AuthUser self, auth::MakeAuthUser(std::string(kPipelineUser), password, "admin"));
    users_.push_back(self);
    properties.insert(properties.end(), {std::string("security.protocol=") + (tls ? "SASL_SSL" : "SASL_PLAINTEXT"),
                                         "sasl.mechanism=SCRAM-SHA-256", "sasl.username=" + self.name,
                                         "sasl.password=" + password});
    // The REST catalog client exchanges this for a token (catalog/rest_catalog.h). It goes in a
    // file only the owner reads, never in the environment the roles inherit.
    std::string credential_path = AbsolutePath(options_.data + "/catalog-credential");
    FLOE_RETURN_IF_ERROR(WritePrivateFile(credential_path, self.name + ":" + password + "\n"));
    ::setenv("FLOE_CATALOG_CREDENTIAL_FILE", credential_path.c_str(), 1);
    // The jobs' and fresh reads' Schema Registry clients log in with it too (HTTP basic).
    ::setenv("FLOE_REGISTRY_CREDENTIAL_FILE", credential_path.c_str(), 1);
    // The broker and catalog children read the users from this copy, which adds the pipeline's
    // user; verifiers only (the PostgreSQL port, the one place a plaintext password serves,
    // is in this process).
    std::vector<auth::AuthUser> copy = users_;
    for (auth::AuthUser& user : copy) {
      user.password.clear();
      user.method = "scram-sha-256";
    }
    auth_copy_ = AbsolutePath(options_.data + "/auth.toml");
    FLOE_RETURN_IF_ERROR_CTX(auth::SaveAuthFile(auth_copy_, copy), "writing the children's auth file");
  } else if (tls) {
    properties.emplace_back("security.protocol=SSL");
  }
  if (tls) {
    if (options_.tls_key.empty()) return InvalidArgument("--tls-cert needs --tls-key");
    std::string cert = AbsolutePath(options_.tls_cert);
    properties.push_back("ssl.ca.location=" + cert);
    // floe's HTTP clients (the catalog's, in this process and the children) trust it too.
    ::setenv("SSL_CERT_FILE", cert.c_str(), 1);
  }
  if (properties.empty()) return OkStatus();
  // The stream job, the generator, fresh reads and the console's probe read their Kafka
  // settings from this file, in this process and in the children, which inherit the
  // environment. It may hold a password, so it is created readable by its owner alone.
  std::string path = AbsolutePath(options_.data + "/kafka-client.properties");
  std::string text = "# Written by `floe up`: how the pipeline's own Kafka clients connect.\n";
  for (const std::string& line : properties) text += line + "\n";
  FLOE_RETURN_IF_ERROR(WritePrivateFile(path, text));
  ::setenv(std::string(broker::kKafkaClientConfigVariable).c_str(), path.c_str(), 1);
  return OkStatus();
}

Status Pipeline::Start() {
  FLOE_RETURN_IF_ERROR(ValidateStreamSettings(options_.stream));
  if (options_.processes && catalog::RedactCatalogUri(catalog_backend()) != catalog_backend()) {
    return CodedError(ErrorCode::kInvalidCatalogBackend,
                      "--catalog-backend: with --processes the store is the catalog child's argument, where a "
                      "password would be visible to every local user; put it in ~/.pgpass (or PGPASSFILE)");
  }
  std::error_code error;
  std::filesystem::create_directories(options_.data, error);
  if (error) return IoError("creating data folder {}: {}", options_.data, error.message());
  FLOE_RETURN_IF_ERROR(ConfigureClients());

  // Every store the roles open from here on can be given the playground's faults.
  if (!options_.processes) faults_->Install();
  std::vector<std::unique_ptr<Role>> roles = options_.processes ? MakeProcessRoles() : MakeInProcessRoles();
  std::unique_lock lock(mutex_);
  for (auto& role : roles) {
    // Held down from the start: a paused generator (`floe produce --rate 0` would mean
    // unlimited), and the catalog replica, which the playground brings up.
    if ((options_.processes && role->name() == "generator" && options_.traffic == 0) ||
        role->name() == kCatalogReplica) {
      held_down_.insert(std::string(role->name()));
      started_.push_back(std::move(role));
      continue;
    }
    if (auto status = role->Start(); !status) {
      for (auto it = started_.rbegin(); it != started_.rend(); ++it) (*it)->Stop();
      started_.clear();
      return status;
    }
    started_.push_back(std::move(role));
  }
  if (!options_.processes && options_.traffic >= 0) {
    auto* broker_role = static_cast<BrokerRole*>(started_.front().get());
    auto generator_role = std::make_unique<GeneratorRole>(
        broker_role->bootstrap(),
        generator::ProduceOptions{.topic = "orders",
                                  .rate = options_.traffic,
                                  .ledger_path = options_.data + "/ledger.json",
                                  .payments_topic = std::string(kLinkedTopics[0].topic),
                                  .shipments_topic = std::string(kLinkedTopics[1].topic)},
        options_.malformed_rate);
    if (auto status = generator_role->Start(); !status) {
      for (auto it = started_.rbegin(); it != started_.rend(); ++it) (*it)->Stop();
      started_.clear();
      return status;
    }
    started_.push_back(std::move(generator_role));
  }
  if (options_.processes) supervisor_ = std::thread([this] { Supervise(); });
  if (auto* query = dynamic_cast<QueryRole*>(Find("query server"))) {
    // The reconciliation's "queryable": count(*) through the engine, like any client.
    console_->SetRowCounter([query](std::string_view table, std::string_view where, std::string_view freshness) {
      return query->CountRows(table, where, freshness);
    });
  }
  lock.unlock();
  console_->Start();
  return OkStatus();
}

void Pipeline::Supervise() {
  auto log = Logger("up");
  while (!stopping_.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    std::lock_guard lock(mutex_);
    for (auto& role : started_) {
      auto* process = dynamic_cast<ProcessRole*>(role.get());
      if (process == nullptr) continue;  // The query server, in this process.
      if (stopping_.load() || held_down_.contains(process->name()) || process->Running()) continue;
      log->warn("{} exited; restarting it", process->name());
      process->CountRestart();
      if (auto status = process->Start(); !status) log->error("{}", status.error().ToString());
    }
  }
}

void Pipeline::Stop() {
  console_->Stop();
  console_->SetRowCounter(nullptr);
  stopping_.store(true);
  if (supervisor_.joinable()) supervisor_.join();
  std::lock_guard lock(mutex_);
  // The generator first, so every message it sent is acknowledged before the broker stops.
  while (!started_.empty()) {
    started_.back()->Stop();
    started_.pop_back();
  }
  if (!options_.processes) StorageFaults::Uninstall();
}

Role* Pipeline::Find(std::string_view role) const {
  for (const auto& r : started_) {
    if (r->name() == CanonicalRole(role)) return r.get();
  }
  return nullptr;
}

Status Pipeline::TakeDown(std::string_view role) {
  std::lock_guard lock(mutex_);
  Role* found = Find(role);
  if (found == nullptr) return NotFound("no running role named '{}'", role);
  if (found->name().find("query") != std::string_view::npos) {
    return InvalidArgument("the {} serves this console; stop floe up to stop it", found->name());
  }
  if (held_down_.contains(found->name())) return OkStatus();
  held_down_.insert(std::string(found->name()));
  if (options_.processes) {
    static_cast<ProcessRole*>(found)->Kill();
  } else {
    found->Stop();
  }
  return OkStatus();
}

Status Pipeline::BringUp(std::string_view role) {
  std::lock_guard lock(mutex_);
  Role* found = Find(role);
  if (found == nullptr) return NotFound("no role named '{}'", role);
  auto it = held_down_.find(found->name());
  if (auto* process = dynamic_cast<ProcessRole*>(found); process != nullptr) {
    if (it != held_down_.end()) held_down_.erase(it);
    if (process->Running()) return OkStatus();
    return process->Start();
  }
  if (it == held_down_.end()) return OkStatus();  // Already running.
  FLOE_RETURN_IF_ERROR_CTX(found->Start(), fmt::format("bringing the {} up", found->name()));
  held_down_.erase(it);
  return OkStatus();
}

Status Pipeline::RewireStream(const nlohmann::json& request) {
  nlohmann::json patch = request;
  std::string target = "stream job";
  if (patch.is_object() && patch.contains("job")) {
    if (!patch["job"].is_string()) {
      return InvalidArgument("job must be one of \"stream job\", \"payments job\", \"shipments job\"");
    }
    target = std::string(CanonicalRole(patch["job"].get<std::string>()));
    patch.erase("job");
  }
  if (target != "stream job") return RewireLinkedJob(target, patch);
  std::lock_guard lock(mutex_);
  FLOE_ASSIGN_OR_RETURN(StreamSettings next, ApplyStreamSettingsPatch(options_.stream, patch));
  Role* found = Find("stream job");
  if (found == nullptr) return NotFound("no stream job runs in this pipeline");
  options_.stream = next;
  bool running = !held_down_.contains(found->name());
  if (options_.processes) {
    auto* process = static_cast<ProcessRole*>(found);
    for (auto& [flag, value] : StreamSettingsArguments(next)) process->SetArgument(flag, value);
    process->SetRepeatedArgument("--partition", next.partition);
    process->SetCopies(static_cast<int>(next.workers), StreamWorkerArgv);
    process->set_describe(StreamJobDescription(next));
    if (!running) return OkStatus();
    // A clean stop (SIGTERM): the child finishes or abandons its batch and exits; the next one
    // resumes from the table's recorded offsets.
    process->Stop();
    return process->Start();
  }
  auto* job = static_cast<StreamRole*>(found);
  if (running) job->Stop();  // Between batches: what it has committed is in the table's offsets.
  job->set_config(StreamConfigFor());
  job->set_workers(static_cast<int>(next.workers));
  if (!running) return OkStatus();
  return job->Start();
}

Status Pipeline::RewireLinkedJob(const std::string& job, const nlohmann::json& patch) {
  const LinkedTopic* linked = LinkedJob(job);
  if (linked == nullptr) {
    return InvalidArgument("no stream job named '{}' (expected \"stream job\", \"payments job\" or \"shipments job\")",
                           job.substr(0, 64));
  }
  std::lock_guard lock(mutex_);
  StreamSettings& settings = linked_settings_.at(job);
  FLOE_ASSIGN_OR_RETURN(StreamSettings next, ApplyStreamSettingsPatch(settings, patch, linked->schema_json()));
  Role* found = Find(job);
  if (found == nullptr) return NotFound("no {} runs in this pipeline", job);
  settings = next;
  bool running = !held_down_.contains(found->name());
  if (options_.processes) {
    auto* process = static_cast<ProcessRole*>(found);
    for (auto& [flag, value] : StreamSettingsArguments(next)) process->SetArgument(flag, value);
    process->SetRepeatedArgument("--partition", next.partition);
    process->SetCopies(static_cast<int>(next.workers), StreamWorkerArgv);
    process->set_describe(LinkedJobDescription(*linked, next));
    if (!running) return OkStatus();
    process->Stop();
    return process->Start();
  }
  auto* role = static_cast<StreamRole*>(found);
  if (running) role->Stop();  // Between batches: what it has committed is in its table's offsets.
  role->set_config(LinkedTopicConfigFor(*linked));
  role->set_workers(static_cast<int>(next.workers));
  if (!running) return OkStatus();
  return role->Start();
}

StreamSettings Pipeline::stream_settings(std::string_view job) const {
  std::lock_guard lock(mutex_);
  if (auto it = linked_settings_.find(job); it != linked_settings_.end()) return it->second;
  return options_.stream;
}

std::vector<RoleState> Pipeline::RoleStates() const {
  std::lock_guard lock(mutex_);
  std::vector<RoleState> states;
  for (const auto& role : started_) {
    // The query server serves the console itself: it stays up.
    bool serves_console = role->name().find("query") != std::string_view::npos;
    RoleState state{.name = std::string(role->name()), .state = "running", .describe = role->Describe(),
                    .can_take_down = !serves_console};
    if (held_down_.contains(role->name())) {
      state.state = "down";
    } else if (auto* process = dynamic_cast<ProcessRole*>(role.get()); process != nullptr) {
      state.restarts = process->restarts();
      if (!process->Running()) state.state = "restarting";
    }
    states.push_back(std::move(state));
  }
  for (const auto& role : missing_) {
    states.push_back({.name = role.name, .state = "missing",
                      .describe = fmt::format("not built yet (issue #{}): {}", role.issue, role.describe)});
  }
  return states;
}

Status Pipeline::SetTraffic(double events_per_second) {
  if (!(events_per_second >= 0) || events_per_second > 1e6) {
    return InvalidArgument("traffic must be between 0 and 1000000 events/s, not {}", events_per_second);
  }
  std::lock_guard lock(mutex_);
  if (options_.processes) {
    // The child's rate is an argument: stop it cleanly (its ledger is written and continued by
    // the next one) and start it again at the new rate; at zero it stays stopped.
    auto* generator = static_cast<ProcessRole*>(Find("generator"));
    if (generator == nullptr) return NotFound("the generator is off (floe up --traffic off)");
    options_.traffic = events_per_second;
    generator->Stop();
    if (events_per_second == 0) {
      held_down_.insert("generator");
      return OkStatus();
    }
    held_down_.erase("generator");
    generator->SetArgument("--rate", fmt::format("{}", events_per_second));
    return generator->Start();
  }
  auto* generator = static_cast<GeneratorRole*>(Find("generator"));
  if (generator == nullptr) return NotFound("the generator is off (floe up --traffic off)");
  generator->SetRate(events_per_second);
  return OkStatus();
}

Status Pipeline::Burst(int64_t events) {
  if (events <= 0 || events > 1'000'000) return InvalidArgument("a burst is 1 to 1000000 events, not {}", events);
  if (options_.processes) return NotImplemented("with --processes the generator takes no bursts; raise the traffic");
  std::lock_guard lock(mutex_);
  auto* generator = static_cast<GeneratorRole*>(Find("generator"));
  if (generator == nullptr) return NotFound("the generator is off (floe up --traffic off)");
  return generator->Burst(events);
}

Result<std::string> Pipeline::SendMarker() {
  if (options_.processes)
    return NotImplemented("with --processes the generator is a child process and sends no markers");
  std::future<Result<std::string>> marker;
  {
    std::lock_guard lock(mutex_);
    auto* generator = static_cast<GeneratorRole*>(Find("generator"));
    if (generator == nullptr) return NotFound("the generator is off (floe up --traffic off)");
    if (held_down_.contains(generator->name())) return Unavailable("the generator is down; bring it up first");
    FLOE_ASSIGN_OR_RETURN(marker, generator->RequestMarker());
  }
  // Outside the lock: the loop takes it within a few milliseconds, unless it is stopping, in
  // which case it answers Unavailable itself.
  if (marker.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    return Unavailable("the generator did not send the marker within 10 s");
  }
  return marker.get();
}

nlohmann::json Pipeline::GeneratorNumbers() const {
  std::string ledger_path = options_.data + "/ledger.json";
  nlohmann::json out = {{"topic", "orders"}, {"ledger_path", ledger_path}, {"state", "off"}};
  // Per topic: the orders, then each linked topic.
  std::map<std::string, generator::PartitionLedger> totals;
  bool have_ledger = false;
  {
    std::lock_guard lock(mutex_);
    out["rate"] = std::max(0.0, options_.traffic);
    out["paused"] = options_.traffic == 0;
    auto* role = Find("generator");
    if (role != nullptr) out["state"] = held_down_.contains(role->name()) ? "down" : "running";
    if (role != nullptr && !options_.processes) {
      auto* generator = static_cast<GeneratorRole*>(role);
      out["rate"] = generator->rate();
      out["paused"] = generator->rate() == 0;
      out["sent"] = generator->sent();
      totals["orders"] = generator->ledger().Total("orders");
      for (const LinkedTopic& linked : kLinkedTopics) {
        totals[std::string(linked.topic)] = generator->ledger().Total(linked.topic);
      }
      have_ledger = true;
    }
  }
  if (!have_ledger) {
    // A child process writes its ledger every second (a whole file: it renames a written one).
    generator::Ledger ledger;
    std::error_code error;
    if (std::filesystem::exists(ledger_path, error) && ledger.Resume(ledger_path, "orders")) {
      totals["orders"] = ledger.Total("orders");
      out["sent"] = totals["orders"].acked + totals["orders"].failed;
      for (const LinkedTopic& linked : kLinkedTopics) {
        totals[std::string(linked.topic)] = ledger.Total(linked.topic);
      }
    }
  }
  auto numbers = [](const generator::PartitionLedger& total) {
    return nlohmann::json{{"acknowledged", total.acked},
                          {"acknowledged_valid", total.acked_valid},
                          {"acknowledged_malformed", total.acked_malformed},
                          {"failed", total.failed}};
  };
  out.update(numbers(totals["orders"]));
  out["topics"] = nlohmann::json::object();
  for (const LinkedTopic& linked : kLinkedTopics) {
    out["topics"][std::string(linked.topic)] = numbers(totals[std::string(linked.topic)]);
  }
  return out;
}

nlohmann::json Pipeline::StreamCounters() const {
  std::lock_guard lock(mutex_);
  auto* role = Find("stream job");
  if (role == nullptr || options_.processes) return nlohmann::json::object();
  MetricsRegistry& metrics = static_cast<StreamRole*>(role)->metrics();
  // The same families the job registers; asking creates nothing new.
  Histogram& commits = metrics.GetHistogram("floe_stream_commit_seconds", "Time to write and commit one batch");
  return {
      {"batches", commits.count()},
      {"commit_seconds_mean", commits.count() > 0 ? commits.sum() / static_cast<double>(commits.count()) : 0.0},
      {"records_in", metrics.GetCounter("floe_stream_records_in_total", "Records read from Kafka").value()},
      {"rows_committed", metrics.GetCounter("floe_stream_rows_committed_total", "Rows committed to the table").value()},
      {"dead_letters",
       metrics.GetCounter("floe_stream_dead_letters_total", "Records sent to the dead-letter table").value()},
      {"conflicts", metrics
                        .GetCounter("floe_stream_commit_conflicts_total",
                                    "Batches discarded because the table's offsets moved (re-read, not lost)")
                        .value()},
  };
}

size_t Pipeline::running_roles() const {
  std::lock_guard lock(mutex_);
  return started_.size();
}

std::string Pipeline::StatusTable() const {
  std::lock_guard lock(mutex_);
  std::string out = fmt::format("floe up: data under {}{}\n", options_.data,
                                options_.processes ? ", one process per role" : "");
  for (const auto& role : started_) out += fmt::format("  {:<13} {}\n", role->name(), role->Describe());
  for (const auto& role : missing_) {
    out += fmt::format("  {:<13} not built yet (issue #{}): {}\n", role.name, role.issue, role.describe);
  }
  return out;
}

std::string Pipeline::DefaultCatalogBackend() const { return "sqlite:" + options_.data + "/catalog.db"; }

std::string Pipeline::catalog_backend() const {
  std::lock_guard lock(backend_mutex_);
  return catalog_backend_;
}

std::string Pipeline::CatalogBackendShown() const {
  std::string backend = catalog_backend();
  // A relative SQLite path is shown absolute: a client elsewhere needs the whole path.
  if (backend.starts_with("sqlite:") && !backend.starts_with("sqlite://"))
    return "sqlite:" + AbsolutePath(backend.substr(7));
  return catalog::RedactCatalogUri(backend);
}

nlohmann::json Pipeline::CatalogStore() const {
  std::string shown = CatalogBackendShown();
  std::lock_guard lock(backend_mutex_);
  return {{"backend", shown},
          {"kind", catalog_backend_.starts_with("sqlite:") ? "sqlite" : "postgresql"},
          {"default_backend", "sqlite:" + AbsolutePath(options_.data + "/catalog.db")},
          {"last_switch", last_backend_switch_}};
}

Result<nlohmann::json> Pipeline::SwitchCatalogBackend(std::string_view requested) {
  std::string target(requested);
  while (!target.empty() && std::isspace(static_cast<unsigned char>(target.back()))) target.pop_back();
  while (!target.empty() && std::isspace(static_cast<unsigned char>(target.front()))) target.erase(0, 1);
  if (target == "sqlite") target = DefaultCatalogBackend();
  if (!target.starts_with("sqlite:") && !target.starts_with("postgresql://") && !target.starts_with("postgres://")) {
    return CodedError(ErrorCode::kInvalidCatalogBackend,
                      "catalog backend '{}': expected \"sqlite\", sqlite:PATH or "
                      "postgresql://user:password@host:port/database",
                      catalog::RedactCatalogUri(target));
  }
  if (options_.processes && catalog::RedactCatalogUri(target) != target) {
    // The catalog children take their store as an argument, which any local user can read in
    // /proc; libpq reads a password from ~/.pgpass (or PGPASSFILE) instead.
    return CodedError(ErrorCode::kInvalidCatalogBackend,
                      "with --processes the catalog's store is a child's argument, where a password would be "
                      "visible to every local user: put the password in ~/.pgpass (or PGPASSFILE) and give the "
                      "URI without it");
  }
  auto log = Logger("up");
  std::lock_guard lock(mutex_);
  std::string current = catalog_backend();
  std::string from_shown = CatalogBackendShown();
  std::string to_shown = catalog::RedactCatalogUri(target);
  nlohmann::json report = {{"from", from_shown}, {"to", to_shown}, {"ok", false}};
  auto remember = [&](const nlohmann::json& outcome) {
    std::lock_guard backend_lock(backend_mutex_);
    last_backend_switch_ = outcome;
    last_backend_switch_["time_ms"] =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
  };
  auto fail = [&](Error error) -> Result<nlohmann::json> {
    report["error"] = error.message();
    report["code"] = std::string(ErrorCodeName(error.code()));
    remember(report);
    log->error("catalog store switch {} -> {} failed: {}", from_shown, to_shown, error.message());
    return std::unexpected(std::move(error));
  };
  if (target == current) {
    report["ok"] = true;
    report["moved"] = false;
    return report;
  }
  // Reach the new store before anything stops: a typo, or a server that is not there, leaves
  // the catalog up on its old store.
  auto to = catalog::OpenSqlCatalog(target);
  if (!to) return fail(std::move(to).error());

  std::vector<Role*> servers;
  std::vector<Role*> running;
  for (std::string_view name : {std::string_view("catalog"), kCatalogReplica}) {
    Role* role = Find(name);
    if (role == nullptr) continue;
    servers.push_back(role);
    if (!held_down_.contains(role->name())) running.push_back(role);
  }
  log->info("moving the catalog's store from {} to {}: stopping {} catalog server(s)", from_shown, to_shown,
            running.size());
  auto start = std::chrono::steady_clock::now();
  for (Role* role : running) {
    held_down_.insert(std::string(role->name()));  // The supervisor must not restart it meanwhile.
    role->Stop();
  }
  auto restart = [&]() -> Status {
    Status status;
    for (Role* role : running) {
      auto started = role->Start();
      if (started) {
        held_down_.erase(std::string(role->name()));
      } else if (status) {
        status = std::unexpected(std::move(started).error());
      }
    }
    return status;
  };
  // With every server of the old store stopped, nothing commits there while the rows move.
  Result<catalog::CatalogStoreMove> moved = [&]() -> Result<catalog::CatalogStoreMove> {
    FLOE_ASSIGN_OR_RETURN(auto from, catalog::OpenSqlCatalog(current));
    return catalog::MoveCatalogStore(*from, **to);
  }();
  to->reset();
  if (!moved) {
    Status restarted = restart();
    Error error = std::move(moved).error().WithContext(
        fmt::format("moving the catalog from {} to {} (it stays on {}{})", from_shown, to_shown, from_shown,
                    restarted ? "" : ", but did not start again: " + restarted.error().message()));
    return fail(std::move(error));
  }
  for (Role* role : servers) {
    if (auto* process = dynamic_cast<ProcessRole*>(role); process != nullptr) {
      process->SetArgument("--backend", target);
    } else {
      static_cast<CatalogRole*>(role)->set_backend(target);
    }
  }
  {
    std::lock_guard backend_lock(backend_mutex_);
    catalog_backend_ = target;
  }
  Status restarted = restart();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report["tables"] = moved->tables;
  report["views"] = moved->views;
  report["namespace_properties"] = moved->namespace_properties;
  report["added"] = moved->added;
  report["same_database"] = moved->same_database;
  report["moved"] = true;
  report["seconds_down"] = seconds;
  if (!restarted) {
    Error error = std::move(restarted).error().WithContext(
        fmt::format("the catalog's rows moved to {}, but its server did not start there", to_shown));
    return fail(std::move(error));
  }
  report["ok"] = true;
  remember(report);
  log->info("the catalog now runs on {}: {} tables, {} views, {} namespace properties moved in {:.2f} s", to_shown,
            moved->tables, moved->views, moved->namespace_properties, seconds);
  return report;
}

}  // namespace floe::up
