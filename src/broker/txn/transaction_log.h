// The transaction coordinator's durable state: `<data>/transactions/transactions.log`, a
// FramedRecordFile (`u32 length | u32 crc32c(body) | body`, the body a TransactionMetadata
// record), one record per state change. Replayed on start: the last record per
// transactional id wins; the first record that is torn, fails its CRC or does not decode ends
// the log and the file is cut there (a crash mid-write). Rewritten with only the live records
// once it holds mostly superseded ones.
//
// Owned by the TransactionCoordinator; I/O thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "base/result.h"
#include "broker/log/framed_record_file.h"
#include "broker/txn/transaction_metadata.h"

namespace floe::broker {

class TransactionLog {
 public:
  using States = std::map<std::string, TransactionMetadata>;

  // Opens (creating) the log under `data_dir` and fills `replayed` with its states. `sync`
  // makes every append fdatasync before it returns.
  static Result<std::unique_ptr<TransactionLog>> Open(const std::string& data_dir, bool sync, States* replayed);

  // Appends `txn`'s record; `live` (which holds `txn`, unless it is Dead) is what a compaction
  // keeps.
  Status Append(const TransactionMetadata& txn, const States& live);

  const std::string& path() const { return file_->path(); }
  // Bytes cut off the tail when the log was opened.
  uint64_t truncated_bytes() const { return file_->truncated_bytes(); }

 private:
  explicit TransactionLog(std::unique_ptr<FramedRecordFile> file) : file_(std::move(file)) {}
  Status Compact(const States& live);

  std::unique_ptr<FramedRecordFile> file_;
};

}  // namespace floe::broker
