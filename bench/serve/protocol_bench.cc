// What each protocol adds to a point query (`SELECT 1`): the engine alone in-process, then the
// same query through the query manager, PostgreSQL's simple and extended protocol (libpq),
// Trino's protocol (POST + GET nextUri) and the console's /api/query, each on loopback against
// an in-process QueryServer. Beside them, in the same run: a plain HTTP round trip on the same
// server (GET /v1/info/state, the floor under the HTTP protocols) and the same queries on a real
// PostgreSQL (Debian's, started for the run) as the peer of floe's PostgreSQL port.
// Prints medians and p99 in microseconds, the overhead over the engine and the ratio to the peer.
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/postgres_test_server.h"
#include "net/http_client.h"
#include "serve/query_server.h"
#include "sql/catalog/memory_catalog.h"
#include "sql/sql_session.h"

namespace floe::serve {
namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
  double median_us = 0;
  double p99_us = 0;
};

Timing Measure(int iterations, const std::function<bool()>& once) {
  for (int i = 0; i < iterations / 10 + 5; ++i) {
    if (!once()) {
      fmt::print(stderr, "warm-up failed\n");
      std::exit(1);
    }
  }
  std::vector<double> samples;
  samples.reserve(iterations);
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    if (!once()) {
      fmt::print(stderr, "iteration failed\n");
      std::exit(1);
    }
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples[std::min(samples.size() - 1, samples.size() * 99 / 100)]};
}

bool PgSimple(PGconn* conn) {
  PGresult* result = PQexec(conn, "SELECT 1");
  bool ok = PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) == 1;
  PQclear(result);
  return ok;
}

bool PgExtended(PGconn* conn) {
  const char* values[] = {"41"};
  PGresult* result = PQexecParams(conn, "SELECT $1::integer + 1", 1, nullptr, values, nullptr, nullptr, 0);
  bool ok = PQresultStatus(result) == PGRES_TUPLES_OK && std::string(PQgetvalue(result, 0, 0)) == "42";
  PQclear(result);
  return ok;
}

PGconn* Connect(const std::string& conninfo) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    fmt::print(stderr, "connect {}: {}\n", conninfo, PQerrorMessage(conn));
    std::exit(1);
  }
  return conn;
}

void Row(std::string_view name, const Timing& t, const Timing& engine, std::string_view peer_name, const Timing* peer) {
  std::string peer_text = peer == nullptr ? "" : fmt::format("  {:>8.1f} us  ratio {:.2f}x", peer->median_us, t.median_us / peer->median_us);
  fmt::print("{:<34} {:>8.1f} us  p99 {:>8.1f} us  overhead {:>8.1f} us{}{}\n", name, t.median_us, t.p99_us,
             t.median_us - engine.median_us, peer == nullptr ? "" : fmt::format("  | {:<22}", peer_name), peer_text);
}

int Run(int iterations) {
  sql::MemoryCatalog catalog;
  catalog.AddSchema("default");
  QueryServerOptions options;
  options.http_port = 0;
  options.pg_port = 0;
  QueryServer server(catalog, options);
  if (auto started = server.Start(); !started) {
    fmt::print(stderr, "{}\n", started.error().ToString());
    return 1;
  }

  Timing engine = Measure(iterations, [&] {
    sql::SqlSession session(catalog);
    auto result = session.Run("SELECT 1");
    return result.has_value() && result->size() == 1;
  });
  Timing manager = Measure(iterations, [&] {
    auto query = server.queries().Submit({.sql = "SELECT 1", .session = {}, .protocol = "bench", .interceptor = nullptr});
    return query->Wait(std::chrono::seconds(10)) && query->state() == QueryState::kFinished;
  });

  PGconn* floe_pg = Connect(fmt::format("host=127.0.0.1 port={} user=bench dbname=floe", server.pg_port()));
  Timing pg_simple = Measure(iterations, [&] { return PgSimple(floe_pg); });
  Timing pg_extended = Measure(iterations, [&] { return PgExtended(floe_pg); });
  PQfinish(floe_pg);

  net::HttpClient http;
  std::string base = fmt::format("http://127.0.0.1:{}", server.http_port());
  Timing http_floor = Measure(iterations, [&] {
    auto response = http.Send({.method = "GET", .url = base + "/v1/info/state", .headers = {}, .body = {}});
    return response.has_value() && response->status == 200;
  });
  Timing trino = Measure(iterations, [&] {
    net::HttpHeaders headers;
    headers.Set("X-Trino-User", "bench");
    auto posted = http.Send({.method = "POST", .url = base + "/v1/statement", .headers = headers, .body = "SELECT 1"});
    if (!posted || posted->status != 200) return false;
    std::string next = nlohmann::json::parse(posted->body)["nextUri"].get<std::string>();
    while (!next.empty()) {
      auto page = http.Send({.method = "GET", .url = next, .headers = headers, .body = {}});
      if (!page || page->status != 200) return false;
      auto body = nlohmann::json::parse(page->body);
      next = body.contains("nextUri") ? body["nextUri"].get<std::string>() : "";
      if (next.empty()) return body.contains("data");
    }
    return false;
  });
  Timing api = Measure(iterations, [&] {
    auto response = http.Send({.method = "POST", .url = base + "/api/query", .headers = {}, .body = R"({"sql":"SELECT 1"})"});
    return response.has_value() && response->status == 200;
  });

  // The peer: a real PostgreSQL answering the same queries over the same kind of socket.
  std::optional<Timing> peer_simple, peer_extended;
  auto postgres = catalog::PostgresTestServer::Start();
  if (postgres) {
    PGconn* real = Connect(fmt::format("host=127.0.0.1 port={} user=postgres dbname=postgres", (*postgres)->port()));
    peer_simple = Measure(iterations, [&] { return PgSimple(real); });
    peer_extended = Measure(iterations, [&] { return PgExtended(real); });
    PQfinish(real);
  } else {
    fmt::print("(no PostgreSQL peer: {})\n", postgres.error().ToString());
  }
  server.Stop();

  fmt::print("serve: point query `SELECT 1`, {} iterations each, one client, loopback, medians\n", iterations);
  Row("engine (SqlSession::Run)", engine, engine, "", nullptr);
  Row("query manager (admission, worker)", manager, engine, "", nullptr);
  Row("PostgreSQL simple (libpq PQexec)", pg_simple, engine, "PostgreSQL 15 itself", peer_simple ? &*peer_simple : nullptr);
  Row("PostgreSQL extended (PQexecParams)", pg_extended, engine, "PostgreSQL 15 itself",
      peer_extended ? &*peer_extended : nullptr);
  Row("Trino (POST + GET nextUri)", trino, engine, "plain HTTP round trip", &http_floor);
  Row("HTTP API (POST /api/query)", api, engine, "plain HTTP round trip", &http_floor);
  Row("plain HTTP round trip (floor)", http_floor, engine, "", nullptr);
  double worst = std::max({pg_simple.median_us, pg_extended.median_us, trino.median_us, api.median_us}) - engine.median_us;
  fmt::print("worst protocol overhead over the engine: {:.2f} ms (target < 2 ms): {}\n", worst / 1000,
             worst < 2000 ? "ok" : "OVER");
  return 0;
}

}  // namespace
}  // namespace floe::serve

int main(int argc, char** argv) { return floe::serve::Run(argc > 1 ? std::atoi(argv[1]) : 2000); }
