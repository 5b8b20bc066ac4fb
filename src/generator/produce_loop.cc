#include "generator/produce_loop.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/clock.h"
#include "base/logging.h"

namespace floe::generator {
namespace {

// The id of a valid value the generator wrote: its first field's string, `event_id`,
// `payment_id` or `shipment_id` (AppendOrderEventJson and its peers write it first); "" if the
// value does not start with one.
std::string_view LeadingIdOf(std::string_view json) {
  if (!json.starts_with(R"({")")) return {};
  auto name_end = json.find('"', 2);
  if (name_end == std::string_view::npos || json.substr(name_end, 3) != R"(":")") return {};
  json.remove_prefix(name_end + 3);
  auto end = json.find('"');
  return end == std::string_view::npos ? std::string_view() : json.substr(0, end);
}

}  // namespace

char ProduceLoop::kValidMarker = 0;

void ProduceLoop::OnDelivery(Ledger& ledger, const DeliveryReport& report) {
  if (!report.delivered) {
    ledger.RecordFailed(report.topic, report.partition);
    return;
  }
  bool valid = report.opaque == &kValidMarker;
  ledger.RecordAcked(report.topic, report.partition, report.value, valid,
                     valid ? LeadingIdOf(report.value) : std::string_view());
}

Status ProduceLoop::ProducePending() {
  while (std::optional<GeneratedMessage> message = generator_.NextPendingMessage()) {
    const std::string& topic =
        message->stream == EventStream::kPayments ? options_.payments_topic : options_.shipments_topic;
    if (topic.empty()) {
      return InvalidArgument("the generator makes {} but no topic is set for them",
                             message->stream == EventStream::kPayments ? "payments" : "shipments");
    }
    FLOE_RETURN_IF_ERROR(producer_.Produce(topic, message->key, message->value, &kValidMarker));
  }
  return OkStatus();
}

ProduceLoop::ProduceLoop(ProduceOptions options, OrderEventGenerator& generator, KafkaProducer& producer,
                         Ledger& ledger)
    : options_(std::move(options)), generator_(generator), producer_(producer), ledger_(ledger),
      rate_(options_.rate) {}

std::future<Result<std::string>> ProduceLoop::RequestMarker() {
  std::promise<Result<std::string>> promise;
  auto future = promise.get_future();
  std::lock_guard lock(marker_mutex_);
  if (stop_.load()) {
    promise.set_value(Unavailable("the generator is stopping"));
  } else {
    marker_requests_.push_back(std::move(promise));
  }
  return future;
}

Status ProduceLoop::Run() {
  Clock& clock = Clock::System();
  auto log = Logger("produce");
  double tokens = 0;
  int64_t last_nanos = clock.MonotonicNanos();
  int64_t last_ledger_nanos = last_nanos;
  while (!stop_.load() && (options_.count == 0 || sent_.load() < static_cast<uint64_t>(options_.count))) {
    int64_t now = clock.MonotonicNanos();
    double rate = rate_.load();
    // Refill, capped at a tenth of a second of traffic so a pause does not become a burst.
    tokens = std::min(tokens + rate * static_cast<double>(now - last_nanos) / 1e9, std::max(1.0, rate / 10));
    last_nanos = now;
    int64_t batch = burst_.exchange(0);
    if (paused_.load()) {
      tokens = 0;
    } else if (rate <= 0) {
      batch += 1000;
    } else {
      batch += static_cast<int64_t>(tokens);
      tokens -= static_cast<double>(static_cast<int64_t>(tokens));
    }
    if (options_.count > 0) batch = std::min<int64_t>(batch, options_.count - static_cast<int64_t>(sent_.load()));
    for (int64_t i = 0; i < batch; ++i) {
      GeneratedMessage message = generator_.NextMessage();
      // The opaque tells the delivery report whether the value is a valid event.
      void* kind = message.valid ? &kValidMarker : nullptr;
      FLOE_RETURN_IF_ERROR(producer_.Produce(options_.topic, message.key, message.value, kind));
      sent_.fetch_add(1);
      FLOE_RETURN_IF_ERROR(ProducePending());
    }
    std::vector<std::promise<Result<std::string>>> markers;
    {
      std::lock_guard lock(marker_mutex_);
      markers.swap(marker_requests_);
    }
    for (auto& marker : markers) {
      GeneratedMessage message = generator_.NextValidMessage();
      Status produced = producer_.Produce(options_.topic, message.key, message.value, &kValidMarker);
      if (produced) sent_.fetch_add(1);
      marker.set_value(produced ? Result<std::string>(message.event_id)
                                : Result<std::string>(std::unexpected(produced.error())));
    }
    // After every marker has its answer: an error here ends the loop, which leaves none waiting.
    if (!markers.empty()) FLOE_RETURN_IF_ERROR(ProducePending());
    producer_.Poll(batch > 0 || !markers.empty() ? 0 : 1);
    if (!options_.ledger_path.empty() && now - last_ledger_nanos > 1'000'000'000) {
      last_ledger_nanos = now;
      if (auto status = ledger_.WriteFile(options_.ledger_path, options_.topic); !status) {
        log->warn("writing ledger: {}", status.error().ToString());
      }
    }
  }
  {
    std::lock_guard lock(marker_mutex_);
    for (auto& marker : marker_requests_)
      marker.set_value(Unavailable("the generator stopped before sending the marker"));
    marker_requests_.clear();
  }
  Status flushed = producer_.Flush(30'000);
  if (!options_.ledger_path.empty()) FLOE_RETURN_IF_ERROR(ledger_.WriteFile(options_.ledger_path, options_.topic));
  return flushed;
}

}  // namespace floe::generator
