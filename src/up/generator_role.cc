#include "up/generator_role.h"

#include <fmt/format.h>

#include "base/clock.h"
#include "base/logging.h"

namespace floe::up {

GeneratorRole::GeneratorRole(std::string brokers, generator::ProduceOptions options, double malformed_rate)
    : brokers_(std::move(brokers)), options_(std::move(options)), malformed_rate_(malformed_rate) {}

Status GeneratorRole::Start() {
  if (!resumed_ && !options_.ledger_path.empty()) {
    // `floe up` started again on the same data: the table kept every event, so must the ledger.
    FLOE_RETURN_IF_ERROR_CTX(ledger_.Resume(options_.ledger_path, options_.topic), "starting the generator");
    generator::PartitionLedger total = ledger_.Total(options_.topic);
    sent_before_ = total.acked + total.failed;
    resumed_ = true;
  }
  FLOE_ASSIGN_OR_RETURN_CTX(
      producer_,
      generator::KafkaProducer::Create(brokers_, {},
                                       [this](const generator::DeliveryReport& report) {
                                         generator::ProduceLoop::OnDelivery(ledger_, report);
                                       }),
      "starting the generator");
  auto seed = static_cast<uint64_t>(Clock::System().MonotonicNanos());
  events_ = std::make_unique<generator::OrderEventGenerator>(
      generator::GeneratorOptions{.seed = seed,
                                  .malformed_rate = malformed_rate_,
                                  .first_order_id = generator::UniqueFirstOrderId(Clock::System()),
                                  .line_items = true,
                                  .payments = !options_.payments_topic.empty(),
                                  .shipments = !options_.shipments_topic.empty()},
      Clock::System());
  loop_ = std::make_unique<generator::ProduceLoop>(options_, *events_, *producer_, ledger_);
  loop_->SetPaused(options_.rate == 0);
  thread_ = std::thread([this] {
    if (auto status = loop_->Run(); !status) Logger("generator")->error("{}", status.error().ToString());
  });
  return OkStatus();
}

void GeneratorRole::Stop() {
  if (!loop_) return;
  loop_->Stop();
  if (thread_.joinable()) thread_.join();
  sent_before_ += loop_->sent();
  loop_.reset();
  events_.reset();
  producer_.reset();
}

void GeneratorRole::SetRate(double rate) {
  options_.rate = rate;
  if (!loop_) return;
  loop_->SetRate(rate);
  loop_->SetPaused(rate == 0);
}

Status GeneratorRole::Burst(int64_t events) {
  if (!loop_) return Unavailable("the generator is down; bring it up first");
  loop_->Burst(events);
  return OkStatus();
}

Result<std::future<Result<std::string>>> GeneratorRole::RequestMarker() {
  if (!loop_) return Unavailable("the generator is down; bring it up first");
  return loop_->RequestMarker();
}

std::string GeneratorRole::Describe() const {
  std::string also;
  for (const std::string& topic : {options_.payments_topic, options_.shipments_topic}) {
    if (!topic.empty()) also += (also.empty() ? ", their " : " and ") + topic + " into topic " + topic;
  }
  return fmt::format("{} order events/s into topic {}{} (ledger: {})", options_.rate, options_.topic, also,
                     options_.ledger_path);
}

}  // namespace floe::up
