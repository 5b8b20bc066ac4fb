// CreatePartitions (key 37), v0-1: grows topics to a larger partition count (kafka-topics
// --alter --partitions, kafkajs admin.createPartitions). This broker leads every partition, so
// an explicit assignment may name only this node.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleCreatePartitions(RequestContext& ctx, WireReader& in, WireWriter& out) {
  struct Request {
    std::string name;
    int32_t count = 0;
    bool foreign_assignment = false;  // A replica on a node other than this one.
  };
  std::vector<Request> requests;
  FLOE_ASSIGN_OR_RETURN(int32_t topics, in.ArrayLength("topics", 10));
  for (int32_t i = 0; i < topics; ++i) {
    Request r;
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("name"));
    r.name = std::string(name);
    FLOE_ASSIGN_OR_RETURN(r.count, in.Int32("count"));
    FLOE_ASSIGN_OR_RETURN(int32_t assignments, in.ArrayLength("assignments", 4));  // -1: null
    for (int32_t a = 0; a < assignments; ++a) {
      FLOE_ASSIGN_OR_RETURN(int32_t brokers, in.ArrayLength("broker_ids", 4));
      for (int32_t b = 0; b < brokers; ++b) {
        FLOE_ASSIGN_OR_RETURN(int32_t id, in.Int32("broker_id"));
        r.foreign_assignment |= id != ctx.broker.config().node_id;
      }
      r.foreign_assignment |= brokers != 1;
    }
    requests.push_back(std::move(r));
  }
  FLOE_RETURN_IF_ERROR(in.Int32("timeout_ms"));
  FLOE_ASSIGN_OR_RETURN(bool validate_only, in.Bool("validate_only"));

  out.Int32(0);  // throttle_time_ms
  out.ArrayLength(requests.size());
  for (const Request& r : requests) {
    ErrorCode error = ErrorCode::kNone;
    std::optional<std::string> message;
    Topic* topic = ctx.broker.topics().Find(r.name);
    if (!ctx.AllowsTopic(r.name, auth::Operation::kAlter)) {
      error = ErrorCode::kTopicAuthorizationFailed;
      message = fmt::format("user '{}' may not alter topic '{}' (role admin, or a grant of alter)", ctx.sasl.user, r.name);
    } else if (!topic) {
      error = ErrorCode::kUnknownTopicOrPartition;
      message = fmt::format("topic '{}' does not exist", r.name);
    } else if (r.count <= static_cast<int32_t>(topic->partitions.size())) {
      error = ErrorCode::kInvalidPartitions;
      message = fmt::format("topic '{}' has {} partitions; the new count must be more", r.name, topic->partitions.size());
    } else if (r.foreign_assignment) {
      error = ErrorCode::kInvalidReplicaAssignment;
      message = fmt::format("floe's broker is the single node {}: every new partition is on it", ctx.broker.config().node_id);
    } else if (!validate_only) {
      if (auto grown = ctx.broker.topics().AddPartitions(r.name, r.count); !grown) {
        error = grown.error().kind() == ErrorKind::kInvalidArgument ? ErrorCode::kInvalidPartitions : ErrorCode::kKafkaStorageError;
        message = grown.error().message();
      }
    }
    out.String(r.name);
    out.Int16(Wire(error));
    out.NullableString(message);
  }
  return OkStatus();
}

}  // namespace floe::broker
