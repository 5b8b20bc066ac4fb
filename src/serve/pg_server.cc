#include "serve/pg_server.h"

#include <openssl/crypto.h>

#include <atomic>
#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "auth/secure_random.h"
#include "base/logging.h"
#include "net/connection_limiter.h"
#include "serve/parameter_substitution.h"
#include "serve/pg_messages.h"
#include "serve/pg_statements.h"
#include "serve/pg_types.h"
#include "sql/parser/pre_parser.h"

namespace floe::serve {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using Strand = asio::strand<asio::io_context::executor_type>;

namespace {

// Lets a query's stream wake its connection only while the io_context lives. A query may
// outlive the server (the query manager is destroyed after it), so the stream's listener holds
// the connection's timer weakly: asio objects of a destroyed io_context must never be touched,
// not even released (a strand's release locks its service's mutex).
class Liveness {
 public:
  // Cancels `timer`'s wait on its strand, if the timer and its io_context still exist. The
  // strong reference taken here is dropped under the lock, while the io_context lives.
  void Wake(const std::weak_ptr<asio::steady_timer>& weak) {
    std::lock_guard lock(mu_);
    if (!alive_) return;
    if (auto timer = weak.lock()) asio::post(timer->get_executor(), [timer] { timer->cancel(); });
  }
  void End() {
    std::lock_guard lock(mu_);
    alive_ = false;
  }

 private:
  std::mutex mu_;
  bool alive_ = true;
};

// What a CancelRequest on another socket may reach: the connection's running query.
struct CancelTarget {
  int32_t secret = 0;
  std::mutex mu;
  std::shared_ptr<Query> current;  // Guarded by mu.
};

struct Message {
  char type = 0;
  std::string body;
};

struct PreparedStatement {
  std::string query;
  std::vector<int32_t> oids;
  int parameter_count = 0;
};

// A bound statement. Its query runs from the first Describe or Execute and streams its rows;
// an Execute with a row limit sends some and leaves the query running behind its bounded
// buffer until the next Execute (a cursor).
struct Portal {
  std::string sql;
  std::vector<int16_t> result_formats;
  std::shared_ptr<Query> query;                    // Once run.
  std::shared_ptr<const StatementOutcome> header;  // Its columns, once the engine knows them.
  std::shared_ptr<const StatementOutcome> ended;   // Its end, once reached.
  std::deque<ResultRow> pending;                   // Taken from the stream, not yet sent.
  int64_t sent = 0;
  bool done = false;   // The stream is finished (the query has ended).
  bool empty = false;  // The statement was empty.
};

// Closes the connection after the messages written so far.
struct CloseConnection {};

bool LooksLikeRowStatement(std::string_view sql) {
  auto tokens = sql::Tokenize(sql);
  if (!tokens || tokens->empty()) return false;
  const sql::Token& first = tokens->front();
  return first.IsKeyword("select") || first.IsKeyword("with") || first.IsKeyword("values") ||
         first.IsKeyword("show") || first.IsKeyword("table") || first.IsKeyword("explain") ||
         first.IsKeyword("describe");
}

std::string CommandTag(const StatementOutcome& outcome, size_t rows) {
  const std::string& verb = outcome.verb;
  if (verb == "INSERT") return fmt::format("INSERT 0 {}", std::max<int64_t>(outcome.affected, 0));
  if (verb == "UPDATE" || verb == "DELETE" || verb == "MERGE") {
    return fmt::format("{} {}", verb, std::max<int64_t>(outcome.affected, 0));
  }
  // PostgreSQL tags CREATE TABLE AS with the rows it wrote, as a SELECT.
  if (verb == "CREATE TABLE" && outcome.affected >= 0) return fmt::format("SELECT {}", outcome.affected);
  if (verb == "SHOW" || verb == "EXPLAIN") return verb;
  if (outcome.has_rows || verb.empty() || verb == "SELECT") return fmt::format("SELECT {}", rows);
  return verb;
}

pg::ErrorFields Fields(const QueryError& error) {
  return {.severity = "ERROR", .sqlstate = error.sqlstate, .message = error.message, .position = error.position};
}

}  // namespace

class PgServer::Impl {
 public:
  Impl(QueryManager& manager, PgServerOptions options, MetricsRegistry* metrics)
      : manager_(manager),
        options_(std::move(options)),
        metrics_(metrics),
        statements_(std::make_shared<pg::PgStatements>(manager.catalog(), options_.version)),
        liveness_(std::make_shared<Liveness>()),
        limiter_({.max_total = static_cast<size_t>(std::max(1, options_.max_connections)),
                  .max_per_address = static_cast<size_t>(std::max(1, options_.max_connections_per_address))}) {}

  ~Impl() { Stop(); }

