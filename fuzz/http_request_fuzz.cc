// Fuzz target: HTTP requests as floe's HTTP servers route and answer them, with the Iceberg REST
// catalog (over a SQLite catalog and a local warehouse in a temporary folder) and the query
// server's Trino protocol and JSON API (over an in-memory SQL catalog) behind one router. The
// input is "METHOD TARGET\nName: value\n...\n\nBODY". Every request must get an answer (a 4xx
// for garbage), never a crash.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "catalog/open_catalog.h"
#include "catalog/rest_server.h"
#include "serve/http_api.h"
#include "serve/query_manager.h"
#include "serve/trino_protocol.h"
#include "sql/catalog/memory_catalog.h"

namespace {

struct Servers {
  std::filesystem::path dir;
  std::unique_ptr<floe::catalog::Catalog> catalog;
  floe::sql::MemoryCatalog sql_catalog;
  std::unique_ptr<floe::serve::QueryManager> queries;
  std::unique_ptr<floe::serve::TrinoProtocol> trino;
  std::unique_ptr<floe::serve::HttpApi> api;
  floe::net::HttpRouter router;

  Servers() {
    dir = std::filesystem::temp_directory_path() / ("floe-http-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto opened = floe::catalog::OpenCatalog(
        {.uri = "sqlite:" + (dir / "catalog.db").string(), .warehouse = "file://" + (dir / "wh").string()});
    if (!opened) std::abort();
    catalog = std::move(*opened);
    auto rest = floe::catalog::MakeRestCatalogRouter(*catalog, {});
    if (!rest) std::abort();
    router = std::move(*rest);
    sql_catalog.AddSchema("default");
    queries = std::make_unique<floe::serve::QueryManager>(sql_catalog, floe::serve::QueryManagerOptions{}, nullptr);
    trino = std::make_unique<floe::serve::TrinoProtocol>(*queries, floe::serve::TrinoProtocolOptions{
                                                                       .max_wait = std::chrono::milliseconds(50)});
    api = std::make_unique<floe::serve::HttpApi>(*queries, nullptr, "fuzz");
    if (!trino->Register(router) || !api->Register(router)) std::abort();
  }
  ~Servers() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Servers servers;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  floe::net::HttpRequest request;
  size_t line_end = text.find('\n');
  std::string_view first = text.substr(0, line_end);
  size_t space = first.find(' ');
  if (space == std::string_view::npos) return 0;
  request.method = std::string(first.substr(0, space));
  request.target = std::string(first.substr(space + 1));
  size_t query = request.target.find('?');
  request.path = request.target.substr(0, query);
  if (query != std::string::npos) request.query_string = request.target.substr(query + 1);
  size_t at = line_end == std::string_view::npos ? text.size() : line_end + 1;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    if (line.empty()) break;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    request.headers.Add(line.substr(0, colon), value);
  }
  request.body = std::string(text.substr(at));
  request.remote_address = "127.0.0.1:1";
  floe::net::HttpResponse response = servers.router.Dispatch(request);
  if (response.status < 100 || response.status > 599) std::abort();
  return 0;
}
