// Fetch (key 1), v4-11: whole batches from each partition's log, long-polling up to max_wait
// when fewer than min_bytes are available, honouring the response and partition byte limits
// (the first batch is always returned whole so a consumer never stalls, KIP-74).
// isolation_level 1 (read_committed) reads only below each partition's last stable offset and
// lists the aborted transactions in the range, which the client drops; 0 reads to the high
// watermark and gets no list. Both are told the last stable offset.
#include <chrono>
#include <memory>

#include "base/logging.h"
#include "broker/handlers/handler.h"
#include "broker/server/wake_signal.h"

namespace floe::broker {
namespace {

struct FetchPartition {
  int32_t index = 0;
  int64_t offset = 0;
  int32_t max_bytes = 0;
};

struct FetchTopic {
  std::string name;
  std::vector<FetchPartition> partitions;
  bool readable = true;  // Kafka's Read ACL on the topic (the user's role and grants).
};

struct PartitionData {
  ErrorCode error = ErrorCode::kNone;
  int64_t high_watermark = -1;
  int64_t log_start_offset = -1;
  int64_t last_stable_offset = -1;
  std::vector<AbortedTransaction> aborted;
  FileRegion region;
};

// Reads every requested partition; returns the bytes gathered.
size_t ReadAll(Broker& broker, const std::vector<FetchTopic>& topics, int32_t max_bytes, bool read_committed,
               std::vector<std::vector<PartitionData>>& data, bool& any_error) {
  size_t total = 0;
  any_error = false;
  data.assign(topics.size(), {});
  for (size_t t = 0; t < topics.size(); ++t) {
    Topic* topic = broker.topics().Find(topics[t].name);
    for (const FetchPartition& p : topics[t].partitions) {
      PartitionData d;
      if (!topics[t].readable) {
        d.error = ErrorCode::kTopicAuthorizationFailed;
      } else if (!topic || p.index < 0 || static_cast<size_t>(p.index) >= topic->partitions.size()) {
        d.error = ErrorCode::kUnknownTopicOrPartition;
      } else {
        auto& log = topic->partitions[static_cast<size_t>(p.index)];
        d.high_watermark = log->high_watermark();
        d.log_start_offset = log->log_start_offset();
        d.last_stable_offset = log->last_stable_offset();
        const int64_t end = read_committed ? d.last_stable_offset : d.high_watermark;
        if (p.offset < d.log_start_offset || p.offset > d.high_watermark) {
          d.error = ErrorCode::kOffsetOutOfRange;
        } else if (p.offset < end) {
          int64_t budget = std::min<int64_t>(p.max_bytes, static_cast<int64_t>(max_bytes) - static_cast<int64_t>(total));
          if (budget > 0 || total == 0) {
            auto read = log->ReadRegion(p.offset, static_cast<uint64_t>(std::max<int64_t>(budget, 1)), end);
            if (read) {
              d.region = std::move(*read);
              if (read_committed && d.region.length > 0) d.aborted = log->AbortedTransactions(p.offset, end);
            } else {
              Logger("broker")->error("read {}-{}: {}", topics[t].name, p.index, read.error().ToString());
              d.error = ErrorCode::kUnknownServerError;
            }
          }
        }
      }
      any_error = any_error || d.error != ErrorCode::kNone;
      total += d.region.length;
      data[t].push_back(std::move(d));
    }
  }
  return total;
}

struct FetchRequest {
  int32_t max_wait_ms = 0;
  int32_t min_bytes = 0;
  int32_t max_bytes = 0;
  bool read_committed = false;
  std::vector<FetchTopic> topics;
};

Result<FetchRequest> Decode(int16_t v, WireReader& in) {
  FetchRequest request;
  auto& topics = request.topics;
  FLOE_RETURN_IF_ERROR(in.Int32("replica_id"));
  FLOE_ASSIGN_OR_RETURN(request.max_wait_ms, in.Int32("max_wait_ms"));
  FLOE_ASSIGN_OR_RETURN(request.min_bytes, in.Int32("min_bytes"));
  FLOE_ASSIGN_OR_RETURN(request.max_bytes, in.Int32("max_bytes"));
  FLOE_ASSIGN_OR_RETURN(int8_t isolation_level, in.Int8("isolation_level"));
  request.read_committed = isolation_level == 1;
  if (v >= 7) {
    FLOE_RETURN_IF_ERROR(in.Int32("session_id"));
    FLOE_RETURN_IF_ERROR(in.Int32("session_epoch"));
  }
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topics", 6));
  for (int32_t t = 0; t < topic_count; ++t) {
    FetchTopic topic;
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic"));
    topic.name = std::string(name);
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partitions", 16));
    for (int32_t p = 0; p < partition_count; ++p) {
      FetchPartition fp;
      FLOE_ASSIGN_OR_RETURN(fp.index, in.Int32("partition"));
      if (v >= 9) FLOE_RETURN_IF_ERROR(in.Int32("current_leader_epoch"));
      FLOE_ASSIGN_OR_RETURN(fp.offset, in.Int64("fetch_offset"));
      if (v >= 5) FLOE_RETURN_IF_ERROR(in.Int64("log_start_offset"));
      FLOE_ASSIGN_OR_RETURN(fp.max_bytes, in.Int32("partition_max_bytes"));
      topic.partitions.push_back(fp);
    }
    topics.push_back(std::move(topic));
  }
  if (v >= 7) {
    FLOE_ASSIGN_OR_RETURN(int32_t forgotten, in.ArrayLength("forgotten_topics_data", 6));
    for (int32_t i = 0; i < forgotten; ++i) {
      FLOE_RETURN_IF_ERROR(in.String("forgotten topic"));
      FLOE_ASSIGN_OR_RETURN(int32_t n, in.ArrayLength("forgotten partitions", 4));
      for (int32_t j = 0; j < n; ++j) FLOE_RETURN_IF_ERROR(in.Int32("forgotten partition"));
    }
  }
  if (v >= 11) FLOE_RETURN_IF_ERROR(in.String("rack_id"));
  return request;
}

}  // namespace

awaitable<Status> HandleFetch(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  Broker& broker = ctx.broker;
  auto request = Decode(v, in);
  if (!request) co_return std::unexpected(std::move(request).error());
  for (FetchTopic& topic : request->topics) topic.readable = ctx.AllowsTopic(topic.name, auth::Operation::kRead);
  const auto& topics = request->topics;
  const int32_t max_wait_ms = request->max_wait_ms;
  const int32_t min_bytes = request->min_bytes;
  const int32_t max_bytes = request->max_bytes <= 0 ? INT32_MAX : request->max_bytes;

  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::clamp(max_wait_ms, 0, 300000));
  std::vector<std::vector<PartitionData>> data;
  bool any_error = false;
  size_t total = ReadAll(broker, topics, max_bytes, request->read_committed, data, any_error);
  while (!any_error && total < static_cast<size_t>(std::max(min_bytes, 1)) &&
         std::chrono::steady_clock::now() < deadline) {
    // Wait for an append to any requested partition, then read again.
    WakeSignal signal(broker.executor());
    std::vector<std::pair<std::shared_ptr<PartitionLog>, uint64_t>> waits;
    for (const FetchTopic& t : topics) {
      Topic* topic = broker.topics().Find(t.name);
      for (const FetchPartition& p : t.partitions) {
        // Deleted while this fetch waited: the next read reports it.
        if (!topic || static_cast<size_t>(p.index) >= topic->partitions.size()) continue;
        auto& log = topic->partitions[static_cast<size_t>(p.index)];
        waits.emplace_back(log, log->AddAppendWaiter([&signal] { signal.Notify(); }));
      }
    }
    bool woken = co_await signal.WaitUntil(deadline);
    for (auto& [log, id] : waits) log->RemoveAppendWaiter(id);
    if (!woken && total > 0) break;
    total = ReadAll(broker, topics, max_bytes, request->read_committed, data, any_error);
    if (!woken) break;
  }