  Status Start() {
    if (options_.tls.enabled()) {
      FLOE_ASSIGN_OR_RETURN(tls_, net::MakeServerTlsContext(options_.tls));
    }
    io_ = std::make_unique<asio::io_context>(options_.threads);
    error_code ec;
    auto ip = asio::ip::make_address(options_.host, ec);
    if (ec) return InvalidArgument("PostgreSQL port: '{}' is not an IP address", options_.host);
    tcp::endpoint endpoint(ip, options_.port);
    acceptor_.emplace(*io_);
    if (acceptor_->open(endpoint.protocol(), ec); ec) return IoError("PostgreSQL port: open: {}", ec.message());
    acceptor_->set_option(asio::socket_base::reuse_address(true), ec);
    if (acceptor_->bind(endpoint, ec); ec) {
      return Unavailable("PostgreSQL port: bind {}:{}: {}", options_.host, options_.port, ec.message());
    }
    if (acceptor_->listen(asio::socket_base::max_listen_connections, ec); ec) {
      return IoError("PostgreSQL port: listen: {}", ec.message());
    }
    port_ = acceptor_->local_endpoint().port();
    accept_strand_.emplace(asio::make_strand(*io_));
    asio::co_spawn(*accept_strand_, Accept(), asio::detached);
    for (int i = 0; i < std::max(1, options_.threads); ++i) {
      threads_.emplace_back([this] {
        try {
          io_->run();
        } catch (const std::exception& e) {
          Logger("pg")->error("PostgreSQL port: worker stopped by exception: {}", e.what());
        }
      });
    }
    return OkStatus();
  }

  void Stop() {
    if (!io_) return;
    stopping_ = true;
    liveness_->End();
    io_->stop();
    for (auto& t : threads_) t.join();
    threads_.clear();
    acceptor_.reset();
    accept_strand_.reset();
    io_.reset();  // Destroys the frames of connections still open, closing their sockets.
  }

  uint16_t port() const { return port_; }

  const PgServerOptions& options() const { return options_; }
  asio::ssl::context* tls() const { return tls_.get(); }
  QueryManager& manager() { return manager_; }
  const std::shared_ptr<pg::PgStatements>& statements() const { return statements_; }
  const std::shared_ptr<Liveness>& liveness() const { return liveness_; }
  MetricsRegistry* metrics() { return metrics_; }

  // `secret`: the cancel key, from auth::SecureRandomU64 (whoever guesses it can cancel the
  // connection's queries).
  std::pair<int32_t, std::shared_ptr<CancelTarget>> Register(int32_t secret) {
    auto target = std::make_shared<CancelTarget>();
    target->secret = secret;
    std::lock_guard lock(mu_);
    int32_t pid = next_pid_++;
    targets_[pid] = target;
    return {pid, target};
  }

  void Unregister(int32_t pid) {
    std::lock_guard lock(mu_);
    targets_.erase(pid);
  }

  void Cancel(int32_t pid, int32_t secret) {
    std::shared_ptr<CancelTarget> target;
    {
      std::lock_guard lock(mu_);
      auto it = targets_.find(pid);
      if (it == targets_.end()) return;
      target = it->second;
    }
    if (target->secret != secret) return;
    std::shared_ptr<Query> query;
    {
      std::lock_guard lock(target->mu);
      query = target->current;
    }
    if (query) query->Cancel();
  }

 private:
  asio::awaitable<void> Accept();

  QueryManager& manager_;
  const PgServerOptions options_;
  MetricsRegistry* metrics_;
  const std::shared_ptr<pg::PgStatements> statements_;
  const std::shared_ptr<Liveness> liveness_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint16_t> port_{0};
  // Counts each connection from accept to the end of its coroutine.
  net::ConnectionLimiter limiter_;
  std::unique_ptr<asio::io_context> io_;
  std::optional<tcp::acceptor> acceptor_;
  std::shared_ptr<asio::ssl::context> tls_;  // Null: SSLRequest is answered 'N'.
  std::optional<Strand> accept_strand_;
  std::vector<std::thread> threads_;

  std::mutex mu_;
  int32_t next_pid_ = 1000;                                  // Guarded by mu_.
  std::map<int32_t, std::shared_ptr<CancelTarget>> targets_;  // Guarded by mu_.
};

namespace {

// One client connection: its session, prepared statements and portals. Lives in its coroutine
// on its strand.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `admission`: its place under the server's caps, or why there is none (then the client is
  // told FATAL 53300 and the connection ends).
  Connection(PgServer::Impl& server, tcp::socket socket, Strand strand, Result<net::ConnectionSlot> admission)
      : server_(server),
        admission_(std::move(admission)),
        socket_(std::move(socket)),
        strand_(std::move(strand)),
        writer_(&out_),
        timer_(std::make_shared<asio::steady_timer>(strand_, asio::steady_timer::time_point::max())),
        auth_deadline_(strand_) {}

  // A client that leaves stops what it left running (its queries would block on full buffers).
  ~Connection() {
    for (auto& [name, portal] : portals_) {
      if (portal.query) portal.query->Cancel();
    }
    if (target_) {
      std::lock_guard lock(target_->mu);
      if (target_->current) target_->current->Cancel();
    }
  }

