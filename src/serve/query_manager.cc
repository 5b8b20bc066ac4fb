#include "serve/query_manager.h"

#include <random>

#include <fmt/chrono.h>

#include "base/logging.h"

namespace floe::serve {

QueryManager::QueryManager(sql::SqlCatalog& catalog, QueryManagerOptions options, MetricsRegistry* metrics)
    : catalog_(catalog),
      options_(options),
      metrics_(metrics),
      workers_(static_cast<size_t>(std::max(1, options.max_running))) {
  watchdog_ = std::thread([this] { Watch(); });
}

QueryManager::~QueryManager() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    // Queued queries never start; running ones see the cancellation flag and stop early.
    for (auto& query : admitted_) query->Cancel();
  }
  stop_watch_.notify_all();
  watchdog_.join();
  workers_.Wait();
}

std::string QueryManager::NextId() {
  // Trino's shape: 20261202_150203_00001_x7k2p (date, time, sequence, a per-server tag).
  static const std::string tag = [] {
    std::random_device device;
    std::string text;
    for (int i = 0; i < 5; ++i) text.push_back("abcdefghijklmnopqrstuvwxyz0123456789"[device() % 36]);
    return text;
  }();
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y%m%d_%H%M%S}_{:05}_{}", fmt::gmtime(now), ++sequence_ % 100000, tag);
}

std::shared_ptr<Query> QueryManager::Submit(QueryRequest request, std::function<void()> on_done) {
  std::shared_ptr<Query> query;
  bool full = false;
  {
    std::lock_guard lock(mu_);
    query = std::make_shared<Query>(NextId(), std::move(request), options_.limits);
    by_id_.emplace(query->id(), query);
    order_.push_back(query);
    auto now = Query::Clock::now();
    while (order_.size() > options_.history_size) {
      auto ended = order_.front()->ended_at();
      if (!ended.has_value()) break;
      if (now - *ended < options_.min_retention && order_.size() <= options_.max_retained) break;
      by_id_.erase(order_.front()->id());
      order_.pop_front();
    }
    full = stopping_ || queued_ >= options_.max_queued;
    if (!full) {
      ++queued_;
      admitted_.insert(query);
    }
  }
  if (metrics_ != nullptr) {
    metrics_->GetCounter("floe_queries_total", "Queries submitted, by protocol",
                         {{"protocol", query->request().protocol}})
        .Increment();
  }
  if (on_done) query->OnDone(std::move(on_done));
  if (full) {
    query->Fail(QueryError::QueueFull(options_.max_queued));
    return query;
  }
  workers_.Submit([this, query] { Run(query); });
  return query;
}

void QueryManager::Run(const std::shared_ptr<Query>& query) {
  {
    std::lock_guard lock(mu_);
    --queued_;
    ++running_;
  }
  if (query->MarkRunning()) {
    RunOptions run{.stream = query->stream().get(),
                   .last_statement_rows_only = query->request().last_statement_rows_only,
                   .memory_limit_bytes = query->limits().max_memory_bytes,
                   .spill_dir = query->limits().spill_dir};
    RunOutput output = RunStatements(catalog_, query->request().sql, query->request().session,
                                     query->request().interceptor.get(), &query->cancel_flag(), run);
    query->Finish(std::move(output));
  }
  {
    std::lock_guard lock(mu_);
    --running_;
    admitted_.erase(query);
  }
  if (metrics_ != nullptr) {
    metrics_->GetHistogram("floe_query_seconds", "Query latency from submission to its end")
        .Observe(static_cast<double>(query->elapsed_millis()) / 1000.0);
    if (query->state() != QueryState::kFinished) {
      metrics_->GetCounter("floe_query_failures_total", "Queries that failed or were canceled",
                           {{"state", std::string(QueryStateName(query->state()))}})
          .Increment();
    }
  }
}

void QueryManager::Watch() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    stop_watch_.wait_for(lock, std::chrono::milliseconds(100));
    auto now = Query::Clock::now();
    std::vector<std::shared_ptr<Query>> candidates(admitted_.begin(), admitted_.end());
    // Ended queries whose client may have left rows untaken (abandonment frees them).
    for (const auto& query : order_) {
      if (query->request().abandon_after.count() > 0 && query->done() && query->stream() && !query->stream()->Finished()) {
        candidates.push_back(query);
      }
    }
    lock.unlock();
    for (auto& query : candidates) {
      if (query->EnforceTimeLimit(now)) {
        Logger("serve")->warn("query {} ended: {}", query->id(), query->error() ? query->error()->message : "");
      }
    }
    if (metrics_ != nullptr) {
      metrics_->GetGauge("floe_queries_running", "Queries running now").Set(running());
      metrics_->GetGauge("floe_queries_queued", "Queries waiting for a worker").Set(queued());
    }
    lock.lock();
  }
}

std::shared_ptr<Query> QueryManager::Find(std::string_view id) const {
  std::lock_guard lock(mu_);
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

bool QueryManager::Cancel(std::string_view id) {
  auto query = Find(id);
  if (!query) return false;
  query->Cancel();
  return true;
}

std::vector<std::shared_ptr<Query>> QueryManager::Recent() const {
  std::lock_guard lock(mu_);
  size_t n = std::min(order_.size(), options_.history_size);
  return {order_.rbegin(), order_.rbegin() + static_cast<std::ptrdiff_t>(n)};
}

int QueryManager::running() const {
  std::lock_guard lock(mu_);
  return running_;
}

int QueryManager::queued() const {
  std::lock_guard lock(mu_);
  return queued_;
}

}  // namespace floe::serve
