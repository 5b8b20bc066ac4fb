// QueryRole: the query server (Trino protocol, PostgreSQL wire, HTTP API, console) inside
// `floe up`, reading the pipeline's tables through its catalog.
#pragma once

#include <memory>
#include <string>

#include "serve/pipeline_control.h"
#include "serve/query_server.h"
#include "up/role.h"

namespace floe::up {

class QueryRole final : public Role {
 public:
  // `control` (may be null) is what the console's pipeline pages and playground drive.
  QueryRole(serve::QueryServerOptions options, std::string catalog, std::string warehouse,
            serve::PipelineControl* control)
      : options_(std::move(options)), catalog_uri_(std::move(catalog)), warehouse_(std::move(warehouse)) {
    options_.pipeline = control;
  }
  ~QueryRole() override { Stop(); }

  std::string_view name() const override { return "query server"; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  // `SELECT count(*) FROM floe.<table>` through the engine, as any client would count: the
  // reconciliation's "queryable" number. Called from the console's threads while running.
  // `where` (trusted SQL, made by the caller) narrows the count; `freshness` ("live",
  // "snapshot" or empty for the default) is the session's (serve/session_properties.h).
  Result<int64_t> CountRows(std::string_view table, std::string_view where = "", std::string_view freshness = "");

 private:
  serve::QueryServerOptions options_;
  std::string catalog_uri_;
  std::string warehouse_;
  std::string note_;
  std::unique_ptr<sql::SqlCatalog> catalog_;
  std::unique_ptr<serve::QueryServer> server_;
};

}  // namespace floe::up
