#include "broker/server/broker.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <csignal>
#include <future>
#include <thread>
#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.

#include "base/logging.h"
#include "broker/protocol/api_key.h"
#include "broker/server/connection.h"
#include "net/http_server.h"

namespace floe::broker {

namespace asio = boost::asio;
using asio::ip::tcp;

struct Broker::Io {
  asio::io_context context{1};
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<net::HttpServer> metrics_server;
  std::atomic<bool> stopping{false};
};

Broker::Broker(BrokerConfig config, Clock& clock)
    : config_(std::move(config)),
      clock_(clock),
      connections_({.max_total = static_cast<size_t>(std::max(1, config_.max_connections)),
                    .max_per_address = static_cast<size_t>(std::max(1, config_.max_connections_per_ip))}),
      io_(std::make_unique<Io>()) {}

Broker::~Broker() {
  if (io_->metrics_server) io_->metrics_server->Stop(std::chrono::milliseconds(100));
  if (cleaner_) cleaner_->Stop();
  if (flusher_) flusher_->Stop();
  if (topics_ && config_.fsync != FsyncPolicy::kNever) {
    for (auto& [name, topic] : topics_->topics()) {
      for (auto& log : topic->partitions) {
        if (Status s = log->SyncNow(); !s) Logger("broker")->error("final sync: {}", s.error().ToString());
      }
    }
  }
}

asio::any_io_executor Broker::executor() { return io_->context.get_executor(); }

Result<std::unique_ptr<Broker>> Broker::Open(BrokerConfig config, Clock& clock) {
  if (config.default_partitions < 1) return InvalidArgument("default partition count must be at least 1");
  std::unique_ptr<Broker> broker(new Broker(std::move(config), clock));
  Broker* raw = broker.get();
  if (broker->config_.fsync != FsyncPolicy::kNever) {
    broker->flusher_ = std::make_unique<Flusher>(
        [raw](Flusher::Callback done) { asio::post(raw->io_->context, std::move(done)); });
  }
  FLOE_ASSIGN_OR_RETURN(broker->topics_,
                        TopicRegistry::Open(broker->config_.data_dir, broker->config_.log, clock, broker->flusher_.get()));
  FLOE_ASSIGN_OR_RETURN(auto offsets,
                        OffsetStore::Open(broker->config_.data_dir, broker->config_.fsync != FsyncPolicy::kNever));
  broker->groups_ = std::make_unique<GroupCoordinator>(broker->config_.groups, clock, std::move(offsets));
  // Producer ids stay unique across restarts without being persisted (a transactional id's is
  // kept in the transaction log).
  broker->next_producer_id_ = clock.NowMillis() << 12;
  TransactionCoordinator::Hooks hooks;
  hooks.write_marker = [raw](const TxnPartition& p, int64_t producer_id, int16_t epoch, bool commit) -> Status {
    Topic* topic = raw->topics_->Find(p.topic);
    if (!topic || p.partition < 0 || static_cast<size_t>(p.partition) >= topic->partitions.size()) {
      return NotFound("partition {}-{} no longer exists", p.topic, p.partition);
    }
    auto& log = topic->partitions[static_cast<size_t>(p.partition)];
    ControlMarker marker{producer_id, epoch, commit ? ControlType::kCommit : ControlType::kAbort, 0,
                         raw->clock_.NowMillis()};
    FLOE_RETURN_IF_ERROR(log->AppendMarker(marker));
    // The coordinator logs the transaction complete next: the marker must be durable first.
    if (raw->config_.fsync != FsyncPolicy::kNever) FLOE_RETURN_IF_ERROR(log->SyncNow());
    return OkStatus();
  };
  hooks.commit_offset = [raw](const OffsetStore::Key& key, const CommittedOffset& value) {
    const auto& [group, topic, partition] = key;
    return raw->groups_->offsets().Commit(group, topic, partition, value);
  };
  hooks.next_producer_id = [raw] { return raw->NextProducerId(); };
  FLOE_ASSIGN_OR_RETURN(broker->transactions_,
                        TransactionCoordinator::Open(broker->config_.data_dir, broker->config_.fsync != FsyncPolicy::kNever,
                                                     clock, std::move(hooks)));
  FLOE_RETURN_IF_ERROR(broker->transactions_->Recover());
  if (broker->config_.log_cleaner_enable) {
    broker->cleaner_ = std::make_unique<CleanerThread>(
        [raw](std::function<void()> done) { asio::post(raw->io_->context, std::move(done)); });
  }
  return broker;
}

void Broker::MaybeClean() {
  if (!cleaner_ || cleaner_->busy()) return;
  const int64_t now = clock_.NowMillis();
  // The dirtiest due log first, as Kafka's cleaner picks.
  struct Candidate {
    double ratio;
    std::shared_ptr<PartitionLog> log;
    std::string name;
  };
  std::vector<Candidate> candidates;
  for (const auto& [name, topic] : topics_->topics()) {
    if (!topic->config.compact) continue;
    for (size_t p = 0; p < topic->partitions.size(); ++p) {
      const auto& log = topic->partitions[p];
      if (uncleanable_.count(log->dir())) continue;
      double ratio = log->DirtyRatio(now);
      if (ratio > 0) candidates.push_back({ratio, log, fmt::format("{}-{}", name, p)});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.ratio > b.ratio; });
  for (Candidate& c : candidates) {
    std::optional<CleanJob> job = c.log->PlanClean(now, config_.log_cleaner_dedupe_buffer_size);
    if (!job) continue;
    std::weak_ptr<PartitionLog> weak = c.log;
    cleaner_->Submit(std::move(*job), [this, weak, name = std::move(c.name)](Result<CleanResult> result) mutable {
      FinishClean(std::move(weak), std::move(name), std::move(result));
    });
    return;
  }
}

void Broker::FinishClean(std::weak_ptr<PartitionLog> weak, std::string name, Result<CleanResult> result) {
  std::shared_ptr<PartitionLog> log = weak.lock();
  if (!result) {
    ++metrics_.cleaner_failures;
    Logger("broker")->error("log cleaner: {}: {}; the partition is not cleaned again until a restart", name,
                            result.error().ToString());
    if (log) uncleanable_.insert(log->dir());
    return;
  }
  if (!log) {
    for (const CleanedGroup& g : result->groups) ::unlink(g.cleaned_path.c_str());
    return;
  }
  TestingStallAt("cleaned");
  auto installed = log->InstallCleaned(*result, [this](std::string_view step) { TestingStallAt(step); });
  if (!installed) {
    ++metrics_.cleaner_failures;
    uncleanable_.insert(log->dir());
    Logger("broker")->error(
        "log cleaner: {}: installing the cleaned segments: {}; the partition is not cleaned "
        "again until a restart, which finishes the swap",
        name, installed.error().ToString());
    return;
  }
  ++metrics_.cleaner_passes;
  metrics_.cleaner_bytes_removed += installed->bytes_removed;
  metrics_.cleaner_records_removed += installed->records_removed;
  metrics_.cleaner_last_clean_ms = Clock::System().NowMillis();
  Logger("broker")->info("log cleaner: {}: {} records and {} bytes removed in {} segment groups, clean up to offset {}",
                         name, installed->records_removed, installed->bytes_removed, installed->groups,
                         result->cleaned_up_to);
  // More may be due (another partition, or the rest of a log the offset map could not cover).
  asio::post(io_->context, [this] { MaybeClean(); });
}

void Broker::TestingStallAt(std::string_view step) {
  if (config_.testing_cleaner_stall != step) return;
  Logger("broker")->warn("testing: the log cleaner stalls at step {}", step);
  Logger("broker")->flush();
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

Result<Topic*> Broker::AutoCreateTopic(const std::string& name) {
  if (!config_.auto_create_topics) return NotFound("topic '{}' does not exist", name);
  return topics_->Create(name, config_.default_partitions, {});
}

namespace {

Result<std::unique_ptr<tcp::acceptor>> Bind(asio::io_context& context, const HostPort& where) {
  boost::system::error_code ec;
  tcp::resolver resolver(context);
  auto results = resolver.resolve(where.host, std::to_string(where.port), tcp::resolver::passive, ec);
  if (ec || results.empty()) return InvalidArgument("cannot resolve {}: {}", where.host, ec.message());
  tcp::endpoint endpoint = results.begin()->endpoint();
  auto acceptor = std::make_unique<tcp::acceptor>(context);
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return IoError("listen on {}:{}: {}", where.host, where.port, ec.message());
  return acceptor;
}

asio::awaitable<void> AcceptLoop(Broker& broker, tcp::acceptor& acceptor) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
      // Out of descriptors (EMFILE) fails every accept at once: back off instead of spinning.
      asio::steady_timer backoff(acceptor.get_executor(), std::chrono::milliseconds(50));
      co_await backoff.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    auto endpoint = socket.remote_endpoint(ec);
    std::string address = ec ? "unknown" : endpoint.address().to_string();
    auto slot = broker.AdmitConnection(address);
    if (!slot) {
      ++broker.metrics().connections_rejected;
      socket.close(ec);
      continue;
    }
    ++broker.metrics().connections_accepted;
    std::make_shared<Connection>(broker, std::move(socket), std::move(address), std::move(*slot))->Start();
  }
}

// Runs `tick` every `period` until the io_context stops.
asio::awaitable<void> Every(std::chrono::milliseconds period, std::function<void()> tick) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (;;) {
    timer.expires_after(period);
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    tick();
  }
}

}  // namespace

