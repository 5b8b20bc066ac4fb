#include "broker/txn/transaction_log.h"

#include <filesystem>
#include <vector>

namespace floe::broker {
namespace {

constexpr uint32_t kMaxTransactionRecord = 16 << 20;

}  // namespace

Result<std::unique_ptr<TransactionLog>> TransactionLog::Open(const std::string& data_dir, bool sync, States* replayed) {
  std::string dir = data_dir + "/transactions";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("create {}: {}", dir, ec.message());
  // The last record per transactional id wins; a Dead record forgets the id.
  auto replay = [replayed](std::string_view body) -> Status {
    FLOE_ASSIGN_OR_RETURN(TransactionMetadata record, DecodeTransactionRecord(body));
    std::string id = record.transactional_id;
    if (record.state == TxnState::kDead) {
      replayed->erase(id);
    } else {
      (*replayed)[id] = std::move(record);
    }
    return OkStatus();
  };
  FLOE_ASSIGN_OR_RETURN(auto file,
                        FramedRecordFile::Open(dir + "/transactions.log",
                                               {.max_record_bytes = kMaxTransactionRecord, .sync = sync}, replay));
  std::unique_ptr<TransactionLog> log(new TransactionLog(std::move(file)));
  if (log->file_->records() > 1000 && log->file_->records() > 4 * replayed->size()) {
    FLOE_RETURN_IF_ERROR(log->Compact(*replayed));
  }
  return log;
}

Status TransactionLog::Compact(const States& live) {
  std::vector<std::string> bodies;
  bodies.reserve(live.size());
  for (const auto& [id, txn] : live) bodies.push_back(EncodeTransactionRecord(txn));
  return file_->Rewrite(bodies);
}

Status TransactionLog::Append(const TransactionMetadata& txn, const States& live) {
  std::string body = EncodeTransactionRecord(txn);
  if (body.size() > kMaxTransactionRecord)
    return ResourceExhausted("transaction '{}' record of {} bytes", txn.transactional_id, body.size());
  FLOE_RETURN_IF_ERROR(file_->Append(body));
  if (file_->records() > 10000 && file_->records() > 4 * live.size()) return Compact(live);
  return OkStatus();
}

}  // namespace floe::broker
