#include "up/registry_role.h"

#include <fmt/format.h>

namespace floe::up {

Status RegistryRole::Start() {
  FLOE_ASSIGN_OR_RETURN_CTX(log_, registry::SchemaTopicLog::Open(brokers_, std::string(registry::kDefaultSchemasTopic)),
                            "starting the schema registry");
  registry_ = std::make_unique<registry::SchemaRegistry>(*log_);
  FLOE_RETURN_IF_ERROR_CTX(log_->Replay([this](const std::string& key, const std::optional<std::string>& value) {
    registry_->ApplyReplayed(key, value);
  }),
                           "starting the schema registry");
  registry::RegistryServerOptions options;
  options.host = host_;
  options.port = static_cast<uint16_t>(port_);
  options.users = users_;
  options.tls = tls_;
  server_ = std::make_unique<registry::RegistryServer>(*registry_, options);
  FLOE_RETURN_IF_ERROR_CTX(server_->Start(), "starting the schema registry");
  return OkStatus();
}

void RegistryRole::Stop() {
  if (server_) server_->Stop();
  server_.reset();
  registry_.reset();
  log_.reset();
}

std::string RegistryRole::Describe() const {
  return fmt::format("Schema Registry on {}://{}:{} (topic _schemas)", tls_.enabled() ? "https" : "http", host_, port_);
}

}  // namespace floe::up
