// OffsetDelete (key 47), v0 (KIP-496): forgets a group's committed offsets for some partitions
// (kafka-consumer-groups --delete-offsets, librdkafka's DeleteConsumerGroupOffsets). Offsets of
// a topic a live member subscribes to stay (GROUP_SUBSCRIBED_TO_TOPIC), as a running consumer
// would commit them again. Needs `delete` on the group and `read` on each topic.
#include "base/logging.h"
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleOffsetDelete(RequestContext& ctx, WireReader& in, WireWriter& out) {
  FLOE_ASSIGN_OR_RETURN(std::string_view group_view, in.String("group_id"));
  const std::string group_id(group_view);
  struct Request {
    std::string topic;
    std::vector<int32_t> partitions;
  };
  std::vector<Request> requests;
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  for (int32_t t = 0; t < topic_count; ++t) {
    Request request;
    FLOE_ASSIGN_OR_RETURN(std::string_view topic, in.String("topic"));
    request.topic = std::string(topic);
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partitions", 4));
    for (int32_t p = 0; p < partition_count; ++p) {
      FLOE_ASSIGN_OR_RETURN(int32_t partition, in.Int32("partition_index"));
      request.partitions.push_back(partition);
    }
    requests.push_back(std::move(request));
  }

  GroupCoordinator& groups = ctx.broker.groups();
  // Checked before existence, so a user cannot learn which groups exist.
  ErrorCode group_error = ctx.AllowsGroup(group_id, auth::Operation::kDelete) ? groups.CheckOffsetDelete(group_id)
                                                                              : ErrorCode::kGroupAuthorizationFailed;
  out.Int16(Wire(group_error));
  out.Int32(0);  // throttle_time_ms
  if (group_error != ErrorCode::kNone) {
    out.ArrayLength(0);
    return OkStatus();
  }
  out.ArrayLength(requests.size());
  for (const Request& request : requests) {
    Topic* topic = ctx.broker.topics().Find(request.topic);
    const bool allowed = ctx.AllowsTopic(request.topic, auth::Operation::kRead);
    const bool subscribed = groups.SubscribesTo(group_id, request.topic);
    out.String(request.topic);
    out.ArrayLength(request.partitions.size());
    for (int32_t partition : request.partitions) {
      ErrorCode error = ErrorCode::kNone;
      if (!allowed) {
        error = ErrorCode::kTopicAuthorizationFailed;
      } else if (!topic || partition < 0 || static_cast<size_t>(partition) >= topic->partitions.size()) {
        error = ErrorCode::kUnknownTopicOrPartition;
      } else if (subscribed) {
        error = ErrorCode::kGroupSubscribedToTopic;
      } else if (Status removed = groups.offsets().Remove(group_id, request.topic, partition); !removed) {
        Logger("broker")->error("offset delete: {}", removed.error().ToString());
        error = ErrorCode::kKafkaStorageError;
      }
      out.Int32(partition);
      out.Int16(Wire(error));
    }
  }
  return OkStatus();
}

}  // namespace floe::broker
