// AddPartitionsToTxn (key 24), v0-3: adds partitions to a producer's transaction before it
// writes to them. All or nothing: when one partition is refused (unknown, or the user may not
// write its topic), the others are answered OPERATION_NOT_ATTEMPTED and none is added. v2+
// clients understand PRODUCER_FENCED, older ones get INVALID_PRODUCER_EPOCH; v3 is flexible.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleAddPartitionsToTxn(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(std::string_view transactional_id, in.String("transactional_id"));
  FLOE_ASSIGN_OR_RETURN(int64_t producer_id, in.Int64("producer_id"));
  FLOE_ASSIGN_OR_RETURN(int16_t epoch, in.Int16("producer_epoch"));
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  struct Requested {
    TxnPartition partition;
    ErrorCode error = ErrorCode::kNone;
  };
  std::vector<std::pair<std::string, std::vector<Requested>>> topics;
  bool refused = false;
  for (int32_t t = 0; t < topic_count; ++t) {
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic name"));
    Topic* topic = ctx.broker.topics().Find(name);
    const bool writable = ctx.AllowsTopic(name, auth::Operation::kWrite);
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partitions", 4));
    std::vector<Requested> partitions;
    for (int32_t p = 0; p < partition_count; ++p) {
      Requested r;
      r.partition.topic = std::string(name);
      FLOE_ASSIGN_OR_RETURN(r.partition.partition, in.Int32("partition"));
      if (!writable) {
        r.error = ErrorCode::kTopicAuthorizationFailed;
      } else if (!topic || r.partition.partition < 0 ||
                 static_cast<size_t>(r.partition.partition) >= topic->partitions.size()) {
        r.error = ErrorCode::kUnknownTopicOrPartition;
      }
      refused = refused || r.error != ErrorCode::kNone;
      partitions.push_back(std::move(r));
    }
    FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("AddPartitionsToTxn topic"));
    topics.emplace_back(std::string(name), std::move(partitions));
  }
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("AddPartitionsToTxn request"));

  ErrorCode outcome = ErrorCode::kOperationNotAttempted;
  if (!refused) {
    std::vector<TxnPartition> all;
    for (const auto& [name, partitions] : topics) {
      for (const Requested& r : partitions) all.push_back(r.partition);
    }
    outcome = ctx.broker.transactions().AddPartitions(std::string(transactional_id), producer_id, epoch, all);
    if (outcome == ErrorCode::kProducerFenced && v < 2) outcome = ErrorCode::kInvalidProducerEpoch;
  }
  out.Int32(0);  // throttle_time_ms
  out.ArrayLength(topics.size());
  for (const auto& [name, partitions] : topics) {
    out.String(name);
    out.ArrayLength(partitions.size());
    for (const Requested& r : partitions) {
      out.Int32(r.partition.partition);
      out.Int16(Wire(r.error != ErrorCode::kNone ? r.error : outcome));
      out.TaggedFields();
    }
    out.TaggedFields();
  }
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker
