// OffsetFetch (key 9), v0-5: a group's committed offsets, -1 where nothing was committed. As
// Kafka's ACLs: a group the user may not read is GROUP_AUTHORIZATION_FAILED (v2+: the
// top-level error; v0-1: each partition's), a topic it may not describe
// TOPIC_AUTHORIZATION_FAILED on its partitions (and left out when the request asks for all).
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleOffsetFetch(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  OffsetStore& offsets = ctx.broker.groups().offsets();
  FLOE_ASSIGN_OR_RETURN(std::string_view group_view, in.String("group_id"));
  std::string group_id(group_view);
  const bool group_allowed = ctx.AllowsGroup(group_id, auth::Operation::kRead);
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  std::vector<std::pair<std::string, std::vector<int32_t>>> wanted;
  if (topic_count < 0 && group_allowed) {
    // Null (v2+): every partition the group committed.
    for (const auto& [key, value] : offsets.ForGroup(group_id)) {
      const auto& [group, topic, partition] = key;
      if (!ctx.MayDescribeTopic(topic)) continue;
      if (wanted.empty() || wanted.back().first != topic) wanted.emplace_back(topic, std::vector<int32_t>{});
      wanted.back().second.push_back(partition);
    }
  }
  for (int32_t t = 0; t < topic_count; ++t) {
    FLOE_ASSIGN_OR_RETURN(std::string_view topic, in.String("topic"));
    FLOE_ASSIGN_OR_RETURN(int32_t n, in.ArrayLength("partition_indexes", 4));
    std::vector<int32_t> partitions;
    for (int32_t p = 0; p < n; ++p) {
      FLOE_ASSIGN_OR_RETURN(int32_t index, in.Int32("partition"));
      partitions.push_back(index);
    }
    wanted.emplace_back(std::string(topic), std::move(partitions));
  }
  if (v >= 3) out.Int32(0);
  out.ArrayLength(wanted.size());
  for (const auto& [topic, partitions] : wanted) {
    ErrorCode error = ErrorCode::kNone;
    if (!group_allowed) {
      error = ErrorCode::kGroupAuthorizationFailed;
    } else if (!ctx.MayDescribeTopic(topic)) {
      error = ErrorCode::kTopicAuthorizationFailed;
    }
    out.String(topic);
    out.ArrayLength(partitions.size());
    for (int32_t index : partitions) {
      std::optional<CommittedOffset> committed;
      if (error == ErrorCode::kNone) committed = offsets.Fetch(group_id, topic, index);
      out.Int32(index);
      out.Int64(committed ? committed->offset : -1);
      if (v >= 5) out.Int32(-1);  // committed_leader_epoch
      if (committed && committed->metadata) {
        out.NullableString(*committed->metadata);
      } else {
        out.NullableString(committed ? std::nullopt : std::optional<std::string_view>(""));
      }
      out.Int16(Wire(error));
    }
  }
  if (v >= 2) out.Int16(Wire(group_allowed ? ErrorCode::kNone : ErrorCode::kGroupAuthorizationFailed));
  return OkStatus();
}

}  // namespace floe::broker
