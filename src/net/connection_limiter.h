// How many connections one listener holds open, in total and from each client address, and the
// refusal of one past either cap (issue #27: the unauthenticated must not take every slot, and
// one address must not take them all from the others). Every floe listener that accepts TCP
// connections asks one: the broker, the PostgreSQL port, and each HTTP server (query server,
// REST catalog, metrics). A listener admits a connection when it accepts it and keeps the
// ConnectionSlot for as long as the connection lives; the slot gives its place back when it is
// destroyed, even after the limiter. Thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/result.h"

namespace floe::net {

struct ConnectionLimits {
  size_t max_total = 1000;
  // From one client address (its IP, without the port). Loopback clients count as one address,
  // 127.0.0.1 and 127.0.0.2 as two.
  size_t max_per_address = 64;
};

// One admitted connection's place. Movable; gives the place back when destroyed.
class ConnectionSlot {
 public:
  ConnectionSlot() = default;
  ConnectionSlot(ConnectionSlot&&) noexcept = default;
  ConnectionSlot& operator=(ConnectionSlot&& other) noexcept;
  ~ConnectionSlot() { Release(); }

 private:
  friend class ConnectionLimiter;
  struct Counts;
  ConnectionSlot(std::shared_ptr<Counts> counts, std::string address)
      : counts_(std::move(counts)), address_(std::move(address)) {}
  void Release();

  std::shared_ptr<Counts> counts_;  // Null: an empty (moved-from or default) slot.
  std::string address_;
};

class ConnectionLimiter {
 public:
  explicit ConnectionLimiter(ConnectionLimits limits);

  // A place for a connection from `address`, or kResourceExhausted naming the cap it would pass.
  Result<ConnectionSlot> Admit(const std::string& address);

  size_t open() const;
  size_t open_from(const std::string& address) const;
  const ConnectionLimits& limits() const { return limits_; }

 private:
  const ConnectionLimits limits_;
  std::shared_ptr<ConnectionSlot::Counts> counts_;
};

}  // namespace floe::net
