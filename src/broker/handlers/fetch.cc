// Fetch (key 1), v4-11: whole batches from each partition's log, long-polling up to max_wait
// when fewer than min_bytes are available, honouring the response and partition byte limits
// (the first batch is always returned whole so a consumer never stalls, KIP-74).
// isolation_level 1 (read_committed) reads only below each partition's last stable offset and
// lists the aborted transactions in the range, which the client drops; 0 reads to the high
// watermark and gets no list. Both are told the last stable offset.
// From v7, incremental fetch sessions (KIP-227, server/fetch_sessions.h): epoch 0 without a
// session opens one with the request's partitions; later epochs name only the partitions that
// changed (and the forgotten ones), read every partition of the session and answer only those
// with records, an error or offsets the client has not heard yet; epoch -1 closes it.
#include <algorithm>
#include <chrono>
#include <map>
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

struct ForgottenPartition {
  std::string topic;
  int32_t partition = 0;
};

struct FetchRequest {
  int32_t max_wait_ms = 0;
  int32_t min_bytes = 0;
  int32_t max_bytes = 0;
  bool read_committed = false;
  int32_t session_id = 0;
  int32_t session_epoch = -1;  // -1: no session (v0-6 have none).
  std::vector<FetchTopic> topics;
  std::vector<ForgottenPartition> forgotten;
};

Result<FetchRequest> DecodeFetchRequest(int16_t v, WireReader& in) {
  FetchRequest request;
  auto& topics = request.topics;
  FLOE_RETURN_IF_ERROR(in.Int32("replica_id"));
  FLOE_ASSIGN_OR_RETURN(request.max_wait_ms, in.Int32("max_wait_ms"));
  FLOE_ASSIGN_OR_RETURN(request.min_bytes, in.Int32("min_bytes"));
  FLOE_ASSIGN_OR_RETURN(request.max_bytes, in.Int32("max_bytes"));
  FLOE_ASSIGN_OR_RETURN(int8_t isolation_level, in.Int8("isolation_level"));
  request.read_committed = isolation_level == 1;
  if (v >= 7) {
    FLOE_ASSIGN_OR_RETURN(request.session_id, in.Int32("session_id"));
    FLOE_ASSIGN_OR_RETURN(request.session_epoch, in.Int32("session_epoch"));
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
      FLOE_ASSIGN_OR_RETURN(std::string_view topic, in.String("forgotten topic"));
      FLOE_ASSIGN_OR_RETURN(int32_t n, in.ArrayLength("forgotten partitions", 4));
      for (int32_t j = 0; j < n; ++j) {
        FLOE_ASSIGN_OR_RETURN(int32_t partition, in.Int32("forgotten partition"));
        request.forgotten.push_back(ForgottenPartition{std::string(topic), partition});
      }
    }
  }
  if (v >= 11) FLOE_RETURN_IF_ERROR(in.String("rack_id"));
  return request;
}

std::string PartitionKey(std::string_view topic, int32_t partition) {
  return fmt::format("{}\x1f{}", topic, partition);
}

// The session's partitions as the topics to read, grouped by topic in the order first added.
std::vector<FetchTopic> SessionTopics(const FetchSession& session) {
  std::vector<FetchTopic> topics;
  std::map<std::string, size_t> index;
  for (const FetchSessionPartition& p : session.partitions) {
    auto [it, added] = index.emplace(p.topic, topics.size());
    if (added) topics.push_back(FetchTopic{p.topic, {}, true});
    topics[it->second].partitions.push_back(FetchPartition{p.partition, p.fetch_offset, p.max_bytes});
  }
  return topics;
}

// Opens, advances or closes the request's fetch session. Afterwards `request.topics` holds
// every partition to read; returns the session to answer for (null: a full, sessionless
// answer) and whether the answer is incremental, or an error for the whole request.
struct SessionOutcome {
  std::shared_ptr<FetchSession> session;
  bool incremental = false;
  ErrorCode error = ErrorCode::kNone;
};

