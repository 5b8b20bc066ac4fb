// LoopbackConnection: a raw blocking TCP client to 127.0.0.1, for tests that speak a protocol
// byte by byte (malformed requests, a minimal PostgreSQL client) where a real client library
// would not send what the test needs.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace floe::testing {

class LoopbackConnection {
 public:
  explicit LoopbackConnection(uint16_t port);
  ~LoopbackConnection();
  LoopbackConnection(const LoopbackConnection&) = delete;
  LoopbackConnection& operator=(const LoopbackConnection&) = delete;

  bool connected() const { return connected_; }
  // Receives give up (as if closed) after `timeout`, so a test of a server that should hang up
  // cannot hang itself: time the read to tell the two apart.
  void SetReceiveTimeout(std::chrono::milliseconds timeout);
  // Sends all of `bytes`; false if the peer stopped taking them.
  bool Send(std::string_view bytes);
  void ShutdownWrite();
  // Appends what one receive returns to `out`; false once the peer has closed (or on error).
  bool ReadSome(std::string* out);
  // Reads exactly `n` bytes into `out`; false if the peer closed first.
  bool ReadExactly(char* out, size_t n);
  // Reads until the peer closes.
  std::string ReadAll();

 private:
  int fd_ = -1;
  bool connected_ = false;
};

}  // namespace floe::testing
