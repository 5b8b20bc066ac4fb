#include "up/query_role.h"

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

std::string QueryRole::Describe() const {
  if (!server_) return "not running";
  std::string text = server_->Describe();
  if (!options_.web_root.empty()) text += ", console at http://" + options_.host + ":" + std::to_string(server_->http_port()) + "/";
  return text;
}

}  // namespace floe::up