SessionOutcome ApplySession(FetchSessionCache& cache, const std::string& user, FetchRequest& request) {
  SessionOutcome out;
  if (request.session_id == 0) {
    if (request.session_epoch != 0) return out;  // -1: a sessionless full fetch.
    size_t count = 0;
    for (const FetchTopic& t : request.topics) count += t.partitions.size();
    out.session = cache.Create(user, count);  // Null when full: the client keeps fetching in full.
    if (out.session) {
      for (const FetchTopic& t : request.topics) {
        for (const FetchPartition& p : t.partitions) out.session->Upsert(t.name, p.index, p.offset, p.max_bytes);
      }
    }
    return out;
  }
  if (request.session_epoch == -1) {  // The client closes the session; this fetch is full.
    cache.Remove(request.session_id);
    return out;
  }
  std::shared_ptr<FetchSession> session = cache.Find(request.session_id, user, request.session_epoch, &out.error);
  if (!session) return out;
  for (const FetchTopic& t : request.topics) {
    for (const FetchPartition& p : t.partitions) session->Upsert(t.name, p.index, p.offset, p.max_bytes);
  }
  for (const ForgottenPartition& f : request.forgotten) session->Forget(f.topic, f.partition);
  if (!cache.Resized(*session)) {
    out.error = ErrorCode::kFetchSessionIdNotFound;
    return out;
  }
  session->next_epoch = session->next_epoch == INT32_MAX ? 1 : session->next_epoch + 1;
  request.topics = SessionTopics(*session);
  out.session = std::move(session);
  out.incremental = true;
  return out;
}

}  // namespace

awaitable<Status> HandleFetch(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  Broker& broker = ctx.broker;
  auto request = DecodeFetchRequest(v, in);
  if (!request) co_return std::unexpected(std::move(request).error());
  SessionOutcome session = ApplySession(broker.fetch_sessions(), ctx.sasl.user, *request);
  if (session.error != ErrorCode::kNone) {
    out.Int32(0);  // throttle_time_ms
    out.Int16(Wire(session.error));
    out.Int32(0);  // session_id
    out.ArrayLength(0);
    co_return OkStatus();
  }
  // Every partition read is authorized on every fetch, those a session carries over too.
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

  // Which partitions the answer carries: all of them, or in an incremental answer those with
  // records, an error, or offsets other than the client last heard. The session remembers what
  // it now hears.
  std::vector<std::vector<bool>> carried(topics.size());
  std::map<std::string, FetchSessionPartition*> in_session;
  if (session.session) {
    for (FetchSessionPartition& p : session.session->partitions) in_session[PartitionKey(p.topic, p.partition)] = &p;
  }
  for (size_t t = 0; t < topics.size(); ++t) {
    for (size_t p = 0; p < topics[t].partitions.size(); ++p) {
      const PartitionData& d = data[t][p];
      FetchSessionPartition* known = nullptr;
      if (auto it = in_session.find(PartitionKey(topics[t].name, topics[t].partitions[p].index));
          it != in_session.end()) {
        known = it->second;
      }
      bool news = d.region.length > 0 || d.error != ErrorCode::kNone || known == nullptr ||
                  known->high_watermark != d.high_watermark || known->last_stable_offset != d.last_stable_offset ||
                  known->log_start_offset != d.log_start_offset;
      bool carry = !session.incremental || news;
      carried[t].push_back(carry);
      if (carry && known != nullptr) {
        known->high_watermark = d.high_watermark;
        known->last_stable_offset = d.last_stable_offset;
        known->log_start_offset = d.log_start_offset;
      }
    }
  }

  out.Int32(0);  // throttle_time_ms
  if (v >= 7) {
    out.Int16(Wire(ErrorCode::kNone));
    out.Int32(session.session ? session.session->id : 0);
  }
  // An incremental answer leaves out topics none of whose partitions it carries.
  auto carries_topic = [&](size_t t) {
    return !session.incremental || std::count(carried[t].begin(), carried[t].end(), true) > 0;
  };
  size_t topics_carried = 0;
  for (size_t t = 0; t < topics.size(); ++t) topics_carried += carries_topic(t) ? 1 : 0;
  out.ArrayLength(topics_carried);
  for (size_t t = 0; t < topics.size(); ++t) {
    if (!carries_topic(t)) continue;
    size_t partitions_carried = std::count(carried[t].begin(), carried[t].end(), true);
    out.String(topics[t].name);
    out.ArrayLength(partitions_carried);
    for (size_t p = 0; p < topics[t].partitions.size(); ++p) {
      if (!carried[t][p]) continue;
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