Status Broker::Listen(const std::string& metrics_listen) {
  // sendfile has no MSG_NOSIGNAL: a consumer that hangs up mid-fetch would raise SIGPIPE, whose
  // default action ends the process. Ignored, the write fails with EPIPE and only that
  // connection closes. Process-wide, as a signal's disposition is, and harmless to every other
  // socket (asio sends with MSG_NOSIGNAL anyway).
  std::signal(SIGPIPE, SIG_IGN);
  if (config_.tls.enabled()) {
    FLOE_ASSIGN_OR_RETURN(tls_, net::MakeServerTlsContext(config_.tls));
  }
  FLOE_ASSIGN_OR_RETURN(io_->acceptor, Bind(io_->context, config_.listen));
  advertised_ = config_.advertise;
  if (advertised_.host.empty()) advertised_.host = config_.listen.host == "0.0.0.0" ? "127.0.0.1" : config_.listen.host;
  if (advertised_.port == 0) advertised_.port = bound_port();
  asio::co_spawn(io_->context, AcceptLoop(*this, *io_->acceptor), asio::detached);
  if (!metrics_listen.empty()) FLOE_RETURN_IF_ERROR(ServeMetrics(metrics_listen));
  asio::co_spawn(io_->context, Every(std::chrono::milliseconds(100), [this] {
                   groups_->Tick();
                   transactions_->Tick();
                 }), asio::detached);
  if (config_.fsync != FsyncPolicy::kNever) {
    asio::co_spawn(io_->context, Every(std::chrono::milliseconds(std::max(1, config_.fsync_interval_ms)), [this] {
      for (auto& [name, topic] : topics_->topics()) {
        for (auto& log : topic->partitions) {
          if (log->durable_offset() < log->high_watermark()) log->RequestFlush(nullptr);
        }
      }
    }), asio::detached);
  }
  asio::co_spawn(io_->context, Every(std::chrono::milliseconds(std::max(100, config_.retention_check_interval_ms)),
                                     [this] { topics_->ApplyRetention(); }),
                 asio::detached);
  if (cleaner_) {
    asio::co_spawn(
        io_->context,
        Every(std::chrono::milliseconds(std::max(10, config_.log_cleaner_backoff_ms)), [this] { MaybeClean(); }),
        asio::detached);
  }
  Logger("broker")->info("listening on {}:{} (advertised {}:{}{}), data in {}, fsync {}", config_.listen.host,
                         bound_port(), advertised_.host, advertised_.port, tls_ ? ", TLS" : "", config_.data_dir,
                         FsyncPolicyName(config_.fsync));
  return OkStatus();
}

