// OffsetCommit (key 8), v0-7: persists a group's consumed positions (OffsetStore). As Kafka's
// ACLs: the user must be allowed to read the group (GROUP_AUTHORIZATION_FAILED on every
// partition) and each topic (TOPIC_AUTHORIZATION_FAILED on its partitions).
#include "base/logging.h"
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleOffsetCommit(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  GroupCoordinator& groups = ctx.broker.groups();
  FLOE_ASSIGN_OR_RETURN(std::string_view group_view, in.String("group_id"));
  std::string group_id(group_view);
  int32_t generation = -1;
  std::string member_id;
  if (v >= 1) {
    FLOE_ASSIGN_OR_RETURN(generation, in.Int32("generation_id"));
    FLOE_ASSIGN_OR_RETURN(std::string_view member, in.String("member_id"));
    member_id = std::string(member);
  }
  if (v >= 7) FLOE_RETURN_IF_ERROR(in.NullableString("group_instance_id"));
  if (v >= 2 && v <= 4) FLOE_RETURN_IF_ERROR(in.Int64("retention_time_ms"));
  const bool group_allowed = ctx.AllowsGroup(group_id, auth::Operation::kRead);
  ErrorCode membership =
      group_allowed ? groups.CheckCommit(group_id, generation, member_id) : ErrorCode::kGroupAuthorizationFailed;
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  if (v >= 3) out.Int32(0);
  out.ArrayLength(static_cast<size_t>(std::max(topic_count, 0)));
  for (int32_t t = 0; t < topic_count; ++t) {
    FLOE_ASSIGN_OR_RETURN(std::string_view topic_name, in.String("topic"));
    Topic* topic = ctx.broker.topics().Find(topic_name);
    const bool topic_allowed = ctx.AllowsTopic(topic_name, auth::Operation::kRead);
    out.String(topic_name);
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partitions", 14));
    out.ArrayLength(static_cast<size_t>(std::max(partition_count, 0)));
    for (int32_t p = 0; p < partition_count; ++p) {
      FLOE_ASSIGN_OR_RETURN(int32_t index, in.Int32("partition"));
      FLOE_ASSIGN_OR_RETURN(int64_t offset, in.Int64("committed_offset"));
      if (v >= 6) FLOE_RETURN_IF_ERROR(in.Int32("committed_leader_epoch"));
      if (v == 1) FLOE_RETURN_IF_ERROR(in.Int64("commit_timestamp"));
      FLOE_ASSIGN_OR_RETURN(auto metadata, in.NullableString("committed_metadata"));
      ErrorCode error = membership;
      if (error == ErrorCode::kNone && !topic_allowed) error = ErrorCode::kTopicAuthorizationFailed;
      if (error == ErrorCode::kNone &&
          (!topic || index < 0 || static_cast<size_t>(index) >= topic->partitions.size())) {
        error = ErrorCode::kUnknownTopicOrPartition;
      }
      if (error == ErrorCode::kNone && metadata && metadata->size() > kMaxOffsetMetadataBytes) {
        error = ErrorCode::kOffsetMetadataTooLarge;
      }
      if (error == ErrorCode::kNone) {
        CommittedOffset value{offset, metadata ? std::optional<std::string>(std::string(*metadata)) : std::nullopt};
        Status stored = groups.offsets().Commit(group_id, std::string(topic_name), index, value);
        if (!stored) {
          Logger("broker")->error("offset commit: {}", stored.error().ToString());
          error = ErrorCode::kUnknownServerError;
        }
      }
      out.Int32(index);
      out.Int16(Wire(error));
    }
  }
  return OkStatus();
}

}  // namespace floe::broker