  out.Int32(0);  // throttle_time_ms
  if (v >= 7) {
    out.Int16(Wire(ErrorCode::kNone));
    out.Int32(0);  // session_id: sessions are not kept, every fetch is a full fetch
  }
  out.ArrayLength(topics.size());
  for (size_t t = 0; t < topics.size(); ++t) {
    out.String(topics[t].name);
    out.ArrayLength(topics[t].partitions.size());
    for (size_t p = 0; p < topics[t].partitions.size(); ++p) {
      const PartitionData& d = data[t][p];
      out.Int32(topics[t].partitions[p].index);
      out.Int16(Wire(d.error));
      out.Int64(d.high_watermark);
      out.Int64(d.last_stable_offset);
      if (v >= 5) out.Int64(d.log_start_offset);
      out.ArrayLength(d.aborted.size());
      for (const AbortedTransaction& aborted : d.aborted) {
        out.Int64(aborted.producer_id);
        out.Int64(aborted.first_offset);
      }
      if (v >= 11) out.Int32(-1);  // preferred_read_replica
      // The records go out by sendfile, straight from the segment file.
      out.Int32(static_cast<int32_t>(d.region.length));
      if (d.region.length > 0) ctx.regions.push_back({out.size(), d.region});
    }
  }
  co_return OkStatus();
}

}  // namespace floe::broker
