// CreateTopics (key 19), v0-4: creates topics (replication factor 1, this broker leads all).
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleCreateTopics(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  struct Request {
    std::string name;
    int32_t partitions;
    int16_t replication;
    bool explicit_assignment;
    std::map<std::string, std::string> configs;
  };
  std::vector<Request> requests;
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("topics", 12));
  for (int32_t i = 0; i < count; ++i) {
    Request r;
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("name"));
    r.name = std::string(name);
    FLOE_ASSIGN_OR_RETURN(r.partitions, in.Int32("num_partitions"));
    FLOE_ASSIGN_OR_RETURN(r.replication, in.Int16("replication_factor"));
    FLOE_ASSIGN_OR_RETURN(int32_t assignments, in.ArrayLength("assignments", 8));
    r.explicit_assignment = assignments > 0;
    for (int32_t a = 0; a < assignments; ++a) {
      FLOE_RETURN_IF_ERROR(in.Int32("partition_index"));
      FLOE_ASSIGN_OR_RETURN(int32_t brokers, in.ArrayLength("broker_ids", 4));
      for (int32_t b = 0; b < brokers; ++b) FLOE_RETURN_IF_ERROR(in.Int32("broker_id"));
    }
    if (r.explicit_assignment && r.partitions == -1) r.partitions = assignments;
    FLOE_ASSIGN_OR_RETURN(int32_t configs, in.ArrayLength("configs", 4));
    for (int32_t c = 0; c < configs; ++c) {
      FLOE_ASSIGN_OR_RETURN(std::string_view key, in.String("config name"));
      FLOE_ASSIGN_OR_RETURN(auto value, in.NullableString("config value"));
      if (value) r.configs[std::string(key)] = std::string(*value);
    }
    requests.push_back(std::move(r));
  }
  FLOE_RETURN_IF_ERROR(in.Int32("timeout_ms"));
  bool validate_only = false;
  if (v >= 1) {
    FLOE_ASSIGN_OR_RETURN(validate_only, in.Bool("validate_only"));
  }

  if (v >= 2) out.Int32(0);
  out.ArrayLength(requests.size());
  for (Request& r : requests) {
    ErrorCode error = ErrorCode::kNone;
    std::optional<std::string> message;
    if (r.partitions == -1) r.partitions = ctx.broker.config().default_partitions;
    if (!ctx.AllowsTopic(r.name, auth::Operation::kCreate)) {
      error = ErrorCode::kTopicAuthorizationFailed;
      message = fmt::format("user '{}' may not create topic '{}' (role admin, or a grant of create)", ctx.sasl.user, r.name);
    } else if (auto valid = ValidateTopicName(r.name); !valid) {
      error = ErrorCode::kInvalidTopicException;
      message = valid.error().message();
    } else if (ctx.broker.topics().Find(r.name)) {
      error = ErrorCode::kTopicAlreadyExists;
      message = fmt::format("topic '{}' already exists", r.name);
    } else if (r.replication != -1 && r.replication != 1) {
      error = ErrorCode::kInvalidReplicationFactor;
      message = fmt::format("replication factor {}: floe's broker is a single node", r.replication);
    } else if (r.partitions < 1) {
      error = ErrorCode::kInvalidPartitions;
      message = fmt::format("{} partitions", r.partitions);
    } else {
      LogConfig check = ctx.broker.topics().defaults();
      if (auto applied = check.Apply(r.configs); !applied) {
        error = ErrorCode::kInvalidConfig;
        message = applied.error().message();
      } else if (!validate_only) {
        auto created = ctx.broker.topics().Create(r.name, r.partitions, r.configs);
        if (!created) {
          error = ErrorCode::kUnknownServerError;
          message = created.error().message();
        }
      }
    }
    out.String(r.name);
    out.Int16(Wire(error));
    if (v >= 1) out.NullableString(message);
  }
  return OkStatus();
}

}  // namespace floe::broker
