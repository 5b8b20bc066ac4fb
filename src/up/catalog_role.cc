#include "up/catalog_role.h"

#include <fmt/format.h>

#include "catalog/open_catalog.h"

namespace floe::up {

Status CatalogRole::Start() {
  FLOE_ASSIGN_OR_RETURN_CTX(catalog_, catalog::OpenCatalog({.uri = backend_, .warehouse = warehouse_}),
                            "starting the catalog");
  catalog::RestServerOptions options;
  options.host = host_;
  options.port = static_cast<uint16_t>(port_);
  options.warehouse = warehouse_;
  options.metrics = &metrics_;
  options.tls = tls_;
  if (!users_.empty()) {
    tokens_ = std::make_unique<catalog::OAuthTokens>(users_);
    options.tokens = tokens_.get();
  }
  server_ = std::make_unique<catalog::RestCatalogServer>(*catalog_, options);
  FLOE_RETURN_IF_ERROR_CTX(server_->Start(), "starting the catalog");
  return OkStatus();
}

void CatalogRole::Stop() {
  if (server_) server_->Stop();
  server_.reset();
  tokens_.reset();
  catalog_.reset();
}

std::string CatalogRole::Describe() const {
  return fmt::format("Iceberg REST on {}://{}:{} ({}, warehouse {})", tls_.enabled() ? "https" : "http", host_, port_,
                     catalog::RedactCatalogUri(backend_), warehouse_);
}

}  // namespace floe::up
