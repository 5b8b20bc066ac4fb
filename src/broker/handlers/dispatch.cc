#include "broker/handlers/handler.h"

namespace floe::broker {

awaitable<Status> Dispatch(RequestContext& ctx, WireReader& in, WireWriter& out) {
  switch (static_cast<ApiKey>(ctx.header.api_key)) {
    case ApiKey::kProduce: co_return co_await HandleProduce(ctx, in, out);
    case ApiKey::kFetch: co_return co_await HandleFetch(ctx, in, out);
    case ApiKey::kJoinGroup: co_return co_await HandleJoinGroup(ctx, in, out);
    case ApiKey::kSyncGroup: co_return co_await HandleSyncGroup(ctx, in, out);
    case ApiKey::kApiVersions: co_return HandleApiVersions(ctx, in, out);
    case ApiKey::kMetadata: co_return HandleMetadata(ctx, in, out);
    case ApiKey::kListOffsets: co_return HandleListOffsets(ctx, in, out);
    case ApiKey::kFindCoordinator: co_return HandleFindCoordinator(ctx, in, out);
    case ApiKey::kHeartbeat: co_return HandleHeartbeat(ctx, in, out);
    case ApiKey::kLeaveGroup: co_return HandleLeaveGroup(ctx, in, out);
    case ApiKey::kOffsetCommit: co_return HandleOffsetCommit(ctx, in, out);
    case ApiKey::kOffsetFetch: co_return HandleOffsetFetch(ctx, in, out);
    case ApiKey::kDescribeGroups: co_return HandleDescribeGroups(ctx, in, out);
    case ApiKey::kListGroups: co_return HandleListGroups(ctx, in, out);
    case ApiKey::kCreateTopics: co_return HandleCreateTopics(ctx, in, out);
    case ApiKey::kDeleteTopics: co_return HandleDeleteTopics(ctx, in, out);
    case ApiKey::kDeleteGroups: co_return HandleDeleteGroups(ctx, in, out);
    case ApiKey::kOffsetDelete:
      co_return HandleOffsetDelete(ctx, in, out);
    case ApiKey::kCreatePartitions: co_return HandleCreatePartitions(ctx, in, out);
    case ApiKey::kInitProducerId: co_return HandleInitProducerId(ctx, in, out);
    case ApiKey::kAddPartitionsToTxn: co_return HandleAddPartitionsToTxn(ctx, in, out);
    case ApiKey::kAddOffsetsToTxn: co_return HandleAddOffsetsToTxn(ctx, in, out);
    case ApiKey::kEndTxn: co_return HandleEndTxn(ctx, in, out);
    case ApiKey::kTxnOffsetCommit: co_return HandleTxnOffsetCommit(ctx, in, out);
    case ApiKey::kDescribeConfigs: co_return HandleDescribeConfigs(ctx, in, out);
    case ApiKey::kAlterConfigs:
      co_return HandleAlterConfigs(ctx, in, out);
    case ApiKey::kIncrementalAlterConfigs:
      co_return HandleIncrementalAlterConfigs(ctx, in, out);
    case ApiKey::kDeleteRecords:
      co_return HandleDeleteRecords(ctx, in, out);
    case ApiKey::kDescribeCluster:
      co_return HandleDescribeCluster(ctx, in, out);
    case ApiKey::kSaslHandshake: co_return HandleSaslHandshake(ctx, in, out);
    case ApiKey::kSaslAuthenticate: co_return HandleSaslAuthenticate(ctx, in, out);
  }
  co_return NotImplemented("API key {}", ctx.header.api_key);
}

}  // namespace floe::broker
