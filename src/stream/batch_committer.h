// BatchCommitter: what the stream job does with a closed micro-batch — decode it, write its
// files and commit it as one snapshot together with the offsets it reaches.
//
// The table is the checkpoint: CommittedOffsets reads the offsets recorded in the current
// snapshot, and Commit succeeds only if the offsets of the batch's partitions are still
// `expected` when it swaps the table's pointer, so one batch can never land twice. Not
// thread-safe: the job commits on a thread of its own while its loop reads offsets (a
// rebalance), so both go through one SerializedCommitter.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "base/result.h"
#include "stream/micro_batch.h"
#include "stream/source/source_offsets.h"

namespace floe::stream {

struct CommitReport {
  int64_t snapshot_id = 0;
  uint64_t rows = 0;          // Rows committed to the table.
  uint64_t dead_letters = 0;  // Records committed to the dead-letter table instead.
  uint64_t files = 0;
  uint64_t bytes = 0;
};

class BatchCommitter {
 public:
  virtual ~BatchCommitter() = default;

  // The offsets in the table's current snapshot summary (empty for a new table).
  virtual Result<SourceOffsets> CommittedOffsets() = 0;

  // Commits `batch` with the table's offsets becoming `next` for its partitions. Fails with
  // kConflict, committing nothing and leaving no files behind, when the table's offsets for
  // those partitions are no longer `expected`.
  virtual Result<CommitReport> Commit(const MicroBatch& batch, const SourceOffsets& expected,
                                      const SourceOffsets& next) = 0;
};

// One call at a time into `inner`. A rebalance that reads the table's offsets while a commit is
// in flight waits for that commit, so the partitions it assigns start after what the commit
// made durable rather than before it.
class SerializedCommitter final : public BatchCommitter {
 public:
  explicit SerializedCommitter(BatchCommitter& inner) : inner_(inner) {}

  Result<SourceOffsets> CommittedOffsets() override {
    std::lock_guard lock(mutex_);
    return inner_.CommittedOffsets();
  }
  Result<CommitReport> Commit(const MicroBatch& batch, const SourceOffsets& expected,
                              const SourceOffsets& next) override {
    std::lock_guard lock(mutex_);
    return inner_.Commit(batch, expected, next);
  }

 private:
  BatchCommitter& inner_;
  std::mutex mutex_;
};

}  // namespace floe::stream
