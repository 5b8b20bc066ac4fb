// One client connection: reads size-prefixed frames, runs each request's handler, and writes
// responses strictly in request order (clients pipeline and match responses by order), with
// none for acks=0 produces. A frame that cannot be parsed closes this connection only.
// Frames are buffered as their bytes arrive, never by the length they claim, and a watchdog
// closes connections that sit idle or, with users configured, do not authenticate in time.
//
// Owned by its own coroutines through shared_ptr; I/O thread only.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <string>

#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>

#include "broker/handlers/handler.h"
#include "broker/server/broker.h"
#include "broker/server/wake_signal.h"

namespace floe::broker {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `address`: the client's; `slot`: its place under the broker's caps (Broker::AdmitConnection),
  // given back when the connection goes.
  Connection(Broker& broker, boost::asio::ip::tcp::socket socket, std::string address, net::ConnectionSlot slot);
  ~Connection();
  void Start();

 private:
  struct Slot {
    bool done = false;
    bool respond = true;
    bool close = false;
    bool close_after_response = false;
    std::string response;
    std::vector<ResponseRegion> regions;
  };

  boost::asio::awaitable<void> ReadLoop();
  boost::asio::awaitable<void> WriteLoop();
  // Closes the connection when idle past connections_max_idle_ms or, before SASL completes,
  // past authentication_timeout_ms.
  boost::asio::awaitable<void> Watchdog();
  // Reads a frame of `size` bytes into `frame`, growing it as bytes arrive.
  boost::asio::awaitable<boost::system::error_code> ReadFrame(size_t size, std::string& frame);
  // `self` keeps the connection alive until the handler finishes.
  boost::asio::awaitable<void> Handle(std::shared_ptr<Connection> self, std::shared_ptr<Slot> slot, std::string frame);
  // Writes a response with file regions in order: bytes of `response`, then sendfile.
  boost::asio::awaitable<bool> SendWithRegions(const Slot& slot);
  void Close(std::string_view why);
  // Reads or writes exactly these bytes, through TLS when the listener has it.
  boost::asio::awaitable<boost::system::error_code> ReadExactly(boost::asio::mutable_buffer buffer);
  template <typename Buffers>
  boost::asio::awaitable<boost::system::error_code> WriteAll(const Buffers& buffers);

  Broker& broker_;
  boost::asio::ip::tcp::socket socket_;
  std::string peer_;
  net::ConnectionSlot slot_;
  std::deque<std::shared_ptr<Slot>> queue_;
  WakeSignal writer_wake_;
  WakeSignal reader_wake_;
  bool closed_ = false;
  std::chrono::steady_clock::time_point connected_at_;
  std::chrono::steady_clock::time_point last_activity_;  // Bytes read or a response written.
  SaslState sasl_;
  std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>> tls_;
};

}  // namespace floe::broker
