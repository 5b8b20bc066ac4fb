// Metadata (key 3), v0-8: this broker as the only node, leader of every partition, and the
// controller; unknown topics are auto-created when allowed. A user sees the topics it may
// describe (any operation but create, as Kafka's Describe): a request for all lists only those, a
// named one it may not describe is TOPIC_AUTHORIZATION_FAILED (whether or not it exists), and
// auto-creation needs write or create on the name.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleMetadata(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("topics", 2));
  std::vector<std::string> requested;
  bool all_topics = count < 0 || (v == 0 && count == 0);
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic name"));
    requested.emplace_back(name);
  }
  bool allow_auto_create = true;
  if (v >= 4) {
    FLOE_ASSIGN_OR_RETURN(allow_auto_create, in.Bool("allow_auto_topic_creation"));
  }
  if (v >= 8) {
    FLOE_RETURN_IF_ERROR(in.Bool("include_cluster_authorized_operations"));
    FLOE_RETURN_IF_ERROR(in.Bool("include_topic_authorized_operations"));
  }
  Broker& broker = ctx.broker;
  const int32_t node = broker.config().node_id;
  if (v >= 3) out.Int32(0);
  out.ArrayLength(1);
  out.Int32(node);
  out.String(broker.advertised().host);
  out.Int32(broker.advertised().port);
  if (v >= 1) out.NullableString(std::nullopt);  // rack
  if (v >= 2) out.NullableString(broker.config().cluster_id);
  if (v >= 1) out.Int32(node);  // controller_id

  struct Entry {
    std::string name;
    ErrorCode error = ErrorCode::kNone;
    Topic* topic = nullptr;
  };
  std::vector<Entry> entries;
  if (all_topics) {
    for (const auto& [name, topic] : broker.topics().topics()) {
      if (ctx.MayDescribeTopic(name)) entries.push_back({name, ErrorCode::kNone, topic.get()});
    }
  } else {
    for (const std::string& name : requested) {
      Entry e{name};
      if (!ctx.MayDescribeTopic(name) && !ctx.AllowsTopic(name, auth::Operation::kCreate)) {
        e.error = ErrorCode::kTopicAuthorizationFailed;
        entries.push_back(std::move(e));
        continue;
      }
      e.topic = broker.topics().Find(name);
      if (!e.topic) {
        if (!ValidateTopicName(name)) {
          e.error = ErrorCode::kInvalidTopicException;
        } else if (allow_auto_create && broker.config().auto_create_topics &&
                   (ctx.AllowsTopic(name, auth::Operation::kWrite) || ctx.AllowsTopic(name, auth::Operation::kCreate))) {
          // Auto-creation serves a producer's first send: the writer's, or a creator's.
          auto created = broker.AutoCreateTopic(name);
          if (created) {
            e.topic = *created;
          } else {
            e.error = ErrorCode::kUnknownServerError;
          }
        } else {
          e.error = ErrorCode::kUnknownTopicOrPartition;
        }
      }
      entries.push_back(std::move(e));
    }
  }
  out.ArrayLength(entries.size());
  for (const Entry& e : entries) {
    out.Int16(Wire(e.error));
    out.String(e.name);
    if (v >= 1) out.Bool(false);  // is_internal
    size_t partitions = e.topic ? e.topic->partitions.size() : 0;
    out.ArrayLength(partitions);
    for (size_t p = 0; p < partitions; ++p) {
      out.Int16(Wire(ErrorCode::kNone));
      out.Int32(static_cast<int32_t>(p));
      out.Int32(node);  // leader
      if (v >= 7) out.Int32(0);  // leader_epoch
      out.ArrayLength(1);
      out.Int32(node);  // replicas
      out.ArrayLength(1);
      out.Int32(node);  // isr
      if (v >= 5) out.ArrayLength(0);  // offline replicas
    }
    if (v >= 8) out.Int32(INT32_MIN);  // topic_authorized_operations: not computed
  }
  if (v >= 8) out.Int32(INT32_MIN);
  return OkStatus();
}

}  // namespace floe::broker