uint16_t Broker::bound_port() const {
  boost::system::error_code ec;
  return io_->acceptor ? io_->acceptor->local_endpoint(ec).port() : 0;
}

uint16_t Broker::metrics_port() const { return io_->metrics_server ? io_->metrics_server->port() : 0; }

// /metrics is served by src/net's HTTP server on its own thread; the figures live on the I/O
// thread, so each scrape renders them there and waits (briefly) for the text.
Status Broker::ServeMetrics(const std::string& metrics_listen) {
  FLOE_ASSIGN_OR_RETURN(HostPort where, ParseHostPort(metrics_listen));
  net::HttpRouter router;
  FLOE_RETURN_IF_ERROR(router.Add("GET", "/metrics", [this](net::HttpRequest&) {
    auto text = std::make_shared<std::promise<std::string>>();
    std::future<std::string> rendered = text->get_future();
    asio::post(io_->context, [this, text] { text->set_value(RenderMetrics()); });
    if (rendered.wait_for(std::chrono::seconds(2)) != std::future_status::ready) {
      return net::HttpResponse::Text(503, "the broker's I/O thread is not running\n");
    }
    net::HttpResponse response = net::HttpResponse::Text(200, rendered.get());
    response.headers.Set("Content-Type", "text/plain; version=0.0.4");
    return response;
  }));
  net::HttpServerOptions options;
  options.host = where.host;
  options.port = where.port;
  options.threads = 1;
  options.max_body_bytes = 1 << 16;
  options.tls = config_.tls;  // A TLS broker serves its metrics over HTTPS too: scrape with https.
  io_->metrics_server = std::make_unique<net::HttpServer>(options, std::move(router));
  return io_->metrics_server->Start();
}

