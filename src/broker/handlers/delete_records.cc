// DeleteRecords (key 21), v0-1: moves partitions' log start offsets forward (kafka-delete-records,
// kafkajs admin.deleteTopicRecords, librdkafka rd_kafka_DeleteRecords). Offset -1 means the high
// watermark; past it, or below -1, is OFFSET_OUT_OF_RANGE. The new start is durable before the
// answer; consumers below it get OFFSET_OUT_OF_RANGE. Needs `delete` on the topic.
#include "base/logging.h"
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleDeleteRecords(RequestContext& ctx, WireReader& in, WireWriter& out) {
  struct Target {
    int32_t partition = 0;
    int64_t offset = 0;
  };
  std::vector<std::pair<std::string, std::vector<Target>>> topics;
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  for (int32_t t = 0; t < topic_count; ++t) {
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic name"));
    std::vector<Target> targets;
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partitions", 12));
    for (int32_t p = 0; p < partition_count; ++p) {
      Target target;
      FLOE_ASSIGN_OR_RETURN(target.partition, in.Int32("partition_index"));
      FLOE_ASSIGN_OR_RETURN(target.offset, in.Int64("offset"));
      targets.push_back(target);
    }
    topics.emplace_back(std::string(name), std::move(targets));
  }
  FLOE_RETURN_IF_ERROR(in.Int32("timeout_ms"));

  out.Int32(0);  // throttle_time_ms
  out.ArrayLength(topics.size());
  for (const auto& [name, targets] : topics) {
    Topic* topic = ctx.broker.topics().Find(name);
    const bool allowed = ctx.AllowsTopic(name, auth::Operation::kDelete);
    out.String(name);
    out.ArrayLength(targets.size());
    for (const Target& target : targets) {
      ErrorCode error = ErrorCode::kNone;
      int64_t low_watermark = -1;
      if (!allowed) {
        error = ErrorCode::kTopicAuthorizationFailed;
      } else if (!topic || target.partition < 0 || static_cast<size_t>(target.partition) >= topic->partitions.size()) {
        error = ErrorCode::kUnknownTopicOrPartition;
      } else {
        auto& log = topic->partitions[static_cast<size_t>(target.partition)];
        if (target.offset < -1 || target.offset > log->high_watermark()) {
          error = ErrorCode::kOffsetOutOfRange;
        } else {
          auto moved = log->DeleteRecordsBefore(target.offset == -1 ? log->high_watermark() : target.offset);
          if (moved) {
            low_watermark = *moved;
          } else {
            Logger("broker")->error("DeleteRecords {}-{}: {}", name, target.partition, moved.error().ToString());
            error = ErrorCode::kKafkaStorageError;
          }
        }
      }
      out.Int32(target.partition);
      out.Int64(low_watermark);
      out.Int16(Wire(error));
    }
  }
  return OkStatus();
}

}  // namespace floe::broker
