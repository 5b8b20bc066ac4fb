#include "up/query_role.h"

#include <fmt/format.h>

#include "base/logging.h"
#include "serve/query_catalog.h"

namespace floe::up {

Status QueryRole::Start() {
  FLOE_ASSIGN_OR_RETURN_CTX(catalog_, serve::OpenQueryCatalog({.catalog = catalog_uri_, .warehouse = warehouse_}, &note_),
                            "starting the query server");
  if (!note_.empty()) Logger("up")->warn("query server: {}", note_);
  server_ = std::make_unique<serve::QueryServer>(*catalog_, options_);
  FLOE_RETURN_IF_ERROR_CTX(server_->Start(), "starting the query server");
  return OkStatus();
}

void QueryRole::Stop() {
  if (server_) server_->Stop();
  server_.reset();
  catalog_.reset();
}

Result<int64_t> QueryRole::CountRows(std::string_view table, std::string_view where, std::string_view freshness) {
  if (!server_) return Unavailable("the query server is not running");
  serve::SessionState session;
  if (!freshness.empty()) session.properties["freshness"] = std::string(freshness);
  std::string sql = fmt::format("SELECT count(*) FROM floe.{}", table);
  if (!where.empty()) sql += fmt::format(" WHERE {}", where);
  auto query = server_->queries().Submit({.sql = sql, .session = session, .protocol = "console", .interceptor = {}});
  if (!query->Wait(std::chrono::seconds(60))) return Unavailable("counting the rows of {} took over a minute", table);
  if (query->state() != serve::QueryState::kFinished) {
    return Unavailable("counting the rows of {}: {}", table,
                       query->error() ? query->error()->message : std::string("the query did not finish"));
  }
  const auto& outcomes = query->outcomes();
  if (outcomes.empty() || outcomes.back().result.rows.size() != 1 || outcomes.back().result.rows[0].size() != 1 ||
      outcomes.back().result.rows[0][0].is_null()) {
    return Internal("count(*) over {} did not answer one number", table);
  }
  return outcomes.back().result.rows[0][0].as_int();
}

std::string QueryRole::Describe() const {
  if (!server_) return "not running";
  std::string text = server_->Describe();
  if (!options_.web_root.empty()) text += fmt::format(", console at {}://", options_.tls.enabled() ? "https" : "http") + options_.host + ":" + std::to_string(server_->http_port()) + "/";
  return text;
}

}  // namespace floe::up
