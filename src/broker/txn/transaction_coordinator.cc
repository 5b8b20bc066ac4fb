#include "broker/txn/transaction_coordinator.h"

#include "base/logging.h"

namespace floe::broker {
namespace {

constexpr int16_t kMaxEpoch = INT16_MAX - 1;

bool IsPrepare(TxnState state) { return state == TxnState::kPrepareCommit || state == TxnState::kPrepareAbort; }

}  // namespace

Result<std::unique_ptr<TransactionCoordinator>> TransactionCoordinator::Open(const std::string& data_dir, bool sync,
                                                                             Clock& clock, Hooks hooks,
                                                                             TransactionCoordinatorOptions options) {
  std::unique_ptr<TransactionCoordinator> coordinator(new TransactionCoordinator(clock, std::move(hooks), options));
  FLOE_ASSIGN_OR_RETURN(coordinator->log_, TransactionLog::Open(data_dir, sync, &coordinator->states_));
  return coordinator;
}

const TransactionMetadata* TransactionCoordinator::Find(const std::string& transactional_id) const {
  auto it = states_.find(transactional_id);
  return it == states_.end() ? nullptr : &it->second;
}

Status TransactionCoordinator::Store(TransactionMetadata next) {
  std::string id = next.transactional_id;
  if (id.size() > 0xFFFF) return InvalidArgument("transactional id of {} bytes", id.size());
  std::optional<TransactionMetadata> previous;
  if (auto it = states_.find(id); it != states_.end()) previous = it->second;
  next.updated_ms = clock_.NowMillis();
  TransactionMetadata& slot = states_[id];
  slot = std::move(next);
  Status stored = log_->Append(slot, states_);
  if (!stored) {
    if (previous) {
      slot = std::move(*previous);
    } else {
      states_.erase(id);
    }
  }
  return stored;
}

ErrorCode TransactionCoordinator::CheckProducer(const TransactionMetadata* txn, int64_t producer_id,
                                                int16_t epoch) const {
  if (txn == nullptr || txn->producer_id != producer_id) return ErrorCode::kInvalidProducerIdMapping;
  if (txn->producer_epoch != epoch) return ErrorCode::kProducerFenced;
  return ErrorCode::kNone;
}

Status TransactionCoordinator::Recover() {
  std::vector<std::string> unfinished;
  for (const auto& [id, txn] : states_) {
    if (IsPrepare(txn.state)) unfinished.push_back(id);
  }
  for (const std::string& id : unfinished) {
    Logger("broker")->info("transaction '{}' was in {} at shutdown: completing it", id,
                           TxnStateName(states_.at(id).state));
    if (Status done = Complete(id); !done) {
      Logger("broker")->error("completing transaction '{}': {}", id, done.error().ToString());
    }
  }
  return OkStatus();
}

Status TransactionCoordinator::Complete(const std::string& transactional_id) {
  const TransactionMetadata& txn = states_.at(transactional_id);
  if (!IsPrepare(txn.state)) return OkStatus();
  const bool commit = txn.state == TxnState::kPrepareCommit;
  for (const TxnPartition& partition : txn.partitions) {
    Status written = hooks_.write_marker(partition, txn.producer_id, txn.producer_epoch, commit);
    if (!written && written.error().kind() != ErrorKind::kNotFound) {
      return std::unexpected(std::move(written).error().WithContext(
          fmt::format("{} marker for {}-{}", commit ? "commit" : "abort", partition.topic, partition.partition)));
    }
  }
  if (commit) {
    for (const auto& [key, value] : txn.offsets) FLOE_RETURN_IF_ERROR(hooks_.commit_offset(key, value));
  }
  TransactionMetadata next = txn;
  next.state = commit ? TxnState::kCompleteCommit : TxnState::kCompleteAbort;
  next.partitions.clear();
  next.groups.clear();
  next.offsets.clear();
  next.started_ms = -1;
  FLOE_RETURN_IF_ERROR(Store(std::move(next)));
  ++(commit ? counts_.committed : counts_.aborted);
  return OkStatus();
}

Status TransactionCoordinator::Finish(const std::string& transactional_id, bool commit) {
  TransactionMetadata next = states_.at(transactional_id);
  next.state = commit ? TxnState::kPrepareCommit : TxnState::kPrepareAbort;
  FLOE_RETURN_IF_ERROR(Store(std::move(next)));
  return Complete(transactional_id);
}

Status TransactionCoordinator::AbortWithBumpedEpoch(const std::string& transactional_id) {
  TransactionMetadata next = states_.at(transactional_id);
  // The markers carry the new epoch, which fences the old producer on every partition too.
  if (next.producer_epoch < kMaxEpoch) ++next.producer_epoch;
  next.state = TxnState::kPrepareAbort;
  FLOE_RETURN_IF_ERROR(Store(std::move(next)));
  return Complete(transactional_id);
}

TransactionCoordinator::InitResult TransactionCoordinator::InitProducerId(
    const std::string& transactional_id, int32_t timeout_ms, std::optional<std::pair<int64_t, int16_t>> current) {
  InitResult result;
  if (timeout_ms <= 0 || timeout_ms > options_.max_timeout_ms) {
    result.error = ErrorCode::kInvalidTransactionTimeout;
    return result;
  }
  const TransactionMetadata* existing = Find(transactional_id);
  TransactionMetadata next;
  if (existing == nullptr) {
    next.transactional_id = transactional_id;
    next.producer_id = hooks_.next_producer_id();
    next.producer_epoch = 0;
  } else {
    if (current && current->first >= 0 &&
        (current->first != existing->producer_id || current->second != existing->producer_epoch)) {
      result.error = ErrorCode::kProducerFenced;
      return result;
    }
    if (existing->state == TxnState::kOngoing) {
      if (Status aborted = AbortWithBumpedEpoch(transactional_id); !aborted) {
        Logger("broker")->error("aborting transaction '{}' for a new producer: {}", transactional_id,
                                aborted.error().ToString());
      }
    } else if (IsPrepare(existing->state)) {
      if (Status done = Complete(transactional_id); !done) {
        Logger("broker")->error("completing transaction '{}': {}", transactional_id, done.error().ToString());
      }
    }
    existing = Find(transactional_id);
    if (existing->state == TxnState::kOngoing || IsPrepare(existing->state)) {
      // Its markers could not be written yet: the client retries.
      result.error = ErrorCode::kConcurrentTransactions;
      return result;
    }
    next = *existing;
    if (next.producer_epoch >= kMaxEpoch) {
      next.producer_id = hooks_.next_producer_id();
      next.producer_epoch = 0;
    } else {
      ++next.producer_epoch;
    }
  }
  next.timeout_ms = timeout_ms;
  next.state = TxnState::kEmpty;
  next.started_ms = -1;
  next.partitions.clear();
  next.groups.clear();
  next.offsets.clear();
  result.producer_id = next.producer_id;
  result.producer_epoch = next.producer_epoch;
  if (Status stored = Store(std::move(next)); !stored) {
    Logger("broker")->error("transaction log: {}", stored.error().ToString());
    return InitResult{ErrorCode::kUnknownServerError, -1, -1};
  }
  return result;
}

ErrorCode TransactionCoordinator::AddPartitions(const std::string& transactional_id, int64_t producer_id,
                                                int16_t epoch, const std::vector<TxnPartition>& partitions) {
  const TransactionMetadata* txn = Find(transactional_id);
  if (ErrorCode error = CheckProducer(txn, producer_id, epoch); error != ErrorCode::kNone) return error;
  if (IsPrepare(txn->state)) return ErrorCode::kConcurrentTransactions;
  TransactionMetadata next = *txn;
  if (next.state != TxnState::kOngoing) {
    next.state = TxnState::kOngoing;
    next.started_ms = clock_.NowMillis();
    next.partitions.clear();
    next.groups.clear();
    next.offsets.clear();
  }
  bool added = false;
  for (const TxnPartition& p : partitions) added = next.partitions.insert(p).second || added;
  if (!added && txn->state == TxnState::kOngoing) return ErrorCode::kNone;
  if (Status stored = Store(std::move(next)); !stored) {
    Logger("broker")->error("transaction log: {}", stored.error().ToString());
    return ErrorCode::kUnknownServerError;
  }
  return ErrorCode::kNone;
}

ErrorCode TransactionCoordinator::AddOffsets(const std::string& transactional_id, int64_t producer_id, int16_t epoch,
                                             const std::string& group) {
  const TransactionMetadata* txn = Find(transactional_id);
  if (ErrorCode error = CheckProducer(txn, producer_id, epoch); error != ErrorCode::kNone) return error;
  if (IsPrepare(txn->state)) return ErrorCode::kConcurrentTransactions;
  if (group.size() > 0xFFFF) return ErrorCode::kInvalidGroupId;
  if (txn->state == TxnState::kOngoing && txn->groups.contains(group)) return ErrorCode::kNone;
  TransactionMetadata next = *txn;
  if (next.state != TxnState::kOngoing) {
    next.state = TxnState::kOngoing;
    next.started_ms = clock_.NowMillis();
    next.partitions.clear();
    next.groups.clear();
    next.offsets.clear();
  }
  next.groups.insert(group);
  if (Status stored = Store(std::move(next)); !stored) {
    Logger("broker")->error("transaction log: {}", stored.error().ToString());
    return ErrorCode::kUnknownServerError;
  }
  return ErrorCode::kNone;
}

ErrorCode TransactionCoordinator::CheckTxnOffsetCommit(const std::string& transactional_id, int64_t producer_id,
                                                       int16_t epoch, const std::string& group) const {
  const TransactionMetadata* txn = Find(transactional_id);
  if (ErrorCode error = CheckProducer(txn, producer_id, epoch); error != ErrorCode::kNone) return error;
  if (txn->state != TxnState::kOngoing || !txn->groups.contains(group)) return ErrorCode::kInvalidTxnState;
  return ErrorCode::kNone;
}

Status TransactionCoordinator::AddPendingOffset(const std::string& transactional_id, const OffsetStore::Key& key,
                                                const CommittedOffset& value) {
  auto it = states_.find(transactional_id);
  if (it == states_.end() || it->second.state != TxnState::kOngoing) {
    return Conflict("transaction '{}' is not ongoing", transactional_id);
  }
  if (std::get<0>(key).size() > 0xFFFF || std::get<1>(key).size() > 0xFFFF) {
    return InvalidArgument("group or topic name too long");
  }
  // Held in memory: a crash before the commit aborts the transaction, offsets and all.
  it->second.offsets[key] = value;
  return OkStatus();
}

ErrorCode TransactionCoordinator::EndTxn(const std::string& transactional_id, int64_t producer_id, int16_t epoch,
                                         bool commit) {
  const TransactionMetadata* txn = Find(transactional_id);
  if (ErrorCode error = CheckProducer(txn, producer_id, epoch); error != ErrorCode::kNone) return error;
  switch (txn->state) {
    case TxnState::kOngoing: {
      TransactionMetadata prepared = *txn;
      prepared.state = commit ? TxnState::kPrepareCommit : TxnState::kPrepareAbort;
      if (Status stored = Store(std::move(prepared)); !stored) {
        Logger("broker")->error("transaction log: {}", stored.error().ToString());
        return ErrorCode::kUnknownServerError;
      }
      // The outcome is decided once Prepare* is durable; markers that fail now are retried.
      if (Status done = Complete(transactional_id); !done) {
        Logger("broker")->error("completing transaction '{}': {}", transactional_id, done.error().ToString());
      }
      return ErrorCode::kNone;
    }
    case TxnState::kCompleteCommit: return commit ? ErrorCode::kNone : ErrorCode::kInvalidTxnState;
    case TxnState::kCompleteAbort: return commit ? ErrorCode::kInvalidTxnState : ErrorCode::kNone;
    case TxnState::kPrepareCommit: return commit ? ErrorCode::kConcurrentTransactions : ErrorCode::kInvalidTxnState;
    case TxnState::kPrepareAbort: return commit ? ErrorCode::kInvalidTxnState : ErrorCode::kConcurrentTransactions;
    case TxnState::kEmpty:
    case TxnState::kDead: return ErrorCode::kInvalidTxnState;
  }
  return ErrorCode::kInvalidTxnState;
}

ErrorCode TransactionCoordinator::CheckProduce(const std::string& transactional_id, int64_t producer_id, int16_t epoch,
                                               const TxnPartition& partition) const {
  const TransactionMetadata* txn = Find(transactional_id);
  ErrorCode error = CheckProducer(txn, producer_id, epoch);
  // Produce answers a fenced producer with INVALID_PRODUCER_EPOCH in every version.
  if (error == ErrorCode::kProducerFenced) return ErrorCode::kInvalidProducerEpoch;
  if (error != ErrorCode::kNone) return error;
  if (txn->state != TxnState::kOngoing || !txn->partitions.contains(partition)) return ErrorCode::kInvalidTxnState;
  return ErrorCode::kNone;
}

void TransactionCoordinator::Tick() {
  const int64_t now = clock_.NowMillis();
  std::vector<std::string> expired;
  std::vector<std::string> unfinished;
  for (const auto& [id, txn] : states_) {
    if (txn.state == TxnState::kOngoing && now - txn.started_ms >= txn.timeout_ms) expired.push_back(id);
    if (IsPrepare(txn.state)) unfinished.push_back(id);
  }
  for (const std::string& id : expired) {
    Logger("broker")->info("transaction '{}' timed out after {} ms: aborting it", id, states_.at(id).timeout_ms);
    ++counts_.timed_out;
    if (Status aborted = AbortWithBumpedEpoch(id); !aborted) {
      Logger("broker")->error("aborting transaction '{}': {}", id, aborted.error().ToString());
    }
  }
  for (const std::string& id : unfinished) {
    if (Status done = Complete(id); !done) {
      Logger("broker")->error("completing transaction '{}': {}", id, done.error().ToString());
    }
  }
  std::vector<std::string> idle;
  for (const auto& [id, txn] : states_) {
    const bool settled = txn.state == TxnState::kEmpty || txn.state == TxnState::kCompleteCommit ||
                         txn.state == TxnState::kCompleteAbort;
    if (settled && now - txn.updated_ms >= options_.id_expiration_ms) idle.push_back(id);
  }
  for (const std::string& id : idle) {
    TransactionMetadata dead = states_.at(id);
    dead.state = TxnState::kDead;
    dead.updated_ms = now;
    states_.erase(id);
    if (Status logged = log_->Append(dead, states_); !logged) {
      Logger("broker")->error("expiring transactional id '{}': {}", id, logged.error().ToString());
      dead.state = TxnState::kEmpty;  // Kept (and retried at the next tick) rather than half-forgotten.
      states_[id] = std::move(dead);
      continue;
    }
    Logger("broker")->info("transactional id '{}' expired after {} ms without a transaction", id,
                           options_.id_expiration_ms);
  }
}

}  // namespace floe::broker
