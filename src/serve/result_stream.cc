#include "serve/result_stream.h"

namespace floe::serve {

int64_t EstimateRowBytes(const ResultRow& row) {
  int64_t bytes = 2;
  for (const auto& value : row) {
    bytes += 4;
    if (!value.is_null() && (value.type().kind() == sql::TypeKind::kVarchar ||
                             value.type().kind() == sql::TypeKind::kVarbinary)) {
      bytes += static_cast<int64_t>(value.as_string().size() * 4 / 3);
    } else {
      bytes += 12;
    }
  }
  return bytes;
}

void ResultStream::Begin(StatementOutcome header) {
  header.result.rows.clear();
  std::unique_lock lock(mu_);
  Append({.kind = StreamItem::Kind::kBegin, .statement = std::make_shared<StatementOutcome>(std::move(header)), .rows = {}},
         0, lock);
}

void ResultStream::End(StatementOutcome summary) {
  summary.result.rows.clear();
  std::unique_lock lock(mu_);
  Append({.kind = StreamItem::Kind::kEnd, .statement = std::make_shared<StatementOutcome>(std::move(summary)), .rows = {}},
         0, lock);
}

Status ResultStream::Push(std::vector<ResultRow> rows) {
  if (rows.empty()) return OkStatus();
  int64_t bytes = 0;
  for (const auto& row : rows) bytes += EstimateRowBytes(row);
  std::unique_lock lock(mu_);
  // An empty buffer always takes the batch, however large, so progress never needs two batches.
  while (!closed_ && bytes_ > 0 && bytes_ + bytes > max_bytes_) {
    producer_blocked_ = true;
    readable_.notify_all();
    space_.wait(lock);
  }
  producer_blocked_ = false;
  if (closed_) return Unavailable("the query ended while its result was being sent");
  Append({.kind = StreamItem::Kind::kRows, .statement = nullptr, .rows = std::move(rows)}, bytes, lock);
  return OkStatus();
}

void ResultStream::Close(bool discard) {
  std::unique_lock lock(mu_);
  if (closed_ && !discard) return;
  closed_ = true;
  if (discard) {
    items_.clear();
    bytes_ = 0;
  }
  space_.notify_all();
  Notify(lock);
}

void ResultStream::Append(StreamItem item, int64_t bytes, std::unique_lock<std::mutex>& lock) {
  if (closed_) return;
  items_.push_back(std::move(item));
  bytes_ += bytes;
  peak_ = std::max(peak_, bytes_);
  Notify(lock);
}

void ResultStream::Notify(std::unique_lock<std::mutex>& lock) {
  std::function<void()> listener;
  if (armed_) {
    armed_ = false;
    listener = listener_;
  }
  lock.unlock();
  readable_.notify_all();
  if (listener) listener();
}

std::vector<StreamItem> ResultStream::Take(int64_t max_bytes) {
  std::vector<StreamItem> out;
  std::unique_lock lock(mu_);
  int64_t taken = 0;
  while (!items_.empty() && (taken < max_bytes || items_.front().kind != StreamItem::Kind::kRows)) {
    StreamItem& front = items_.front();
    if (front.kind != StreamItem::Kind::kRows) {
      out.push_back(std::move(front));
      items_.pop_front();
      continue;
    }
    // Whole batch when it fits; otherwise its first rows up to the budget.
    size_t n = 0;
    int64_t bytes = 0;
    while (n < front.rows.size() && (n == 0 || taken + bytes < max_bytes)) bytes += EstimateRowBytes(front.rows[n++]);
    StreamItem part{.kind = StreamItem::Kind::kRows, .statement = nullptr, .rows = {}};
    if (n == front.rows.size()) {
      part.rows = std::move(front.rows);
      items_.pop_front();
    } else {
      part.rows.assign(std::make_move_iterator(front.rows.begin()), std::make_move_iterator(front.rows.begin() + n));
      front.rows.erase(front.rows.begin(), front.rows.begin() + n);
    }
    bytes_ -= bytes;
    taken += bytes;
    out.push_back(std::move(part));
  }
  if (out.empty() && !closed_) armed_ = true;
  if (taken > 0) space_.notify_all();
  return out;
}

bool ResultStream::Finished() const {
  std::lock_guard lock(mu_);
  return closed_ && items_.empty();
}

void ResultStream::WaitReadable(int64_t min_bytes, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  readable_.wait_for(lock, timeout, [&] { return closed_ || producer_blocked_ || bytes_ >= min_bytes; });
}

void ResultStream::SetListener(std::function<void()> listener) {
  std::lock_guard lock(mu_);
  listener_ = std::move(listener);
}

int64_t ResultStream::buffered_bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

int64_t ResultStream::peak_bytes() const {
  std::lock_guard lock(mu_);
  return peak_;
}

}  // namespace floe::serve
