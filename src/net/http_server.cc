#include "net/http_server.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "base/logging.h"

namespace floe::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

using Executor = asio::strand<asio::io_context::executor_type>;

// One accepted connection, shared between its session and Stop(); touched only on its strand.
struct Connection {
  Connection(Executor e, ConnectionSlot s) : executor(std::move(e)), slot(std::move(s)) {}
  Executor executor;
  ConnectionSlot slot;  // Its place under the server's caps, given back when the connection goes.
  beast::tcp_stream* stream = nullptr;  // Null once the session ended.
  bool busy = false;                    // Between reading a request and sending its response.
};

}  // namespace

class HttpServer::Impl {
 public:
  Impl(HttpServerOptions options, HttpRouter router)
      : options_(std::move(options)),
        router_(std::move(router)),
        limiter_({.max_total = options_.max_connections, .max_per_address = options_.max_connections_per_address}) {}

  ~Impl() {
    Stop(std::chrono::milliseconds(0));
    {
      // Connections hold strands of io_: they must go before it does.
      std::lock_guard lock(mu_);
      connections_.clear();
    }
    acceptor_.reset();
    accept_strand_.reset();
    io_.reset();  // Destroys the frames of sessions that never finished.
  }

  Status Start() {
    if (io_) return InvalidArgument("HTTP server already started on {}", address_);
    if (options_.tls.enabled()) {
      FLOE_ASSIGN_OR_RETURN(tls_, MakeServerTlsContext(options_.tls));
    }
    io_ = std::make_unique<asio::io_context>(options_.threads);
    error_code ec;
    auto ip = asio::ip::make_address(options_.host, ec);
    if (ec) return InvalidArgument("HTTP server: '{}' is not an IP address: {}", options_.host, ec.message());
    tcp::endpoint endpoint(ip, options_.port);
    acceptor_.emplace(*io_);
    if (acceptor_->open(endpoint.protocol(), ec); ec) return IoError("HTTP server: open socket: {}", ec.message());
    acceptor_->set_option(asio::socket_base::reuse_address(true), ec);
    if (acceptor_->bind(endpoint, ec); ec) {
      return Unavailable("HTTP server: bind {}:{}: {}", options_.host, options_.port, ec.message());
    }
    if (acceptor_->listen(asio::socket_base::max_listen_connections, ec); ec) {
      return IoError("HTTP server: listen on {}:{}: {}", options_.host, options_.port, ec.message());
    }
    port_ = acceptor_->local_endpoint().port();
    address_ = fmt::format("{}:{}", options_.host, port_.load());
    // The acceptor is touched only on this strand: by the accept loop and by Stop's close.
    accept_strand_.emplace(asio::make_strand(*io_));
    asio::co_spawn(*accept_strand_, Accept(), asio::detached);
    for (int i = 0; i < std::max(1, options_.threads); ++i) {
      threads_.emplace_back([this] {
        try {
          io_->run();
        } catch (const std::exception& e) {
          Logger("http")->error("HTTP server {}: worker stopped by exception: {}", address_, e.what());
        }
      });
    }
    return OkStatus();
  }

