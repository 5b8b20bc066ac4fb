// The console's JSON API under /api on the query server's HTTP port (docs/http-api.md): run a
// query, the query history, the tables and one table's schema, snapshots, files and partitions
// (read through SQL from the metadata tables), the pipeline's status and the playground's
// knobs (delegated to a PipelineControl when `floe up` provides one; 404 "no pipeline"
// otherwise). Owned by the QueryServer; handlers run on HTTP threads concurrently.
#pragma once

#include <vector>

#include "auth/users.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "net/http_router.h"
#include "serve/pipeline_control.h"
#include "serve/query_manager.h"

namespace floe::serve {

class HttpApi {
 public:
  // `pipeline` may be null (no pipeline).
  // `users`: the auth file's (the HTTP guard has checked the credentials); a query runs as
  // the authenticated user, with that user's role.
  HttpApi(QueryManager& manager, PipelineControl* pipeline, std::string version, std::vector<auth::AuthUser> users = {});

  Status Register(net::HttpRouter& router);

  // Runs `sql` to its end: {"id", "columns", "rows", "stats"} or {"id", "error", "stats"};
  // `status` gets the HTTP status that goes with it.
  nlohmann::json RunQuery(const std::string& sql, const SessionState& session, int* status);

 private:
  net::HttpResponse PostQuery(net::HttpRequest& request);
  net::HttpResponse GetQueries(net::HttpRequest& request);
  net::HttpResponse GetTables(net::HttpRequest& request);
  net::HttpResponse GetTable(net::HttpRequest& request);
  net::HttpResponse Pipeline(net::HttpRequest& request, bool reconciliation);
  net::HttpResponse Playground(net::HttpRequest& request);
  net::HttpResponse Logs(net::HttpRequest& request);

  QueryManager& manager_;
  PipelineControl* pipeline_;
  std::shared_ptr<StatementInterceptor> statements_;
  std::vector<auth::AuthUser> users_;
};

// {"error": {"message": ...}} with `status`.
net::HttpResponse JsonError(int status, std::string_view message);

}  // namespace floe::serve
