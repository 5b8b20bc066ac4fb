// Produce (key 0), v3-7: validates each partition's RecordBatch v2 data, appends it verbatim
// and answers after the append (acks=1), after an fsync covering it (acks=all under the batch
// fsync policy, shared with concurrent producers by group commit), or not at all (acks=0).
// Transactional batches (attributes bit 4) need the request's transactional id, and its
// producer id and epoch, in an Ongoing transaction holding the partition (AddPartitionsToTxn):
// else INVALID_PRODUCER_ID_MAPPING, INVALID_PRODUCER_EPOCH or INVALID_TXN_STATE. Control
// batches come only from the coordinator: a client's is INVALID_REQUEST, as is a mix of
// transactional and plain batches. In a compacted topic every record needs a key
// (INVALID_RECORD, 87; records that do not decode are CORRUPT_MESSAGE).
#include <algorithm>
#include <memory>

#include "base/logging.h"
#include "broker/handlers/handler.h"
#include "broker/protocol/batch_records.h"
#include "broker/server/wake_signal.h"

namespace floe::broker {
namespace {

// Records of one batch to a compacted topic are decoded up to this size to check their keys.
constexpr size_t kMaxDecodedProduceBatch = 128 << 20;

struct PartitionResult {
  int32_t index = 0;
  ErrorCode error = ErrorCode::kNone;
  int64_t base_offset = -1;
  int64_t log_start_offset = -1;
};

struct TopicResult {
  std::string name;
  std::vector<PartitionResult> partitions;
};

ErrorCode AppendPartition(Broker& broker, RequestContext& ctx, Topic* topic, PartitionResult& result,
                          std::optional<std::string_view> transactional_id, std::optional<std::string_view> records,
                          std::vector<std::shared_ptr<PartitionLog>>& touched) {
  if (!topic || result.index < 0 || static_cast<size_t>(result.index) >= topic->partitions.size()) {
    return ErrorCode::kUnknownTopicOrPartition;
  }
  if (!records || records->empty()) return ErrorCode::kCorruptMessage;
  auto& log = topic->partitions[static_cast<size_t>(result.index)];
  auto batches = SplitBatches(*records, static_cast<size_t>(log->config().max_message_bytes));
  if (!batches) {
    return batches.error().kind() == ErrorKind::kResourceExhausted ? ErrorCode::kMessageTooLarge
                                                                    : ErrorCode::kCorruptMessage;
  }
  for (const BatchView& b : *batches) {
    if (b.header.control()) return ErrorCode::kInvalidRequest;
    // A compacted topic keeps the last record per key: a record without one could only be
    // dropped by the cleaner later, so it is refused now, as Kafka does (KIP-467).
    if (log->config().compact) {
      Status keyed = CheckEveryRecordHasAKey(records->substr(b.position, b.header.size()), kMaxDecodedProduceBatch);
      if (!keyed)
        return keyed.error().kind() == ErrorKind::kInvalidArgument ? ErrorCode::kInvalidRecord
                                                                   : ErrorCode::kCorruptMessage;
    }
    if (b.header.transactional() != transactional_id.has_value()) return ErrorCode::kInvalidRequest;
    if (!transactional_id) continue;
    ErrorCode allowed = broker.transactions().CheckProduce(std::string(*transactional_id), b.header.producer_id,
                                                           b.header.producer_epoch, {topic->name, result.index});
    if (allowed != ErrorCode::kNone) return allowed;
  }
  // compression.type other than `producer`: batches in another codec are stored in the topic's.
  std::string recompressed;
  if (int codec = log->config().compression_codec; codec != LogConfig::kProducerCompression) {
    bool differs = std::any_of(batches->begin(), batches->end(),
                               [&](const BatchView& b) { return b.header.compression() != codec; });
    if (differs) {
      for (const BatchView& b : *batches) {
        std::string_view batch = records->substr(b.position, b.header.size());
        if (b.header.compression() == codec) {
          recompressed.append(batch);
          continue;
        }
        auto converted = RecompressBatch(batch, codec, kMaxDecodedProduceBatch);
        if (!converted) {
          return converted.error().kind() == ErrorKind::kResourceExhausted ? ErrorCode::kMessageTooLarge
                                                                           : ErrorCode::kCorruptMessage;
        }
        recompressed.append(*converted);
      }
      // Compressed the topic's way, a batch may now pass max.message.bytes, as in Kafka.
      batches = SplitBatches(recompressed, static_cast<size_t>(log->config().max_message_bytes));
      if (!batches) {
        return batches.error().kind() == ErrorKind::kResourceExhausted ? ErrorCode::kMessageTooLarge
                                                                       : ErrorCode::kCorruptMessage;
      }
    }
  }
  auto appended = log->Append(recompressed.empty() ? ctx.Mutable(*records) : recompressed.data(), *batches);
  if (!appended) {
    Logger("broker")->error("append to {}-{}: {}", topic->name, result.index, appended.error().ToString());
    // A disk that is full or failing: KAFKA_STORAGE_ERROR, which clients retry.
    ErrorKind kind = appended.error().kind();
    return kind == ErrorKind::kResourceExhausted || kind == ErrorKind::kIo ? ErrorCode::kKafkaStorageError
                                                                           : ErrorCode::kUnknownServerError;
  }
  broker.metrics().records_batches_in += batches->size();
  result.base_offset = appended->base_offset;
  result.log_start_offset = log->log_start_offset();
  if (appended->error == ErrorCode::kNone) touched.push_back(log);
  return appended->error;
}

struct ProduceOutcome {
  int16_t acks = 1;
  std::vector<TopicResult> results;
  std::vector<std::shared_ptr<PartitionLog>> touched;
};

// Decodes the request and appends each partition's batches as it goes.
Result<ProduceOutcome> DecodeAndAppend(RequestContext& ctx, WireReader& in) {
  Broker& broker = ctx.broker;
  ProduceOutcome outcome;
  auto& results = outcome.results;
  auto& touched = outcome.touched;
  FLOE_ASSIGN_OR_RETURN(auto transactional_id, in.NullableString("transactional_id"));
  FLOE_ASSIGN_OR_RETURN(int16_t acks, in.Int16("acks"));
  outcome.acks = acks;
  FLOE_RETURN_IF_ERROR(in.Int32("timeout_ms"));
  FLOE_ASSIGN_OR_RETURN(int32_t topic_count, in.ArrayLength("topic_data", 6));
  for (int32_t t = 0; t < topic_count; ++t) {
    TopicResult topic_result;
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic name"));
    topic_result.name = std::string(name);
    Topic* topic = broker.topics().Find(name);
    const bool writable = ctx.AllowsTopic(name, auth::Operation::kWrite);
    FLOE_ASSIGN_OR_RETURN(int32_t partition_count, in.ArrayLength("partition_data", 8));
    for (int32_t p = 0; p < partition_count; ++p) {
      PartitionResult result;
      FLOE_ASSIGN_OR_RETURN(result.index, in.Int32("partition index"));
      FLOE_ASSIGN_OR_RETURN(auto records, in.NullableBytes("records"));
      if (!writable) {
        // Kafka's Write ACL on the topic: a reader's role, or a grant that denies it.
        result.error = ErrorCode::kTopicAuthorizationFailed;
      } else if (acks != 0 && acks != 1 && acks != -1) {
        result.error = ErrorCode::kInvalidRequest;
      } else {
        result.error = AppendPartition(broker, ctx, topic, result, transactional_id, records, touched);
      }
      topic_result.partitions.push_back(result);
    }
    results.push_back(std::move(topic_result));
  }
  if (in.remaining() != 0) return Corruption("Produce request: {} trailing bytes", in.remaining());
  return outcome;
}

}  // namespace

awaitable<Status> HandleProduce(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  Broker& broker = ctx.broker;
  auto outcome = DecodeAndAppend(ctx, in);
  if (!outcome) co_return std::unexpected(std::move(outcome).error());
  const int16_t acks = outcome->acks;
  const auto& results = outcome->results;
  auto& touched = outcome->touched;
  if (acks == 0) {
    ctx.send_response = false;
    co_return OkStatus();
  }
  if (acks == -1 && broker.config().fsync == FsyncPolicy::kBatch && !touched.empty()) {
    auto signal = std::make_shared<WakeSignal>(broker.executor());
    auto remaining = std::make_shared<size_t>(touched.size());
    for (auto& log : touched) {
      log->RequestFlush([signal, remaining] {
        if (--*remaining == 0) signal->Notify();
      });
    }
    co_await signal->Wait();
  }
  out.ArrayLength(results.size());
  for (const TopicResult& t : results) {
    out.String(t.name);
    out.ArrayLength(t.partitions.size());
    for (const PartitionResult& p : t.partitions) {
      out.Int32(p.index);
      out.Int16(Wire(p.error));
      out.Int64(p.error == ErrorCode::kNone ? p.base_offset : -1);
      out.Int64(-1);  // log_append_time_ms: CreateTime topics
      if (v >= 5) out.Int64(p.log_start_offset);
    }
  }
  out.Int32(0);  // throttle_time_ms
  co_return OkStatus();
}

}  // namespace floe::broker