  asio::awaitable<void> Run() {
    auto secret = auth::SecureRandomU64();
    auto [pid, target] = server_.Register(static_cast<int32_t>(secret.value_or(0)));
    pid_ = pid;
    target_ = target;
    try {
      if (!secret) Fatal("XX000", secret.error().message());
      if (!admission_) {
        Fatal("53300", "sorry, too many clients already: " + admission_.error().message());
      }
      // Whoever has not authenticated by the deadline is cut off, whatever it is waiting in.
      auth_deadline_.expires_after(server_.options().authentication_timeout);
      auth_deadline_.async_wait([weak = weak_from_this()](error_code ec) {
        auto self = weak.lock();
        if (ec || !self || self->authenticated_) return;
        Logger("pg")->info("PostgreSQL connection {}: not authenticated within {} ms", self->pid_,
                           self->server_.options().authentication_timeout.count());
        error_code ignored;
        self->socket_.close(ignored);
      });
      bool started = co_await Startup();
      authenticated_ = true;
      auth_deadline_.cancel();
      if (started) co_await Serve();
    } catch (const CloseConnection&) {
    } catch (const std::exception& e) {
      Logger("pg")->debug("PostgreSQL connection {}: {}", pid_, e.what());
    }
    error_code ignored;
    if (!out_.empty()) co_await WriteAll(asio::buffer(out_), ignored);
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    server_.Unregister(pid_);
  }

 private:
  // Makes `in_` hold at least `n` unread bytes; false at end of stream.
  asio::awaitable<bool> Fill(size_t n) {
    while (in_.size() - in_pos_ < n) {
      if (in_pos_ > 0) {
        in_.erase(0, in_pos_);
        in_pos_ = 0;
      }
      char chunk[16384];
      error_code ec;
      size_t got = tls_ ? co_await tls_->async_read_some(asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec))
                        : co_await socket_.async_read_some(asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return false;
      in_.append(chunk, got);
    }
    co_return true;
  }

  int32_t PeekInt32(size_t at) const {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(in_[in_pos_ + at + i]);
    return static_cast<int32_t>(v);
  }

  // Sends a FATAL error and ends the connection.
  [[noreturn]] void Fatal(std::string_view sqlstate, std::string message) {
    writer_.Error({.severity = "FATAL", .sqlstate = std::string(sqlstate), .message = std::move(message)});
    throw CloseConnection{};
  }

  asio::awaitable<std::optional<Message>> ReadMessage() {
    if (!co_await Fill(5)) co_return std::nullopt;
    Message message;
    message.type = in_[in_pos_];
    int32_t length = PeekInt32(1);
    uint32_t limit = authenticated_ ? server_.options().max_message_bytes : server_.options().max_startup_bytes;
    if (length < 4 || static_cast<uint32_t>(length) > limit) {
      Fatal("08P01", fmt::format("invalid message length {} for message type '{}'", length,
                                 std::isprint(static_cast<unsigned char>(message.type)) ? message.type : '?'));
    }
    if (!co_await Fill(1 + static_cast<size_t>(length))) co_return std::nullopt;
    message.body = in_.substr(in_pos_ + 5, static_cast<size_t>(length) - 4);
    in_pos_ += 1 + static_cast<size_t>(length);
    co_return message;
  }

  asio::awaitable<void> Flush() {
    if (out_.empty()) co_return;
    error_code ec;
    co_await WriteAll(asio::buffer(out_), ec);
    out_.clear();
    if (ec) throw CloseConnection{};
  }

  // Writes to the client, through TLS once the connection upgraded.
  asio::awaitable<void> WriteAll(asio::const_buffer bytes, error_code& ec) {
    if (tls_) {
      co_await asio::async_write(*tls_, bytes, asio::redirect_error(asio::use_awaitable, ec));
    } else {
      co_await asio::async_write(socket_, bytes, asio::redirect_error(asio::use_awaitable, ec));
    }
  }

  // SSLRequest with a certificate configured: 'S', then the TLS handshake on this socket.
  asio::awaitable<void> StartTls() {
    out_.push_back('S');
    co_await Flush();
    // Bytes sent before the handshake would be taken as if encrypted (CVE-2021-23214): refuse.
    if (in_pos_ != in_.size()) Fatal("08P01", "received unencrypted data after SSL request");
    tls_ = std::make_unique<asio::ssl::stream<tcp::socket&>>(socket_, *server_.tls());
    error_code ec;
    co_await tls_->async_handshake(asio::ssl::stream_base::server, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      Logger("pg")->info("PostgreSQL connection {}: TLS handshake failed: {}", pid_, ec.message());
      tls_.reset();
      throw CloseConnection{};
    }
  }

