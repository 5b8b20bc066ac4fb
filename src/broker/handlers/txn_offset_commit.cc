// TxnOffsetCommit (key 28), v0-3: a transaction's consumer-group offsets, held with the
// transaction and made visible to the group only when it commits (dropped if it aborts). The
// group must have been added with AddOffsetsToTxn (else INVALID_TXN_STATE). As OffsetCommit:
// `read` on the group and each topic. v2 adds each partition's leader epoch; v3 (flexible)
// the member's generation, checked as OffsetCommit checks it when one is given. A fenced
// producer gets INVALID_PRODUCER_EPOCH.
#include "base/logging.h"
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleTxnOffsetCommit(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  TransactionCoordinator& transactions = ctx.broker.transactions();
  FLOE_ASSIGN_OR_RETURN(std::string_view transactional_view, in.String("transactional_id"));
  std::string transactional_id(transactional_view);
  FLOE_ASSIGN_OR_RETURN(std::string_view group_view, in.String("group_id"));
  std::string group_id(group_view);
  FLOE_ASSIGN_OR_RETURN(int64_t producer_id, in.Int64("producer_id"));
  FLOE_ASSIGN_OR_RETURN(int16_t epoch, in.Int16("producer_epoch"));
  int32_t generation = -1;
  std::string member_id;
  if (v >= 3) {
    FLOE_ASSIGN_OR_RETURN(generation, in.Int32("generation_id"));
    FLOE_ASSIGN_OR_RETURN(std::string_view member, in.String("member_id"));
    member_id = std::string(member);
    FLOE_RETURN_IF_ERROR(in.NullableString("group_instance_id"));
  }
  ErrorCode common = ErrorCode::kGroupAuthorizationFailed;
  if (ctx.AllowsGroup(group_id, auth::Operation::kRead)) {
    common = transactions.CheckTxnOffsetCommit(transactional_id, producer_id, epoch, group_id);
    if (common == ErrorCode::kProducerFenced) common = ErrorCode::kInvalidProducerEpoch;
    if (common == ErrorCode::kNone && v >= 3 && generation != -1) {
      common = ctx.broker.groups().CheckCommit(group_id, generation, member_id);
    }
  }
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  out.Int32(0);  // throttle_time_ms
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
      if (v >= 2) FLOE_RETURN_IF_ERROR(in.Int32("committed_leader_epoch"));
      FLOE_ASSIGN_OR_RETURN(auto metadata, in.NullableString("committed_metadata"));
      FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("TxnOffsetCommit partition"));
      ErrorCode error = common;
      if (error == ErrorCode::kNone && !topic_allowed) error = ErrorCode::kTopicAuthorizationFailed;
      if (error == ErrorCode::kNone && (!topic || index < 0 || static_cast<size_t>(index) >= topic->partitions.size())) {
        error = ErrorCode::kUnknownTopicOrPartition;
      }
      if (error == ErrorCode::kNone && metadata && metadata->size() > kMaxOffsetMetadataBytes) {
        error = ErrorCode::kOffsetMetadataTooLarge;
      }
      if (error == ErrorCode::kNone) {
        CommittedOffset value{offset, metadata ? std::optional<std::string>(std::string(*metadata)) : std::nullopt};
        Status held = transactions.AddPendingOffset(transactional_id, {group_id, std::string(topic_name), index}, value);
        if (!held) {
          Logger("broker")->error("transactional offset commit: {}", held.error().ToString());
          error = ErrorCode::kUnknownServerError;
        }
      }
      out.Int32(index);
      out.Int16(Wire(error));
      out.TaggedFields();
    }
    FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("TxnOffsetCommit topic"));
    out.TaggedFields();
  }
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("TxnOffsetCommit request"));
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker
