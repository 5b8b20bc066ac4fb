// ListOffsets (key 2), v0-5: earliest (-2), latest (-1) or the first record at or after a
// timestamp, with that record's timestamp (record granularity; a compressed batch answers with
// its base offset and max timestamp). With
// isolation_level 1 (read_committed, v2+) latest is the last stable offset.
#include "base/logging.h"
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleListOffsets(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  Broker& broker = ctx.broker;
  FLOE_RETURN_IF_ERROR(in.Int32("replica_id"));
  int8_t isolation_level = 0;
  if (v >= 2) {
    FLOE_ASSIGN_OR_RETURN(isolation_level, in.Int8("isolation_level"));
  }
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  if (v >= 2) out.Int32(0);
  out.ArrayLength(static_cast<size_t>(std::max(topic_count, 0)));
  for (int32_t t = 0; t < topic_count; ++t) {
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic"));
    Topic* topic = broker.topics().Find(name);
    const bool readable = ctx.MayDescribeTopic(name);
    out.String(name);
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partitions", 12));
    out.ArrayLength(static_cast<size_t>(std::max(partition_count, 0)));
    for (int32_t p = 0; p < partition_count; ++p) {
      FLOE_ASSIGN_OR_RETURN(int32_t index, in.Int32("partition"));
      if (v >= 4) FLOE_RETURN_IF_ERROR(in.Int32("current_leader_epoch"));
      FLOE_ASSIGN_OR_RETURN(int64_t timestamp, in.Int64("timestamp"));
      if (v == 0) FLOE_RETURN_IF_ERROR(in.Int32("max_num_offsets"));
      ErrorCode error = ErrorCode::kNone;
      int64_t offset = -1;
      int64_t found_timestamp = -1;
      if (!readable) {
        error = ErrorCode::kTopicAuthorizationFailed;
      } else if (!topic || index < 0 || static_cast<size_t>(index) >= topic->partitions.size()) {
        error = ErrorCode::kUnknownTopicOrPartition;
      } else {
        auto& log = topic->partitions[static_cast<size_t>(index)];
        if (timestamp == -1) {
          offset = isolation_level == 1 ? log->last_stable_offset() : log->high_watermark();
        } else if (timestamp == -2) {
          offset = log->log_start_offset();
        } else if (timestamp < 0) {
          error = ErrorCode::kInvalidRequest;
        } else {
          auto found = log->OffsetForTimestamp(timestamp);
          if (!found) {
            Logger("broker")->error("offset for time in {}-{}: {}", name, index, found.error().ToString());
            error = ErrorCode::kUnknownServerError;
          } else if (*found) {
            offset = (*found)->offset;
            found_timestamp = (*found)->timestamp;
          }
        }
      }
      out.Int32(index);
      out.Int16(Wire(error));
      if (v == 0) {
        if (offset >= 0) {
          out.ArrayLength(1);
          out.Int64(offset);
        } else {
          out.ArrayLength(0);
        }
      } else {
        out.Int64(found_timestamp);
        out.Int64(offset);
        if (v >= 4) out.Int32(0);  // leader_epoch
      }
    }
  }
  return OkStatus();
}

}  // namespace floe::broker
