// Trino's client REST protocol (docs/trino-protocol.md) over floe's HTTP server: POST
// /v1/statement answers a QUEUED stub with a nextUri; GETs on nextUri wait briefly for the
// query, then page its columns and rows by size; DELETE on nextUri or /v1/query/{id} cancels;
// GET /v1/info describes the server. Session state travels in X-Trino-* request headers and
// comes back as X-Trino-Set-* / Clear-* response headers. Owned by the QueryServer; its
// handlers run on the HTTP server's threads concurrently.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/http_router.h"
#include "serve/query_manager.h"
#include "serve/trino_statements.h"

namespace floe::serve {

struct TrinoProtocolOptions {
  std::string version = "0";
  size_t target_page_bytes = 1 << 20;
  std::chrono::milliseconds max_wait{1000};  // How long one GET waits for a running query.
};

class TrinoProtocol {
 public:
  TrinoProtocol(QueryManager& manager, TrinoProtocolOptions options);

  Status Register(net::HttpRouter& router);

 private:
  // What the protocol remembers of a query beyond the Query itself.
  struct Paging {
    std::string slug;
    std::vector<size_t> page_starts;  // Row offsets of each page, once the query finished.
  };

  net::HttpResponse PostStatement(net::HttpRequest& request);
  net::HttpResponse GetQueued(net::HttpRequest& request);
  net::HttpResponse GetExecuting(net::HttpRequest& request);
  net::HttpResponse CancelStatement(net::HttpRequest& request);
  net::HttpResponse CancelQuery(net::HttpRequest& request);
  net::HttpResponse QueryInfo(net::HttpRequest& request);
  net::HttpResponse ServerInfo(net::HttpRequest& request);

  // The query and its paging for a nextUri, or null when unknown or the slug is wrong.
  std::shared_ptr<Query> Lookup(const net::HttpRequest& request, Paging* paging);
  // A response for `query` at executing page `page` (or a status while it runs).
  net::HttpResponse Respond(const net::HttpRequest& request, const std::shared_ptr<Query>& query, size_t token,
                            bool executing);
  std::vector<size_t> PageStarts(const Query& query);

  QueryManager& manager_;
  const TrinoProtocolOptions options_;
  const std::shared_ptr<TrinoStatements> statements_;
  const std::chrono::steady_clock::time_point started_;

  std::mutex mu_;
  std::map<std::string, Paging, std::less<>> paging_;  // By query id; guarded by mu_.
};

}  // namespace floe::serve
