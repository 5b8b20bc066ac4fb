// CatalogRole: the Iceberg REST catalog inside `floe up`, on SQLite under the data folder or on
// PostgreSQL (its backing store, switched while it is stopped: Pipeline::SwitchCatalogBackend);
// a replica is a second one on the same database (the database's locks and the commits'
// compare-and-swap keep the two apart), so clients listing both carry on while one is down.
#pragma once

#include <memory>
#include <string>

#include "base/metrics.h"
#include "auth/users.h"
#include "catalog/catalog.h"
#include "catalog/oauth_tokens.h"
#include "catalog/rest_server.h"
#include "up/role.h"

namespace floe::up {

class CatalogRole final : public Role {
 public:
  // With `users`, clients need an OAuth2 token for one of them (POST /v1/oauth/tokens).
  // With `tls`, it serves HTTPS.
  // `name`: "catalog", or "catalog replica" for a second server on the same database.
  CatalogRole(std::string host, int port, std::string backend, std::string warehouse,
              std::vector<auth::AuthUser> users = {}, net::TlsFiles tls = {}, std::string name = "catalog")
      : name_(std::move(name)),
        host_(std::move(host)),
        port_(port),
        backend_(std::move(backend)),
        warehouse_(std::move(warehouse)),
        users_(std::move(users)),
        tls_(std::move(tls)) {}
  ~CatalogRole() override { Stop(); }

  std::string_view name() const override { return name_; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  // The store (sqlite:PATH, postgresql://...) the next Start opens.
  void set_backend(std::string backend) { backend_ = std::move(backend); }

 private:
  std::string name_;
  std::string host_;
  int port_;
  std::string backend_;
  std::string warehouse_;
  std::vector<auth::AuthUser> users_;
  net::TlsFiles tls_;
  MetricsRegistry metrics_;
  std::unique_ptr<catalog::OAuthTokens> tokens_;
  std::unique_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<catalog::RestCatalogServer> server_;
};

}  // namespace floe::up
