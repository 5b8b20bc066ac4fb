#include "broker/server/connection.h"

#include <sys/sendfile.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "base/logging.h"
#include "broker/handlers/handler.h"

namespace floe::broker {

namespace asio = boost::asio;

Connection::Connection(Broker& broker, asio::ip::tcp::socket socket, std::string address, net::ConnectionSlot slot)
    : broker_(broker),
      socket_(std::move(socket)),
      peer_(std::move(address)),
      slot_(std::move(slot)),
      writer_wake_(socket_.get_executor()),
      reader_wake_(socket_.get_executor()),
      connected_at_(std::chrono::steady_clock::now()),
      last_activity_(connected_at_) {
  boost::system::error_code ec;
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  ++broker_.metrics().connections_open;
  sasl_.authenticated = broker_.config().users.empty();
}

Connection::~Connection() {
  --broker_.metrics().connections_open;
}

void Connection::Start() {
  auto self = shared_from_this();
  asio::co_spawn(socket_.get_executor(), [self]() { return self->ReadLoop(); }, asio::detached);
  asio::co_spawn(socket_.get_executor(), [self]() { return self->WriteLoop(); }, asio::detached);
  asio::co_spawn(socket_.get_executor(), [self]() { return self->Watchdog(); }, asio::detached);
}

asio::awaitable<void> Connection::Watchdog() {
  auto self = shared_from_this();
  const auto idle = std::chrono::milliseconds(std::max(1, broker_.config().connections_max_idle_ms));
  const auto auth = std::chrono::milliseconds(std::max(1, broker_.config().authentication_timeout_ms));
  // Checking a few times per limit is precise enough and costs one timer per connection.
  const auto period = std::clamp(std::min(idle, auth) / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
  asio::steady_timer timer(socket_.get_executor());
  while (!closed_) {
    timer.expires_after(period);
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (ec || closed_) co_return;
    auto now = std::chrono::steady_clock::now();
    if (!sasl_.authenticated && now - connected_at_ >= auth) {
      ++broker_.metrics().frames_rejected;
      Close(fmt::format("not authenticated within {} ms", auth.count()));
    } else if (queue_.empty() && now - last_activity_ >= idle) {
      Close(fmt::format("idle for {} ms", idle.count()));
    }
  }
}

asio::awaitable<boost::system::error_code> Connection::ReadFrame(size_t size, std::string& frame) {
  // The claimed length is only a claim: memory grows with the bytes that actually arrive
  // (doubling from 64 KiB), so a client sending a 100 MiB length prefix and then nothing holds
  // 64 KiB, not 100 MiB.
  constexpr size_t kFirstChunk = 64 * 1024;
  size_t have = 0;
  while (have < size) {
    size_t next = std::min(size, std::max(kFirstChunk, have * 2));
    frame.resize(next);
    boost::system::error_code ec = co_await ReadExactly(asio::buffer(frame.data() + have, next - have));
    if (ec) co_return ec;
    have = next;
    last_activity_ = std::chrono::steady_clock::now();
  }
  co_return boost::system::error_code{};
}

void Connection::Close(std::string_view why) {
  if (closed_) return;
  closed_ = true;
  if (!why.empty()) Logger("broker")->info("closing connection from {}: {}", peer_, why);
  boost::system::error_code ec;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  writer_wake_.Notify();
  reader_wake_.Notify();
}

asio::awaitable<boost::system::error_code> Connection::ReadExactly(asio::mutable_buffer buffer) {
  boost::system::error_code ec;
  if (tls_) {
    co_await asio::async_read(*tls_, buffer, asio::redirect_error(asio::use_awaitable, ec));
  } else {
    co_await asio::async_read(socket_, buffer, asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return ec;
}

template <typename Buffers>
asio::awaitable<boost::system::error_code> Connection::WriteAll(const Buffers& buffers) {
  boost::system::error_code ec;
  if (tls_) {
    co_await asio::async_write(*tls_, buffers, asio::redirect_error(asio::use_awaitable, ec));
  } else {
    co_await asio::async_write(socket_, buffers, asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return ec;
}

asio::awaitable<void> Connection::ReadLoop() {
  auto self = shared_from_this();
  if (broker_.tls() != nullptr) {
    tls_ = std::make_unique<asio::ssl::stream<asio::ip::tcp::socket&>>(socket_, *broker_.tls());
    boost::system::error_code ec;
    co_await tls_->async_handshake(asio::ssl::stream_base::server, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      Close(fmt::format("TLS handshake failed: {}", ec.message()));
      co_return;
    }
  }
  const auto max_in_flight = static_cast<size_t>(std::max(1, broker_.config().max_in_flight_per_connection));
  while (!closed_) {
    while (!closed_ && queue_.size() >= max_in_flight) {
      reader_wake_.Reset();
      co_await reader_wake_.Wait();
    }
    if (closed_) break;
    unsigned char size_bytes[4];
    boost::system::error_code ec = co_await ReadExactly(asio::buffer(size_bytes));
    if (ec) {
      Close("");
      break;
    }
    int32_t size = static_cast<int32_t>((uint32_t{size_bytes[0]} << 24) | (uint32_t{size_bytes[1]} << 16) |
                                        (uint32_t{size_bytes[2]} << 8) | uint32_t{size_bytes[3]});
    last_activity_ = std::chrono::steady_clock::now();
    // Until SASL completes only small frames are taken (sasl_.authenticated is already true
    // when no users are configured).
    int32_t limit = sasl_.authenticated ? broker_.config().max_request_bytes
                                        : std::min(broker_.config().max_request_bytes, broker_.config().max_preauth_request_bytes);
    if (size < 8 || size > limit) {
      ++broker_.metrics().frames_rejected;
      Close(fmt::format("frame size {} outside [8, {}]{}", size, limit, sasl_.authenticated ? "" : " before authentication"));
      break;
    }
    std::string frame;
    ec = co_await ReadFrame(static_cast<size_t>(size), frame);
    if (ec) {
      Close("");
      break;
    }
    broker_.metrics().bytes_in += 4 + frame.size();
    auto slot = std::make_shared<Slot>();
    queue_.push_back(slot);
    asio::co_spawn(socket_.get_executor(), Handle(self, slot, std::move(frame)), asio::detached);
  }
}

asio::awaitable<void> Connection::Handle(std::shared_ptr<Connection> self, std::shared_ptr<Slot> slot, std::string frame) {
  auto started = std::chrono::steady_clock::now();
  WireReader reader(frame, false);
  auto header = ParseRequestHeader(reader);
  if (!header || !header->api || !header->version_supported) {
    if (header && header->api && header->api->key == ApiKey::kApiVersions) {
      // KIP-511: answer an unknown ApiVersions version in v0 format so the client can retry.
      RequestHeader v0 = *header;
      v0.flexible = false;
      BeginResponse(&slot->response, v0);
      WireWriter writer(&slot->response, false);
      WriteApiVersionsFallback(writer);
      FinishResponse(&slot->response);
    } else {
      ++broker_.metrics().frames_rejected;
      slot->close = true;
      Logger("broker")->info("closing connection from {}: {}", peer_,
                             !header ? header.error().ToString()
                                     : fmt::format("unsupported API key {} version {}", header->api_key, header->api_version));
    }
  } else if (!sasl_.authenticated && header->api->key != ApiKey::kApiVersions && header->api->key != ApiKey::kSaslHandshake &&
             header->api->key != ApiKey::kSaslAuthenticate) {
    // Kafka's rule: before authentication a client may only negotiate versions and SASL.
    ++broker_.metrics().frames_rejected;
    slot->close = true;
    Logger("broker")->info("closing connection from {}: {} before authenticating", peer_, header->api->name);
  } else {
    RequestContext ctx{broker_, *header, frame, peer_, sasl_};
    BeginResponse(&slot->response, *header);
    WireWriter writer(&slot->response, header->flexible);
    // A handler that throws (a bug) must not leave the request unanswered: the client would wait
    // for it forever. Closing the connection makes the client reconnect and retry, and the log
    // says what happened.
    Status status = OkStatus();
    try {
      status = co_await Dispatch(ctx, reader, writer);
    } catch (const std::exception& e) {
      status = Internal("handler threw: {}", e.what());
    }
    if (!status) {
      ++broker_.metrics().frames_rejected;
      slot->close = true;
      Logger("broker")->info("closing connection from {}: {} v{}: {}", peer_, header->api->name, header->api_version,
                             status.error().ToString());
    } else {
      slot->respond = ctx.send_response;
      slot->close_after_response = ctx.close_after_response;
      uint64_t external = 0;
      for (const ResponseRegion& r : ctx.regions) external += r.region.length;
      slot->regions = std::move(ctx.regions);
      FinishResponse(&slot->response, external);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    broker_.metrics().RecordRequest(header->api_key, seconds);
  }
  slot->done = true;
  writer_wake_.Notify();
}

asio::awaitable<void> Connection::WriteLoop() {
  auto self = shared_from_this();
  std::vector<asio::const_buffer> buffers;
  std::vector<std::shared_ptr<Slot>> sending;
  while (!closed_) {
    if (queue_.empty() || !queue_.front()->done) {
      writer_wake_.Reset();
      co_await writer_wake_.Wait();
      continue;
    }
    bool close_after = false;
    buffers.clear();
    sending.clear();
    std::shared_ptr<Slot> with_regions;
    while (!queue_.empty() && queue_.front()->done && !close_after) {
      if (!queue_.front()->regions.empty() && !queue_.front()->close && queue_.front()->respond) {
        // Send what was gathered first, then this response on its own.
        if (sending.empty()) {
          with_regions = std::move(queue_.front());
          queue_.pop_front();
        }
        break;
      }
      auto slot = std::move(queue_.front());
      queue_.pop_front();
      if (slot->close) {
        close_after = true;
      } else if (slot->respond) {
        buffers.push_back(asio::buffer(slot->response));
        broker_.metrics().bytes_out += slot->response.size();
        close_after = slot->close_after_response;
      }
      sending.push_back(std::move(slot));
    }
    reader_wake_.Notify();
    last_activity_ = std::chrono::steady_clock::now();
    if (close_after && !buffers.empty()) {
      // A refused login (SASL) is answered only after auth::kFailedLoginDelay, waited without
      // holding a thread: each guess costs the guesser that much per connection.
      asio::steady_timer delay(co_await asio::this_coro::executor, auth::kFailedLoginDelay);
      boost::system::error_code ignored;
      co_await delay.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      if (closed_) break;
    }
    if (!buffers.empty()) {
      boost::system::error_code ec = co_await WriteAll(buffers);
      if (ec) {
        Close("");
        break;
      }
    }
    if (with_regions && !co_await SendWithRegions(*with_regions)) {
      Close("");
      break;
    }
    if (close_after) Close("");
  }
}

asio::awaitable<bool> Connection::SendWithRegions(const Slot& slot) {
  boost::system::error_code ec;
  if (tls_) {
    // sendfile cannot encrypt: the file bytes are read and written through TLS.
    size_t at = 0;
    std::string chunk;
    for (const ResponseRegion& r : slot.regions) {
      if (r.at > at) {
        ec = co_await WriteAll(asio::buffer(slot.response.data() + at, r.at - at));
        if (ec) co_return false;
        at = r.at;
      }
      chunk.resize(r.region.length);
      uint64_t done = 0;
      while (done < r.region.length) {
        ssize_t n = ::pread(r.region.file->fd(), chunk.data() + done, r.region.length - done,
                            static_cast<off_t>(r.region.position + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          Logger("broker")->warn("reading a segment for {}: {}", peer_, n == 0 ? "unexpected end of file" : std::strerror(errno));
          co_return false;
        }
        done += static_cast<uint64_t>(n);
      }
      ec = co_await WriteAll(asio::buffer(chunk));
      if (ec) co_return false;
      broker_.metrics().bytes_out += r.region.length;
    }
    if (at < slot.response.size()) {
      ec = co_await WriteAll(asio::buffer(slot.response.data() + at, slot.response.size() - at));
      if (ec) co_return false;
    }
    broker_.metrics().bytes_out += slot.response.size();
    co_return true;
  }
  size_t at = 0;
  for (const ResponseRegion& r : slot.regions) {
    if (r.at > at) {
      co_await asio::async_write(socket_, asio::buffer(slot.response.data() + at, r.at - at),
                                 asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return false;
      at = r.at;
    }
    auto offset = static_cast<off_t>(r.region.position);
    uint64_t left = r.region.length;
    while (left > 0) {
      ssize_t n = ::sendfile(socket_.native_handle(), r.region.file->fd(), &offset, left);
      if (n > 0) {
        left -= static_cast<uint64_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        co_await socket_.async_wait(asio::ip::tcp::socket::wait_write, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return false;
        continue;
      }
      // The file ended early or the socket failed: the response cannot be completed.
      Logger("broker")->warn("sendfile to {}: {}", peer_, n == 0 ? "unexpected end of file" : std::strerror(errno));
      co_return false;
    }
    broker_.metrics().bytes_out += r.region.length;
  }
  if (at < slot.response.size()) {
    co_await asio::async_write(socket_, asio::buffer(slot.response.data() + at, slot.response.size() - at),
                               asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return false;
  }
  broker_.metrics().bytes_out += slot.response.size();
  co_return true;
}

}  // namespace floe::broker
