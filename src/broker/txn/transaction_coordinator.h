// The transaction coordinator (KIP-98) of this single-node broker: the state machine of every
// transactional id, persisted in the TransactionLog before each answer.
//
//   InitProducerId  -> a producer id per transactional id; each call bumps the epoch, fencing
//                      the older producer; an Ongoing transaction of the old epoch is aborted
//   AddPartitionsToTxn / AddOffsetsToTxn -> Empty|Complete* -> Ongoing (the clock starts)
//   TxnOffsetCommit -> offsets held with the transaction, visible to the group on commit only
//   EndTxn          -> PrepareCommit|PrepareAbort (logged), markers written to every partition,
//                      offsets applied, then CompleteCommit|CompleteAbort (logged)
//   Tick            -> Ongoing transactions past their timeout are aborted with a bumped epoch;
//                      ids idle past their expiration are forgotten (a Dead record)
//
// Markers and offsets go through Hooks, so the coordinator knows nothing of partitions or the
// network and unit tests drive it with a ManualClock. A failed marker write leaves the
// transaction in Prepare*, and Tick (or Recover after a restart) finishes it later.
// Fencing answers are kProducerFenced; handlers send INVALID_PRODUCER_EPOCH to request
// versions older than PRODUCER_FENCED (KIP-588). Owned by the Broker; I/O thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "broker/protocol/error_code.h"
#include "broker/txn/transaction_log.h"

namespace floe::broker {

struct TransactionCoordinatorOptions {
  // Kafka's transaction.max.timeout.ms: a longer transaction.timeout.ms is refused.
  int32_t max_timeout_ms = 15 * 60 * 1000;
  // Kafka's transactional.id.expiration.ms: an id without a transaction for this long (Empty
  // or Complete*) is forgotten, so ids used once do not accumulate for ever.
  int64_t id_expiration_ms = 7LL * 24 * 3600 * 1000;
};

class TransactionCoordinator {
 public:
  struct Hooks {
    // Appends a commit or abort marker for (producer id, epoch) to a partition, durably.
    // A partition that no longer exists (topic deleted) is NotFound and skipped.
    std::function<Status(const TxnPartition&, int64_t producer_id, int16_t epoch, bool commit)> write_marker;
    // Makes a committed transaction's offset visible to its group.
    std::function<Status(const OffsetStore::Key&, const CommittedOffset&)> commit_offset;
    std::function<int64_t()> next_producer_id;
  };

  // Replays the log in `data_dir`; call Recover() once partitions can take markers.
  static Result<std::unique_ptr<TransactionCoordinator>> Open(const std::string& data_dir, bool sync, Clock& clock,
                                                               Hooks hooks, TransactionCoordinatorOptions options = {});

  // Finishes transactions a crash left in PrepareCommit or PrepareAbort (writes the markers
  // they may lack). Ongoing ones are aborted by Tick when their timeout passes.
  Status Recover();

  struct InitResult {
    ErrorCode error = ErrorCode::kNone;
    int64_t producer_id = -1;
    int16_t producer_epoch = -1;
  };
  // `current` is the producer id and epoch the client believes it has (InitProducerId v3+,
  // KIP-360), or nullopt.
  InitResult InitProducerId(const std::string& transactional_id, int32_t timeout_ms,
                            std::optional<std::pair<int64_t, int16_t>> current = std::nullopt);
  ErrorCode AddPartitions(const std::string& transactional_id, int64_t producer_id, int16_t epoch,
                          const std::vector<TxnPartition>& partitions);
  ErrorCode AddOffsets(const std::string& transactional_id, int64_t producer_id, int16_t epoch, const std::string& group);
  // Checks that the group's offsets may be written in this transaction (before any of them).
  ErrorCode CheckTxnOffsetCommit(const std::string& transactional_id, int64_t producer_id, int16_t epoch,
                                 const std::string& group) const;
  // Holds one offset with the transaction (after CheckTxnOffsetCommit passed).
  Status AddPendingOffset(const std::string& transactional_id, const OffsetStore::Key& key, const CommittedOffset& value);
  ErrorCode EndTxn(const std::string& transactional_id, int64_t producer_id, int16_t epoch, bool commit);
  // Whether a transactional batch of (producer id, epoch) may be appended to the partition:
  // the transaction must be Ongoing and hold the partition (AddPartitionsToTxn).
  ErrorCode CheckProduce(const std::string& transactional_id, int64_t producer_id, int16_t epoch,
                         const TxnPartition& partition) const;

  // Aborts timed-out transactions, retries unfinished Prepare* ones, forgets expired ids.
  void Tick();

  const TransactionMetadata* Find(const std::string& transactional_id) const;

  // Transactions completed since start, for /metrics (timed-out ones are among the aborted).
  struct Counts {
    uint64_t committed = 0;
    uint64_t aborted = 0;
    uint64_t timed_out = 0;
  };
  const Counts& counts() const { return counts_; }
  const TransactionLog& log() const { return *log_; }

 private:
  TransactionCoordinator(Clock& clock, Hooks hooks, TransactionCoordinatorOptions options)
      : clock_(clock), hooks_(std::move(hooks)), options_(options) {}

  // Persists `next` as the new state of its transactional id; on failure nothing changes.
  Status Store(TransactionMetadata next);
  // Checks producer id and epoch against the metadata.
  ErrorCode CheckProducer(const TransactionMetadata* txn, int64_t producer_id, int16_t epoch) const;
  // Moves an Ongoing (or Prepare*) transaction through Prepare* to Complete*.
  Status Finish(const std::string& transactional_id, bool commit);
  // Writes markers and offsets of a Prepare* transaction and logs Complete*.
  Status Complete(const std::string& transactional_id);
  // Aborts an Ongoing transaction with a bumped epoch (timeout, or a newer producer).
  Status AbortWithBumpedEpoch(const std::string& transactional_id);

  Clock& clock_;
  Hooks hooks_;
  TransactionCoordinatorOptions options_;
  std::unique_ptr<TransactionLog> log_;
  TransactionLog::States states_;
  Counts counts_;
};

}  // namespace floe::broker
