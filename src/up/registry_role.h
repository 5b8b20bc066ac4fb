// RegistryRole: the Schema Registry inside `floe up` (src/registry), its schemas in the
// broker's `_schemas` topic. Start replays that topic before the port listens, so it must run
// after the broker role.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/users.h"
#include "net/tls.h"
#include "registry/registry_http.h"
#include "registry/schema_registry.h"
#include "registry/schema_topic_log.h"
#include "up/role.h"

namespace floe::up {

class RegistryRole final : public Role {
 public:
  RegistryRole(std::string host, int port, std::string brokers, std::vector<auth::AuthUser> users, net::TlsFiles tls)
      : host_(std::move(host)), port_(port), brokers_(std::move(brokers)), users_(std::move(users)), tls_(std::move(tls)) {}
  ~RegistryRole() override { Stop(); }

  std::string_view name() const override { return "registry"; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

 private:
  std::string host_;
  int port_;
  std::string brokers_;
  std::vector<auth::AuthUser> users_;
  net::TlsFiles tls_;
  std::unique_ptr<registry::SchemaTopicLog> log_;
  std::unique_ptr<registry::SchemaRegistry> registry_;
  std::unique_ptr<registry::RegistryServer> server_;
};

}  // namespace floe::up
