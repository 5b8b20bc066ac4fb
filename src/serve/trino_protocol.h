// Trino's client REST protocol (docs/trino-protocol.md) over floe's HTTP server: POST
// /v1/statement answers a QUEUED stub with a nextUri; each GET on nextUri takes the next page
// of rows (by size) from the running query's stream, waiting briefly for it to fill, so the query
// runs on between polls within its bounded buffer; DELETE on nextUri or /v1/query/{id} cancels;
// GET /v1/info describes the server. Session state travels in X-Trino-* request headers and
// comes back as X-Trino-Set-* / Clear-* response headers. Owned by the QueryServer; its
// handlers run on the HTTP server's threads concurrently.
#pragma once

#include <vector>

#include "auth/users.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "net/http_router.h"
#include "serve/query_manager.h"
#include "serve/trino_statements.h"

namespace floe::serve {

struct TrinoProtocolOptions {
  std::string version = "0";
  size_t target_page_bytes = 1 << 20;
  std::chrono::milliseconds max_wait{1000};  // How long one GET waits for a page to fill.
  // A query whose client stops polling for this long is canceled (Trino's query.client.timeout).
  std::chrono::milliseconds client_timeout{300'000};
  // How long the last page of a query that ended stays for a retried GET; then the query's
  // paging is forgotten (its info stays with the QueryManager), so pages of finished queries
  // do not pile up in memory.
  std::chrono::milliseconds final_page_linger{30'000};
  // The auth file's users: the HTTP guard has checked the basic credentials, and each
  // session's role comes from here. Empty: no authentication, everyone is admin.
  std::vector<auth::AuthUser> users;
};

class TrinoProtocol {
 public:
  TrinoProtocol(QueryManager& manager, TrinoProtocolOptions options);

  Status Register(net::HttpRouter& router);

 private:
  // What the protocol remembers of a query beyond the Query itself: where its client is in the
  // stream of pages. One poll at a time builds a page (mu).
  struct Paging {
    std::string slug;
    std::mutex mu;
    size_t token = 0;                                  // Of the last answer (the POST is 0).
    std::optional<net::HttpResponse> last;             // That answer, for a retried GET.
    nlohmann::json columns;                            // Of the statement being shown, once known.
    std::shared_ptr<const StatementOutcome> ended;     // The last statement that ended.
    int64_t rows_sent = 0;
    bool done = false;                                 // The last answer had no nextUri.
  };

  net::HttpResponse PostStatement(net::HttpRequest& request);
  net::HttpResponse GetPage(net::HttpRequest& request);
  net::HttpResponse CancelStatement(net::HttpRequest& request);
  net::HttpResponse CancelQuery(net::HttpRequest& request);
  // Whether the request's user owns `query` or is an admin (always, without users).
  bool MayTouch(const net::HttpRequest& request, const Query& query) const;
  net::HttpResponse QueryInfo(net::HttpRequest& request);
  net::HttpResponse ServerInfo(net::HttpRequest& request);

  // The query and its paging for a nextUri, or null when unknown or the slug is wrong.
  std::shared_ptr<Query> Lookup(const net::HttpRequest& request, std::shared_ptr<Paging>* paging);
  // The next page of `query`: what its stream has within a page's size (waiting up to max_wait
  // for a page to fill), with a nextUri until the client has everything.
  net::HttpResponse NextPage(const net::HttpRequest& request, const std::shared_ptr<Query>& query, Paging& paging,
                             size_t token);

  QueryManager& manager_;
  const TrinoProtocolOptions options_;
  const std::shared_ptr<TrinoStatements> statements_;
  const std::chrono::steady_clock::time_point started_;

  std::mutex mu_;
  // Forgets the paging of queries whose final page was served over final_page_linger ago.
  void ForgetFinished(std::chrono::steady_clock::time_point now);  // Requires mu_.

  std::map<std::string, std::shared_ptr<Paging>, std::less<>> paging_;  // By query id; guarded by mu_.
  // Queries whose final page was served, oldest first; guarded by mu_.
  std::deque<std::pair<std::chrono::steady_clock::time_point, std::string>> finished_;
};

}  // namespace floe::serve
