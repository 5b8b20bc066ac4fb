// Test-only: a one-shot TCP server on a free loopback port that answers its first connection
// with scripted bytes (after reading the request header), for responses no well-behaved server
// would send. Lives on its own thread until destroyed.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace floe::net::testing {

class ScriptedServer {
 public:
  explicit ScriptedServer(std::string reply) : reply_(std::move(reply)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd_, 8), 0);
    socklen_t len = sizeof(addr);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      int conn = ::accept(fd_, nullptr, nullptr);
      if (conn < 0) return;
      std::string request;
      char buf[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        ssize_t n = ::recv(conn, buf, sizeof(buf), 0);
        if (n <= 0) break;
        request.append(buf, static_cast<size_t>(n));
      }
      (void)::send(conn, reply_.data(), reply_.size(), MSG_NOSIGNAL);
      ::shutdown(conn, SHUT_RDWR);
      ::close(conn);
    });
  }
  ~ScriptedServer() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string url() const { return fmt::format("http://127.0.0.1:{}/x", port_); }
  uint16_t port() const { return port_; }

 private:
  std::string reply_;
  int fd_;
  uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace floe::net::testing