  asio::awaitable<bool> Startup() {
    for (int attempt = 0; attempt < 4; ++attempt) {
      if (!co_await Fill(4)) co_return false;
      int32_t length = PeekInt32(0);
      if (length < 8 || static_cast<uint32_t>(length) > server_.options().max_startup_bytes) {
        Fatal("08P01", fmt::format("invalid startup packet length {}", length));
      }
      if (!co_await Fill(static_cast<size_t>(length))) co_return false;
      int32_t code = PeekInt32(4);
      std::string body = in_.substr(in_pos_ + 8, static_cast<size_t>(length) - 8);
      in_pos_ += static_cast<size_t>(length);
      if (code == pg::kSslRequestCode && server_.tls() != nullptr && !tls_) {
        co_await StartTls();
        continue;
      }
      if (code == pg::kSslRequestCode || code == pg::kGssEncRequestCode) {
        out_.push_back('N');
        co_await Flush();
        continue;
      }
      if (code == pg::kCancelRequestCode) {
        pg::MessageReader reader(body);
        auto pid = reader.Int32("cancel pid");
        auto secret = reader.Int32("cancel secret");
        if (pid && secret) server_.Cancel(*pid, *secret);
        co_return false;
      }
      if ((code >> 16) != 3) Fatal("0A000", fmt::format("unsupported frontend protocol {}.{}", code >> 16, code & 0xffff));
      // With a certificate configured, TLS is required: psql's default sslmode=prefer asks first.
      if (server_.tls() != nullptr && !tls_) Fatal("28000", "this server requires SSL (connect with sslmode=require)");
      auto parameters = pg::ReadStartupParameters(body);
      if (!parameters) Fatal("08P01", parameters.error().message());
      std::string user;
      for (const auto& [name, value] : *parameters) {
        if (name == "user") user = value;
        if (name == "application_name") session_.properties["application_name"] = value;
        // Parameter names are case-insensitive: libpq sends PGTZ as "timezone", JDBC as "TimeZone".
        if (boost::algorithm::iequals(name, "TimeZone")) session_.time_zone = value;
      }
      if (auto zone = TimeZone::Find(session_.time_zone); !zone) {
        Fatal("22023", fmt::format("invalid value for parameter \"TimeZone\": \"{}\"", session_.time_zone));
      }
      if (user.empty()) Fatal("28000", "no PostgreSQL user name specified in startup packet");
      session_.user = user;
      session_.source = session_.properties["application_name"];
      co_await Authenticate(user);
      session_.principal = auth::PrincipalOf(server_.options().users, user);
      writer_.AuthenticationOk();
      writer_.ParameterStatus("server_version", pg::kServerVersion);
      writer_.ParameterStatus("server_encoding", "UTF8");
      writer_.ParameterStatus("client_encoding", "UTF8");
      writer_.ParameterStatus("DateStyle", "ISO, MDY");
      writer_.ParameterStatus("IntervalStyle", "postgres");
      writer_.ParameterStatus("TimeZone", session_.time_zone);
      writer_.ParameterStatus("integer_datetimes", "on");
      writer_.ParameterStatus("standard_conforming_strings", "on");
      writer_.ParameterStatus("is_superuser", "off");
      writer_.ParameterStatus("session_authorization", user);
      writer_.ParameterStatus("application_name", session_.properties["application_name"]);
      writer_.BackendKeyData(pid_, target_->secret);
      writer_.ReadyForQuery('I');
      co_await Flush();
      co_return true;
    }
    Fatal("08P01", "too many startup requests");
  }

  asio::awaitable<Message> ReadPassword() {
    co_await Flush();
    auto message = co_await ReadMessage();
    if (!message) throw CloseConnection{};
    if (message->type != 'p') Fatal("08P01", fmt::format("expected a password message, got '{}'", message->type));
    co_return std::move(*message);
  }

  asio::awaitable<void> Authenticate(const std::string& user) {
    const auto& users = server_.options().users;
    if (users.empty()) {
      error_code ec;
      auto remote = socket_.remote_endpoint(ec);
      if (ec || !remote.address().is_loopback()) {
        Fatal("28000", "floe trusts only loopback connections when no users are configured (--auth-file)");
      }
      co_return;
    }
    const auth::AuthUser* found = auth::FindUser(users, user);
    // Without TLS only SCRAM-SHA-256 is offered, whatever the user's method: cleartext would put
    // the password on the wire, and an MD5 response is replayable by whoever sees the salt.
    std::string_view method = found != nullptr && tls_ ? std::string_view(found->method) : "scram-sha-256";
    if (method == "password") {
      writer_.AuthenticationCleartextPassword();
      Message reply = co_await ReadPassword();
      pg::MessageReader reader(reply.body);
      auto password = reader.CString("password");
      // Checked against the verifier: the derived key is compared in constant time.
      if (!password || !auth::CheckPassword(users, user, *password)) co_await RefuseLogin(user);
      co_return;
    }
    if (method == "md5" && !found->password.empty()) {
      auto salt = auth::SecureRandomBytes(4);
      if (!salt) Fatal("XX000", salt.error().message());
      writer_.AuthenticationMd5Password(*salt);
      Message reply = co_await ReadPassword();
      pg::MessageReader reader(reply.body);
      auto response = reader.CString("md5 password");
      std::string expected = pg::Md5Response(found->name, found->password, *salt);
      if (!response || response->size() != expected.size() ||
          CRYPTO_memcmp(response->data(), expected.data(), expected.size()) != 0) {
        co_await RefuseLogin(user);
      }
      co_return;
    }
    // An unknown user goes through SCRAM with a decoy verifier, so it fails like a wrong password.
    auto verifier = found != nullptr ? Result<auth::ScramVerifier>(found->verifier) : auth::DecoyScramVerifier();
    if (!verifier) Fatal("XX000", verifier.error().message());
    writer_.AuthenticationSasl("SCRAM-SHA-256");
    Message initial = co_await ReadPassword();
    pg::MessageReader reader(initial.body);
    auto mechanism = reader.CString("SASL mechanism");
    if (!mechanism || *mechanism != "SCRAM-SHA-256") Fatal("28000", "unsupported SASL mechanism");
    auto data = reader.Value("SASL initial response");
    if (!data || !data->has_value()) Fatal("08P01", "malformed SASLInitialResponse");
    auth::ScramExchange scram(std::move(*verifier));
    auto first = scram.ServerFirst(**data);
    if (!first) co_await RefuseLogin(user);
    writer_.AuthenticationSaslContinue(*first);
    Message response = co_await ReadPassword();
    auto final_message = scram.ServerFinal(response.body);
    if (!final_message) co_await RefuseLogin(user);
    writer_.AuthenticationSaslFinal(*final_message);
  }