void Broker::Run() {
  auto guard = asio::make_work_guard(io_->context);
  io_->context.run();
}

void Broker::TESTING_RunFor(std::chrono::milliseconds limit) {
  io_->context.restart();
  if (limit.count() == 0) {
    io_->context.poll();
  } else {
    io_->context.run_for(limit);
  }
}

void Broker::Stop() {
  io_->stopping = true;
  io_->context.stop();
}

std::string Broker::RenderMetrics() {
  std::string out;
  auto line = [&out](std::string_view text) {
    out += text;
    out += '\n';
  };
  line("# TYPE floe_broker_bytes_in_total counter");
  line(fmt::format("floe_broker_bytes_in_total {}", metrics_.bytes_in));
  line("# TYPE floe_broker_bytes_out_total counter");
  line(fmt::format("floe_broker_bytes_out_total {}", metrics_.bytes_out));
  line("# TYPE floe_broker_connections gauge");
  line(fmt::format("floe_broker_connections {}", metrics_.connections_open));
  line("# TYPE floe_broker_connections_rejected_total counter");
  line(fmt::format("floe_broker_connections_rejected_total {}", metrics_.connections_rejected));
  line("# TYPE floe_broker_frames_rejected_total counter");
  line(fmt::format("floe_broker_frames_rejected_total {}", metrics_.frames_rejected));
  line("# TYPE floe_broker_request_duration_seconds histogram");
  for (const ApiSupport& api : SupportedApis()) {
    auto slot = static_cast<size_t>(api.key);
    if (metrics_.requests[slot] == 0) continue;
    for (size_t i = 0; i < BrokerMetrics::kLatencyBuckets.size(); ++i) {
      line(fmt::format("floe_broker_request_duration_seconds_bucket{{api=\"{}\",le=\"{}\"}} {}", api.name,
                       BrokerMetrics::kLatencyBuckets[i], metrics_.latency_buckets[slot][i]));
    }
    line(fmt::format("floe_broker_request_duration_seconds_bucket{{api=\"{}\",le=\"+Inf\"}} {}", api.name,
                     metrics_.requests[slot]));
    line(fmt::format("floe_broker_request_duration_seconds_sum{{api=\"{}\"}} {}", api.name,
                     metrics_.latency_seconds_sum[slot]));
    line(fmt::format("floe_broker_request_duration_seconds_count{{api=\"{}\"}} {}", api.name, metrics_.requests[slot]));
  }
  line("# TYPE floe_broker_high_watermark gauge");
  for (const auto& [name, topic] : topics_->topics()) {
    for (size_t p = 0; p < topic->partitions.size(); ++p) {
      line(fmt::format("floe_broker_high_watermark{{topic=\"{}\",partition=\"{}\"}} {}", name, p,
                       topic->partitions[p]->high_watermark()));
    }
  }
  line("# TYPE floe_broker_last_stable_offset gauge");
  for (const auto& [name, topic] : topics_->topics()) {
    for (size_t p = 0; p < topic->partitions.size(); ++p) {
      line(fmt::format("floe_broker_last_stable_offset{{topic=\"{}\",partition=\"{}\"}} {}", name, p,
                       topic->partitions[p]->last_stable_offset()));
    }
  }
  line("# TYPE floe_broker_transactions_total counter");
  line(fmt::format("floe_broker_transactions_total{{outcome=\"commit\"}} {}", transactions_->counts().committed));
  line(fmt::format("floe_broker_transactions_total{{outcome=\"abort\"}} {}", transactions_->counts().aborted));
  line("# TYPE floe_broker_transaction_timeouts_total counter");
  line(fmt::format("floe_broker_transaction_timeouts_total {}", transactions_->counts().timed_out));
  line("# TYPE floe_broker_log_cleaner_passes_total counter");
  line(fmt::format("floe_broker_log_cleaner_passes_total {}", metrics_.cleaner_passes));
  line("# TYPE floe_broker_log_cleaner_failures_total counter");
  line(fmt::format("floe_broker_log_cleaner_failures_total {}", metrics_.cleaner_failures));
  line("# TYPE floe_broker_log_cleaner_bytes_removed_total counter");
  line(fmt::format("floe_broker_log_cleaner_bytes_removed_total {}", metrics_.cleaner_bytes_removed));
  line("# TYPE floe_broker_log_cleaner_records_removed_total counter");
  line(fmt::format("floe_broker_log_cleaner_records_removed_total {}", metrics_.cleaner_records_removed));
  line("# TYPE floe_broker_log_cleaner_last_clean_timestamp_seconds gauge");
  line(fmt::format("floe_broker_log_cleaner_last_clean_timestamp_seconds {}", metrics_.cleaner_last_clean_ms / 1000.0));
  line("# TYPE floe_broker_log_cleaner_dirty_ratio gauge");
  const int64_t now = clock_.NowMillis();
  for (const auto& [name, topic] : topics_->topics()) {
    if (!topic->config.compact) continue;
    for (size_t p = 0; p < topic->partitions.size(); ++p) {
      line(fmt::format("floe_broker_log_cleaner_dirty_ratio{{topic=\"{}\",partition=\"{}\"}} {}", name, p,
                       topic->partitions[p]->DirtyRatio(now)));
    }
  }
  line("# TYPE floe_broker_consumer_group_lag gauge");
  for (const auto& [group, type] : groups_->ListGroups()) {
    for (const auto& [key, committed] : groups_->offsets().ForGroup(group)) {
      const auto& [g, topic_name, partition] = key;
      Topic* topic = topics_->Find(topic_name);
      if (!topic || partition < 0 || static_cast<size_t>(partition) >= topic->partitions.size()) continue;
      int64_t lag = std::max<int64_t>(0, topic->partitions[static_cast<size_t>(partition)]->high_watermark() - committed.offset);
      line(fmt::format("floe_broker_consumer_group_lag{{group=\"{}\",topic=\"{}\",partition=\"{}\"}} {}", group,
                       topic_name, partition, lag));
    }
  }
  return out;
}

}  // namespace floe::broker
