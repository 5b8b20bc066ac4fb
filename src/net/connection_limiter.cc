#include "net/connection_limiter.h"

#include <algorithm>

namespace floe::net {

// Shared by the limiter and its slots, so a slot that outlives its listener still releases
// into something.
struct ConnectionSlot::Counts {
  std::mutex mu;
  size_t total = 0;                         // Guarded by mu.
  std::map<std::string, size_t> by_address;  // Guarded by mu; no zero entries.
};

ConnectionSlot& ConnectionSlot::operator=(ConnectionSlot&& other) noexcept {
  if (this != &other) {
    Release();
    counts_ = std::move(other.counts_);
    address_ = std::move(other.address_);
  }
  return *this;
}

void ConnectionSlot::Release() {
  if (counts_ == nullptr) return;
  std::lock_guard lock(counts_->mu);
  --counts_->total;
  auto it = counts_->by_address.find(address_);
  if (it != counts_->by_address.end() && --it->second == 0) counts_->by_address.erase(it);
  counts_.reset();
}

ConnectionLimiter::ConnectionLimiter(ConnectionLimits limits)
    : limits_(limits), counts_(std::make_shared<ConnectionSlot::Counts>()) {}

Result<ConnectionSlot> ConnectionLimiter::Admit(const std::string& address) {
  std::lock_guard lock(counts_->mu);
  if (counts_->total >= std::max<size_t>(limits_.max_total, 1)) {
    return ResourceExhausted("{} connections are open, the most this listener takes", counts_->total);
  }
  auto it = counts_->by_address.find(address);
  size_t from_address = it == counts_->by_address.end() ? 0 : it->second;
  if (from_address >= std::max<size_t>(limits_.max_per_address, 1)) {
    return ResourceExhausted("{} connections from {} are open, the most one address may hold", from_address, address);
  }
  ++counts_->total;
  ++counts_->by_address[address];
  return ConnectionSlot(counts_, address);
}

size_t ConnectionLimiter::open() const {
  std::lock_guard lock(counts_->mu);
  return counts_->total;
}

size_t ConnectionLimiter::open_from(const std::string& address) const {
  std::lock_guard lock(counts_->mu);
  auto it = counts_->by_address.find(address);
  return it == counts_->by_address.end() ? 0 : it->second;
}

}  // namespace floe::net