  // A refused login: logged with the peer's address and answered (FATAL 28P01) only after
  // auth::kFailedLoginDelay, waited on the connection's strand without holding a thread.
  asio::awaitable<void> RefuseLogin(const std::string& user) {
    error_code ec;
    auto remote = socket_.remote_endpoint(ec);
    Logger("pg")->warn("password authentication of \"{}\" from {} failed", user,
                       ec ? std::string("an unknown address") : remote.address().to_string());
    asio::steady_timer delay(strand_, auth::kFailedLoginDelay);
    co_await delay.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    Fatal("28P01", fmt::format("password authentication failed for user \"{}\"", user));
  }

  // Submits `sql` as a streamed query; its stream wakes this connection when rows arrive.
  std::shared_ptr<Query> Submit(std::string sql) {
    QueryRequest request{.sql = std::move(sql), .session = session_, .protocol = "postgres",
                         .interceptor = server_.statements(), .stream = true};
    auto query = server_.manager().Submit(std::move(request));
    auto liveness = server_.liveness();
    query->stream()->SetListener([liveness, timer = std::weak_ptr<asio::steady_timer>(timer_)] { liveness->Wake(timer); });
    std::lock_guard lock(target_->mu);
    target_->current = query;
    return query;
  }

  // The next items of `query`'s stream, waiting for them without holding a thread; empty once
  // the stream is finished. Takes at most about what one flush sends, so a slow client leaves
  // the rest in the query's bounded buffer (and the query waits).
  asio::awaitable<std::vector<StreamItem>> NextItems(Query& query) {
    while (true) {
      auto items = query.stream()->Take(kFlushBytes);
      if (!items.empty() || query.stream()->Finished()) co_return items;
      error_code ec;
      co_await timer_->async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
  }

  // What a statement's end changes in the session's transaction status.
  void Track(const StatementOutcome& outcome) {
    if (outcome.verb == "BEGIN" || outcome.verb == "START TRANSACTION") transaction_ = 'T';
    if (outcome.verb == "COMMIT" || outcome.verb == "ROLLBACK") transaction_ = 'I';
  }

  // `query`'s stream is finished: the session takes its changes.
  void Ended(const std::shared_ptr<Query>& query) {
    {
      std::lock_guard lock(target_->mu);
      if (target_->current == query) target_->current.reset();
    }
    session_ = query->session_after();
    if (query->state() != QueryState::kFinished && transaction_ == 'T') transaction_ = 'E';
  }

  void SendError(const QueryError& error) { writer_.Error(Fields(error)); }

  // What the engine said without failing the statement, as NoticeResponse messages (psql prints
  // them as "WARNING: ...").
  void SendWarnings(const StatementOutcome& outcome) {
    for (const std::string& warning : outcome.result.warnings) {
      writer_.Notice({.severity = "WARNING", .sqlstate = "01000", .message = warning, .position = std::nullopt});
    }
  }

  // One DataRow in `formats`; false after sending an error instead (a value binary cannot carry).
  bool SendRow(const ResultRow& row, const std::vector<int16_t>& formats) {
    cells_.clear();
    for (size_t c = 0; c < row.size(); ++c) {
      if (FormatOf(formats, c) == 1) {
        auto binary = pg::BinaryValue(row[c]);
        if (!binary) {
          SendError(QueryError::From(binary.error(), ""));
          return false;
        }
        cells_.push_back(std::move(*binary));
      } else {
        cells_.push_back(pg::TextValue(row[c], SessionZone()));
      }
    }
    writer_.DataRow(cells_);
    return true;
  }

  // The session's TimeZone (checked when set; Find caches zones by name).
  const TimeZone& SessionZone() {
    if (!zone_ || zone_name_ != session_.time_zone) {
      auto found = TimeZone::Find(session_.time_zone);
      zone_ = found ? *found : TimeZone::Utc();
      zone_name_ = session_.time_zone;
    }
    return *zone_;
  }

  static int16_t FormatOf(const std::vector<int16_t>& formats, size_t column) {
    if (formats.empty()) return 0;
    if (formats.size() == 1) return formats[0];
    return column < formats.size() ? formats[column] : 0;
  }

  void SendRowDescription(const StatementOutcome& outcome, const std::vector<int16_t>& formats) {
    std::vector<pg::FieldDescription> fields;
    const auto& result = outcome.result;
    for (size_t i = 0; i < result.column_names.size(); ++i) {
      int32_t type_oid = pg::TypeOid(result.column_types[i]);
      fields.push_back({.name = result.column_names[i], .type_oid = type_oid, .type_size = pg::TypeSize(type_oid),
                        .format = FormatOf(formats, i)});
    }
    writer_.RowDescription(fields);
  }

  asio::awaitable<void> SimpleQuery(const Message& message) {
    pg::MessageReader reader(message.body);
    auto text = reader.CString("query text");
    if (!text) Fatal("08P01", text.error().message());
    auto tokens = sql::Tokenize(*text);
    if (tokens && tokens->empty()) {
      writer_.EmptyQueryResponse();
    } else {
      // Rows go out as the engine makes them; each flush waits for the client (backpressure).
      auto query = Submit(std::string(*text));
      int64_t rows = 0;
      while (true) {
        auto items = co_await NextItems(*query);
        if (items.empty()) break;
        for (const StreamItem& item : items) {
          switch (item.kind) {
            case StreamItem::Kind::kBegin:
              rows = 0;
              if (item.statement->has_rows) SendRowDescription(*item.statement, {});
              break;
            case StreamItem::Kind::kRows:
              for (const ResultRow& row : item.rows) SendRow(row, {});
              rows += static_cast<int64_t>(item.rows.size());
              break;
            case StreamItem::Kind::kEnd:
              SendWarnings(*item.statement);
              writer_.CommandComplete(CommandTag(*item.statement, static_cast<size_t>(rows)));
              Track(*item.statement);
              break;
          }
        }
        if (out_.size() >= kFlushBytes) co_await Flush();
      }
      Ended(query);
      // A failure mid-stream arrives after the rows already sent, as PostgreSQL sends it.
      if (query->state() != QueryState::kFinished) SendError(query->error().value_or(QueryError::Canceled()));
    }
    writer_.ReadyForQuery(transaction_);
    co_await Flush();
  }

  // Extended query: an error skips every message up to the next Sync.
  void ExtendedError(const QueryError& error) {
    SendError(error);
    skip_to_sync_ = true;
  }

  void ExtendedError(std::string_view sqlstate, std::string message) {
    QueryError error;
    error.sqlstate = std::string(sqlstate);
    error.message = std::move(message);
    ExtendedError(error);
  }

  void Parse(const Message& message) {
    auto parse = pg::ReadParse(message.body);
    if (!parse) Fatal("08P01", parse.error().message());
    if (!parse->name.empty() && statements_.contains(parse->name)) {
      ExtendedError("42P05", fmt::format("prepared statement \"{}\" already exists", parse->name));
      return;
    }
    auto count = CountParameters(parse->query);
    if (!count) {
      ExtendedError(QueryError::From(count.error(), parse->query));
      return;
    }
    PreparedStatement statement{.query = parse->query, .oids = parse->parameter_oids,
                                .parameter_count = std::max(*count, static_cast<int>(parse->parameter_oids.size()))};
    statements_[parse->name] = std::move(statement);
    writer_.ParseComplete();
  }

  void Bind(const Message& message) {
    auto bind = pg::ReadBind(message.body);
    if (!bind) Fatal("08P01", bind.error().message());
    auto it = statements_.find(bind->statement);
    if (it == statements_.end()) {
      ExtendedError("26000", fmt::format("prepared statement \"{}\" does not exist", bind->statement));
      return;
    }
    const PreparedStatement& statement = it->second;
    if (static_cast<int>(bind->parameters.size()) != statement.parameter_count) {
      Fatal("08P01", fmt::format("bind message supplies {} parameters, but prepared statement \"{}\" requires {}",
                                 bind->parameters.size(), bind->statement, statement.parameter_count));
    }
    const auto& formats = bind->parameter_formats;
    if (formats.size() > 1 && formats.size() != bind->parameters.size()) {
      Fatal("08P01", fmt::format("bind message has {} parameter formats but {} parameters", formats.size(),
                                 bind->parameters.size()));
    }
    std::vector<std::string> literals;
    for (size_t i = 0; i < bind->parameters.size(); ++i) {
      int32_t type_oid = i < statement.oids.size() ? statement.oids[i] : 0;
      auto literal = pg::ParameterLiteral(type_oid, FormatOf(formats, i), bind->parameters[i]);
      if (!literal) {
        QueryError error = QueryError::From(literal.error(), "");
        error.sqlstate = "22P02";
        ExtendedError(error);
        return;
      }
      literals.push_back(std::move(*literal));
    }
    auto sql = SubstituteParameters(statement.query, literals);
    if (!sql) {
      ExtendedError(QueryError::From(sql.error(), statement.query));
      return;
    }
    if (bind->portal.empty()) DropPortal("");
    if (!bind->portal.empty() && portals_.contains(bind->portal)) {
      ExtendedError("42P03", fmt::format("portal \"{}\" already exists", bind->portal));
      return;
    }
    Portal portal;
    portal.sql = std::move(*sql);
    portal.result_formats = bind->result_formats;
    auto tokens = sql::Tokenize(portal.sql);
    portal.empty = tokens && tokens->empty();
    portals_[bind->portal] = std::move(portal);
    writer_.BindComplete();
  }

  // Takes the portal's next items from its stream; marks it done at the end.
  asio::awaitable<void> Pull(Portal& portal) {
    auto items = co_await NextItems(*portal.query);
    if (items.empty()) {
      portal.done = true;
      Ended(portal.query);
      co_return;
    }
    for (StreamItem& item : items) {
      switch (item.kind) {
        case StreamItem::Kind::kBegin: portal.header = item.statement; break;
        case StreamItem::Kind::kRows:
          for (ResultRow& row : item.rows) portal.pending.push_back(std::move(row));
          break;
        case StreamItem::Kind::kEnd:
          portal.ended = item.statement;
          Track(*item.statement);
          break;
      }
    }
  }

  // Starts the portal's query once and waits for its columns; false after sending its error.
  asio::awaitable<bool> EnsureRun(Portal& portal) {
    if (portal.empty) co_return true;
    if (!portal.query) {
      auto tokens = sql::Tokenize(portal.sql);
      if (tokens && sql::SplitStatements(*tokens).size() > 1) {
        ExtendedError("42601", "cannot insert multiple commands into a prepared statement");
        co_return false;
      }
      portal.query = Submit(portal.sql);
    }
    while (!portal.header && !portal.done) co_await Pull(portal);
    if (portal.done && portal.query->state() != QueryState::kFinished) {
      ExtendedError(portal.query->error().value_or(QueryError::Canceled()));
      co_return false;
    }
    co_return true;
  }

  // Closes a portal; a query it still runs is canceled.
  void DropPortal(const std::string& name) {
    auto it = portals_.find(name);
    if (it == portals_.end()) return;
    if (it->second.query && !it->second.done) it->second.query->Cancel();
    portals_.erase(it);
  }

  asio::awaitable<void> Describe(const Message& message) {
    pg::MessageReader reader(message.body);
    auto kind = reader.Byte("Describe kind");
    auto name = reader.CString("Describe name");
    if (!kind || !name) Fatal("08P01", "malformed Describe message");
    if (*kind == 'S') {
      auto it = statements_.find(std::string(*name));
      if (it == statements_.end()) {
        ExtendedError("26000", fmt::format("prepared statement \"{}\" does not exist", *name));
        co_return;
      }
      std::vector<int32_t> oids;
      for (int i = 0; i < it->second.parameter_count; ++i) {
        int32_t declared = i < static_cast<int>(it->second.oids.size()) ? it->second.oids[i] : 0;
        oids.push_back(declared == 0 ? pg::oid::kText : declared);
      }
      writer_.ParameterDescription(oids);
      // The row shape of a query: run it with NULL parameters (queries have no side effects).
      if (!LooksLikeRowStatement(it->second.query)) {
        writer_.NoData();
        co_return;
      }
      auto sql = SubstituteParameters(it->second.query, std::vector<std::string>(it->second.parameter_count, "NULL"));
      if (!sql) {
        writer_.NoData();
        co_return;
      }
      // Only its columns are wanted: the query is stopped once they are known.
      Portal probe;
      probe.sql = std::move(*sql);
      probe.query = Submit(probe.sql);
      while (!probe.header && !probe.done) co_await Pull(probe);
      if (!probe.done) {
        probe.query->Cancel();
        Ended(probe.query);
      }
      if (probe.header && probe.header->has_rows) {
        SendRowDescription(*probe.header, {});
      } else {
        writer_.NoData();
      }
      co_return;
    }
    if (*kind != 'P') Fatal("08P01", "Describe kind must be 'S' or 'P'");
    auto it = portals_.find(std::string(*name));
    if (it == portals_.end()) {
      ExtendedError("34000", fmt::format("portal \"{}\" does not exist", *name));
      co_return;
    }
    if (!co_await EnsureRun(it->second)) co_return;
    Portal& portal = it->second;
    if (portal.empty || !portal.header || !portal.header->has_rows) {
      writer_.NoData();
    } else {
      SendRowDescription(*portal.header, portal.result_formats);
    }
  }

  asio::awaitable<void> Execute(const Message& message) {
    pg::MessageReader reader(message.body);
    auto name = reader.CString("Execute portal");
    auto limit = reader.Int32("Execute row limit");
    if (!name || !limit) Fatal("08P01", "malformed Execute message");
    auto it = portals_.find(std::string(*name));
    if (it == portals_.end()) {
      ExtendedError("34000", fmt::format("portal \"{}\" does not exist", *name));
      co_return;
    }
    Portal& portal = it->second;
    if (!co_await EnsureRun(portal)) co_return;
    if (portal.empty) {
      writer_.EmptyQueryResponse();
      co_return;
    }
    size_t max_rows = *limit <= 0 ? 0 : static_cast<size_t>(*limit);
    size_t sent = 0;
    while (true) {
      while (!portal.pending.empty() && (max_rows == 0 || sent < max_rows)) {
        if (!SendRow(portal.pending.front(), portal.result_formats)) {
          skip_to_sync_ = true;
          DropPortal(std::string(*name));
          co_return;
        }
        portal.pending.pop_front();
        ++sent;
        ++portal.sent;
      }
      if (max_rows != 0 && sent >= max_rows) {
        writer_.PortalSuspended();
        co_return;
      }
      if (out_.size() >= kFlushBytes) co_await Flush();
      if (portal.done) break;
      co_await Pull(portal);
    }
    if (portal.query->state() != QueryState::kFinished) {
      ExtendedError(portal.query->error().value_or(QueryError::Canceled()));
      co_return;
    }
    if (!portal.ended) {
      writer_.CommandComplete("SELECT 0");
      co_return;
    }
    SendWarnings(*portal.ended);
    writer_.CommandComplete(CommandTag(*portal.ended, static_cast<size_t>(portal.sent)));
  }

  void Close(const Message& message) {
    pg::MessageReader reader(message.body);
    auto kind = reader.Byte("Close kind");
    auto name = reader.CString("Close name");
    if (!kind || !name || (*kind != 'S' && *kind != 'P')) Fatal("08P01", "malformed Close message");
    if (*kind == 'S') {
      statements_.erase(std::string(*name));
    } else {
      DropPortal(std::string(*name));
    }
    writer_.CloseComplete();
  }

  asio::awaitable<void> Serve() {
    while (true) {
      auto message = co_await ReadMessage();
      if (!message || message->type == 'X') co_return;
      if (skip_to_sync_ && message->type != 'S') continue;
      switch (message->type) {
        case 'Q': co_await SimpleQuery(*message); break;
        case 'P': Parse(*message); break;
        case 'B': Bind(*message); break;
        case 'D': co_await Describe(*message); break;
        case 'E': co_await Execute(*message); break;
        case 'C': Close(*message); break;
        case 'H': co_await Flush(); break;
        case 'S':
          skip_to_sync_ = false;
          DropPortal("");
          writer_.ReadyForQuery(transaction_);
          co_await Flush();
          break;
        case 'F': ExtendedError("0A000", "the function call protocol is not supported"); break;
        case 'd':
        case 'c':
        case 'f': ExtendedError("0A000", "COPY is not supported"); break;
        case 'p': Fatal("08P01", "unexpected password message");
        default:
          Fatal("08P01", fmt::format("invalid frontend message type {}", static_cast<int>(static_cast<uint8_t>(message->type))));
      }
      if (out_.size() >= kFlushBytes) co_await Flush();
    }
  }

  // Output past this is written (and the client waited for) before more rows are taken.
  static constexpr int64_t kFlushBytes = 256 << 10;

  PgServer::Impl& server_;
  Result<net::ConnectionSlot> admission_;
  tcp::socket socket_;
  std::unique_ptr<asio::ssl::stream<tcp::socket&>> tls_;  // Set after a successful SSLRequest.
  Strand strand_;
  std::string in_;
  size_t in_pos_ = 0;
  std::string out_;
  pg::MessageWriter writer_;
  int32_t pid_ = 0;
  std::shared_ptr<CancelTarget> target_;
  SessionState session_;
  std::shared_ptr<const TimeZone> zone_;  // session_.time_zone's zone, found once per name
  std::string zone_name_;
  char transaction_ = 'I';
  bool skip_to_sync_ = false;
  std::map<std::string, PreparedStatement> statements_;
  std::map<std::string, Portal> portals_;
  std::shared_ptr<asio::steady_timer> timer_;  // Woken by the running query's stream.
  asio::steady_timer auth_deadline_;
  bool authenticated_ = false;  // Startup finished; the larger message limit applies.
  std::vector<std::optional<std::string>> cells_;  // SendRow's, reused.
};

}  // namespace

asio::awaitable<void> PgServer::Impl::Accept() {
  while (!stopping_) {
    error_code ec;
    Strand strand = asio::make_strand(*io_);
    tcp::socket socket = co_await acceptor_->async_accept(strand, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (stopping_ || !acceptor_->is_open()) co_return;
      asio::steady_timer timer(*io_, std::chrono::milliseconds(50));
      co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    socket.set_option(tcp::no_delay(true), ec);
    if (metrics_ != nullptr) metrics_->GetCounter("floe_pg_connections_total", "PostgreSQL connections accepted").Increment();
    auto endpoint = socket.remote_endpoint(ec);
    auto admission = limiter_.Admit(ec ? "unknown" : endpoint.address().to_string());
    auto connection = std::make_shared<Connection>(*this, std::move(socket), strand, std::move(admission));
    asio::co_spawn(strand, connection->Run(), [connection](std::exception_ptr) {});
  }
}

PgServer::PgServer(QueryManager& manager, PgServerOptions options, MetricsRegistry* metrics)
    : impl_(std::make_unique<Impl>(manager, std::move(options), metrics)) {}
PgServer::~PgServer() = default;
Status PgServer::Start() { return impl_->Start(); }
void PgServer::Stop() { impl_->Stop(); }
uint16_t PgServer::port() const { return impl_->port(); }

}  // namespace floe::serve