  void Stop(std::chrono::milliseconds grace) {
    if (!io_ || threads_.empty()) return;
    stopping_ = true;
    asio::post(*accept_strand_, [this] {
      error_code ignored;
      acceptor_->close(ignored);
    });
    {
      std::lock_guard lock(mu_);
      for (const auto& conn : connections_) CloseIfIdle(conn);
    }
    {
      std::unique_lock lock(mu_);
      drained_.wait_for(lock, grace, [this] { return connections_.empty(); });
    }
    io_->stop();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  uint16_t port() const { return port_; }
  std::string address() const { return address_; }

 private:
  static void CloseIfIdle(const std::shared_ptr<Connection>& conn) {
    asio::post(conn->executor, [conn] {
      if (conn->stream != nullptr && !conn->busy) conn->stream->socket().close();
    });
  }

  asio::awaitable<void> Accept() {
    while (!stopping_) {
      error_code ec;
      Executor strand = asio::make_strand(*io_);
      tcp::socket socket = co_await acceptor_->async_accept(strand, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (stopping_ || !acceptor_->is_open()) co_return;
        Logger("http")->warn("HTTP server {}: accept: {}", address_, ec.message());
        // Out of descriptors: back off instead of spinning.
        asio::steady_timer timer(*io_, std::chrono::milliseconds(50));
        co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        continue;
      }
      auto endpoint = socket.remote_endpoint(ec);
      auto slot = limiter_.Admit(ec ? "unknown" : endpoint.address().to_string());
      if (!slot) {
        // Full, or full for this address: hang up at once rather than hold a place for a
        // client that cannot be served.
        Logger("http")->debug("HTTP server {}: {}", address_, slot.error().message());
        socket.close(ec);
        continue;
      }
      auto conn = std::make_shared<Connection>(strand, std::move(*slot));
      {
        std::lock_guard lock(mu_);
        connections_.insert(conn);
      }
      asio::co_spawn(strand, Session(std::move(socket), conn), [this, conn](std::exception_ptr) {
        std::lock_guard lock(mu_);
        connections_.erase(conn);
        drained_.notify_all();
      });
    }
  }

  // Writes a response that ends the connection (for requests that could not be read).
  template <typename Stream>
  static asio::awaitable<void> Reject(Stream& stream, int status, std::string_view message,
                                      const std::string& server_name) {
    http::response<http::string_body> res;
    res.version(11);
    res.result(static_cast<unsigned>(status));
    res.set(http::field::server, server_name);
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.set(http::field::connection, "close");
    res.body() = std::string(message) + "\n";
    res.prepare_payload();
    error_code ec;
    co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
  }

  asio::awaitable<void> Session(tcp::socket socket, std::shared_ptr<Connection> conn) {
    beast::tcp_stream stream(std::move(socket));
    conn->stream = &stream;
    std::string remote;
    {
      error_code ec;
      auto endpoint = stream.socket().remote_endpoint(ec);
      if (!ec) remote = fmt::format("{}:{}", endpoint.address().to_string(), endpoint.port());
    }
    try {
      if (tls_) {
        // HTTPS: the handshake gets the request timeout; a client that fails it is dropped.
        beast::ssl_stream<beast::tcp_stream&> secure(stream, *tls_);
        stream.expires_after(options_.request_timeout);
        error_code ec;
        co_await secure.async_handshake(asio::ssl::stream_base::server, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) {
          Logger("http")->info("HTTP server {}: TLS handshake with {} failed: {}", address_, remote, ec.message());
        } else {
          co_await Serve(secure, *conn, remote);
          stream.expires_after(std::chrono::seconds(2));
          co_await secure.async_shutdown(asio::redirect_error(asio::use_awaitable, ec));
        }
      } else {
        co_await Serve(stream, *conn, remote);
      }
    } catch (const std::exception& e) {
      Logger("http")->warn("HTTP server {}: connection from {}: {}", address_, remote, e.what());
    }
    conn->stream = nullptr;
    error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream.socket().close(ignored);
  }

  template <typename Stream>
  asio::awaitable<void> Serve(Stream& stream, Connection& conn, const std::string& remote) {
    beast::flat_buffer buffer;
    while (!stopping_) {
      conn.busy = false;
      http::request_parser<http::string_body> parser;
      parser.header_limit(options_.max_header_bytes);
      parser.body_limit(options_.max_body_bytes);
      beast::get_lowest_layer(stream).expires_after(options_.idle_timeout);
      error_code ec;
      co_await http::async_read_header(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      conn.busy = true;
      if (ec == http::error::header_limit) {
        co_await Reject(stream, 431, "request header too large", options_.server_name);
        co_return;
      }
      if (ec == http::error::body_limit) {
        co_await Reject(stream, 413, "request body too large", options_.server_name);
        co_return;
      }
      if (ec) {
        if (IsBadRequest(ec)) co_await Reject(stream, 400, "malformed HTTP request: " + ec.message(), options_.server_name);
        co_return;  // Closed, timed out or cancelled.
      }
      beast::get_lowest_layer(stream).expires_after(options_.request_timeout);
      // Credentials and browser checks come before the body: a refused client never gets
      // the server to read (or buffer) what it sends, and the connection ends unread.
      HttpRequest head = RequestFromHeader(parser.get(), remote);
      if (auto refused = router_.Guard(head)) {
        co_await Respond(stream, std::move(*refused), parser.get().version(), false, false);
        co_return;
      }
      auto expect = parser.get()[http::field::expect];
      if (!expect.empty() && beast::iequals(expect, "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        co_await asio::async_write(stream, asio::buffer(kContinue.data(), kContinue.size()),
                                   asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return;
      }
      co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      if (ec == http::error::body_limit) {
        co_await Reject(stream, 413, "request body too large", options_.server_name);
        co_return;
      }
      if (ec) {
        if (IsBadRequest(ec)) co_await Reject(stream, 400, "malformed HTTP request: " + ec.message(), options_.server_name);
        co_return;
      }
      http::request<http::string_body> req = parser.release();
      head.body = std::move(req.body());
      HttpResponse response = Handle(head);
      // After the handler: a Stop while it ran ends the connection with this response.
      bool keep_alive = req.keep_alive() && !stopping_;
      if (!co_await Respond(stream, std::move(response), req.version(), keep_alive, req.method() == http::verb::head)) co_return;
    }
  }

  // Sends `response`; false when the connection must end (it failed or is not kept alive).
  template <typename Stream>
  asio::awaitable<bool> Respond(Stream& stream, HttpResponse response, unsigned version, bool keep_alive, bool head) {
    error_code ec;
    if (response.delay.count() > 0) {
      asio::steady_timer delay(co_await asio::this_coro::executor, response.delay);
      co_await delay.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      ec.clear();
    }
    http::response<http::string_body> res;
    res.version(version);
    res.result(static_cast<unsigned>(response.status));
    std::string_view reason = StatusReason(response.status);
    if (!reason.empty()) res.reason(beast::string_view(reason.data(), reason.size()));
    for (const auto& [name, value] : response.headers.fields()) {
      res.insert(beast::string_view(name.data(), name.size()), beast::string_view(value.data(), value.size()));
    }
    if (!response.headers.Has("Server")) res.set(http::field::server, beast::string_view(options_.server_name));
    res.keep_alive(keep_alive);
    if (head) {
      res.content_length(response.body.size());
    } else {
      res.body() = std::move(response.body);
      res.prepare_payload();
    }
    co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
    co_return !ec && keep_alive;
  }

  // A parse error in the client's bytes (as opposed to a closed, timed-out or cancelled socket).
  static bool IsBadRequest(const error_code& ec) {
    error_code http_error = http::error::bad_method;
    return ec.category() == http_error.category() && ec != http::error::end_of_stream &&
           ec != http::error::partial_message;
  }

  HttpRequest RequestFromHeader(const http::request<http::string_body>& req, const std::string& remote) {
    HttpRequest request;
    request.method = std::string(req.method_string());
    request.target = std::string(req.target());
    size_t q = request.target.find('?');
    request.path = request.target.substr(0, q);
    if (q != std::string::npos) request.query_string = request.target.substr(q + 1);
    for (const auto& field : req) {
      request.headers.Add(std::string_view(field.name_string().data(), field.name_string().size()),
                          std::string_view(field.value().data(), field.value().size()));
    }
    request.remote_address = remote;
    request.scheme = tls_ ? "https" : "http";
    return request;
  }

  // Routes a request whose header the guard already passed.
  HttpResponse Handle(HttpRequest& request) {
    if (request.path.empty() || request.path.front() != '/') {
      return HttpResponse::Text(400, "request target must be an absolute path\n");
    }
    try {
      return router_.Dispatch(request, /*guarded=*/true);
    } catch (const std::exception& e) {
      Logger("http")->error("HTTP {} {}: handler threw: {}", request.method, request.path, e.what());
      return HttpResponse::Text(500, "internal error\n");
    }
  }

  HttpServerOptions options_;
  HttpRouter router_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint16_t> port_{0};
  std::string address_;
  std::unique_ptr<asio::io_context> io_;
  std::optional<tcp::acceptor> acceptor_;
  std::shared_ptr<asio::ssl::context> tls_;  // Null: plain HTTP.
  std::optional<Executor> accept_strand_;
  std::vector<std::thread> threads_;

  std::mutex mu_;
  std::condition_variable drained_;
  std::set<std::shared_ptr<Connection>> connections_;  // Guarded by mu_.
  ConnectionLimiter limiter_;
};

HttpServer::HttpServer(HttpServerOptions options, HttpRouter router)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(router))) {}
HttpServer::~HttpServer() = default;
Status HttpServer::Start() { return impl_->Start(); }
void HttpServer::Stop(std::chrono::milliseconds grace) { impl_->Stop(grace); }
uint16_t HttpServer::port() const { return impl_->port(); }
std::string HttpServer::address() const { return impl_->address(); }

}  // namespace floe::net
