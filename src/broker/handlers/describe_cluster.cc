// DescribeCluster (key 60), v0 (flexible; KIP-700): the cluster id, the controller and the
// brokers, which admin clients (librdkafka 2.3+ rd_kafka_DescribeCluster, Kafka's
// Admin.describeCluster) ask instead of Metadata. One node: this broker is all of them. Any
// authenticated user may describe the cluster (Kafka's Describe on the cluster); the operations
// it may do on it, if asked, follow its role.
#include "auth/role.h"
#include "broker/handlers/handler.h"

namespace floe::broker {
namespace {

// Kafka's AclOperation codes, as bits of cluster_authorized_operations.
constexpr int32_t Bit(int op) { return 1 << op; }
constexpr int32_t kCreate = 5, kAlter = 7, kDescribe = 8, kClusterAction = 9, kDescribeConfigs = 10, kAlterConfigs = 11,
                  kIdempotentWrite = 12;

}  // namespace

Status HandleDescribeCluster(RequestContext& ctx, WireReader& in, WireWriter& out) {
  FLOE_ASSIGN_OR_RETURN(bool include_operations, in.Bool("include_cluster_authorized_operations"));
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("DescribeCluster request"));
  const BrokerConfig& config = ctx.broker.config();
  int32_t operations = INT32_MIN;  // Kafka's "not asked".
  if (include_operations) {
    operations = Bit(kDescribe) | Bit(kDescribeConfigs) | Bit(kIdempotentWrite);
    if (auth::RoleOf(config.users, ctx.sasl.user) == auth::Role::kAdmin) {
      operations |= Bit(kCreate) | Bit(kAlter) | Bit(kClusterAction) | Bit(kAlterConfigs);
    }
  }
  out.Int32(0);  // throttle_time_ms
  out.Int16(Wire(ErrorCode::kNone));
  out.NullableString(std::nullopt);
  out.String(config.cluster_id);
  out.Int32(config.node_id);  // controller_id
  out.ArrayLength(1);
  out.Int32(config.node_id);
  out.String(ctx.broker.advertised().host);
  out.Int32(ctx.broker.advertised().port);
  out.NullableString(std::nullopt);  // rack
  out.TaggedFields();
  out.Int32(operations);
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker
