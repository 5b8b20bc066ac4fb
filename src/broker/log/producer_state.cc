#include "broker/log/producer_state.h"

namespace floe::broker {

ProducerState::Verdict ProducerState::Check(const BatchHeader& batch) const {
  if (batch.producer_id < 0 || batch.base_sequence < 0) return {};
  auto it = producers_.find(batch.producer_id);
  // A producer this partition has not seen (or whose batches aged out) starts anywhere.
  if (it == producers_.end()) return {};
  const Producer& producer = it->second;
  if (batch.producer_epoch < producer.epoch) return {ErrorCode::kInvalidProducerEpoch, std::nullopt};
  if (batch.producer_epoch > producer.epoch) {
    // A new epoch restarts its sequence at 0.
    if (batch.base_sequence != 0) return {ErrorCode::kOutOfOrderSequenceNumber, std::nullopt};
    return {};
  }
  for (const Entry& entry : producer.recent) {
    if (entry.first_sequence == batch.base_sequence && entry.last_sequence == batch.last_sequence()) {
      return {ErrorCode::kNone, entry.base_offset};
    }
  }
  int32_t last = producer.recent.empty() ? -1 : producer.recent.back().last_sequence;
  int32_t expected = last == INT32_MAX ? 0 : last + 1;
  if (batch.base_sequence == expected) return {};
  if (batch.base_sequence < expected) return {ErrorCode::kDuplicateSequenceNumber, std::nullopt};
  return {ErrorCode::kOutOfOrderSequenceNumber, std::nullopt};
}

void ProducerState::Record(const BatchHeader& batch, int64_t base_offset) {
  if (batch.producer_id >= 0 && batch.control()) {
    // A marker of a newer epoch (a transaction aborted for a new producer or a timeout) fences
    // the older epoch here too; the new epoch starts its sequence at 0.
    auto it = producers_.find(batch.producer_id);
    if (it != producers_.end() && batch.producer_epoch > it->second.epoch) {
      it->second.epoch = batch.producer_epoch;
      it->second.recent.clear();
    }
    return;
  }
  if (batch.producer_id < 0 || batch.base_sequence < 0) return;
  Producer& producer = producers_[batch.producer_id];
  if (batch.producer_epoch != producer.epoch) {
    producer.epoch = batch.producer_epoch;
    producer.recent.clear();
  }
  producer.recent.push_back({base_offset, batch.base_sequence, batch.last_sequence()});
  if (producer.recent.size() > kRemembered) producer.recent.pop_front();
}

}  // namespace floe::broker
