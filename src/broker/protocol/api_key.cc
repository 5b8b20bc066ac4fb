#include "broker/protocol/api_key.h"

#include <array>

namespace floe::broker {
namespace {

// Produce starts at 3 and Fetch at 4: older versions carry the v0/v1 message formats, which
// floe does not store (every batch is RecordBatch v2). Produce is listed from 0 all the same:
// librdkafka up to 2.x compresses with gzip, snappy or lz4 only when the broker lists Produce
// v0 (it meets the same with Kafka 4.0, which dropped v0-2 too), and otherwise sends every
// batch uncompressed. A v0-2 request still gets UNSUPPORTED_VERSION.
constexpr std::array<ApiSupport, 31> kApis = {{
    {ApiKey::kProduce, "Produce", 3, 7, 9, 0},
    {ApiKey::kFetch, "Fetch", 4, 11, 12},
    {ApiKey::kListOffsets, "ListOffsets", 0, 5, 6},
    {ApiKey::kMetadata, "Metadata", 0, 8, 9},
    {ApiKey::kOffsetCommit, "OffsetCommit", 0, 7, 8},
    {ApiKey::kOffsetFetch, "OffsetFetch", 0, 5, 6},
    {ApiKey::kFindCoordinator, "FindCoordinator", 0, 2, 3},
    {ApiKey::kJoinGroup, "JoinGroup", 0, 5, 6},
    {ApiKey::kHeartbeat, "Heartbeat", 0, 3, 4},
    {ApiKey::kLeaveGroup, "LeaveGroup", 0, 3, 4},
    {ApiKey::kSyncGroup, "SyncGroup", 0, 3, 4},
    {ApiKey::kDescribeGroups, "DescribeGroups", 0, 4, 5},
    {ApiKey::kListGroups, "ListGroups", 0, 2, 3},
    // Clients look for v0 to know SASL is there, then use v1 (tokens in SaslAuthenticate
    // requests); a v0 client's unframed tokens fail as a bad frame. Never flexible.
    {ApiKey::kSaslHandshake, "SaslHandshake", 0, 1, 32767},
    {ApiKey::kApiVersions, "ApiVersions", 0, 3, 3},
    {ApiKey::kCreateTopics, "CreateTopics", 0, 4, 5},
    {ApiKey::kDeleteTopics, "DeleteTopics", 0, 3, 4},
    {ApiKey::kDeleteRecords, "DeleteRecords", 0, 1, 2},
    {ApiKey::kInitProducerId, "InitProducerId", 0, 4, 2},
    {ApiKey::kAddPartitionsToTxn, "AddPartitionsToTxn", 0, 3, 3},
    {ApiKey::kAddOffsetsToTxn, "AddOffsetsToTxn", 0, 3, 3},
    {ApiKey::kEndTxn, "EndTxn", 0, 3, 3},
    {ApiKey::kTxnOffsetCommit, "TxnOffsetCommit", 0, 3, 3},
    {ApiKey::kDescribeConfigs, "DescribeConfigs", 0, 3, 4},
    {ApiKey::kAlterConfigs, "AlterConfigs", 0, 1, 2},
    {ApiKey::kSaslAuthenticate, "SaslAuthenticate", 0, 1, 2},
    {ApiKey::kCreatePartitions, "CreatePartitions", 0, 1, 2},
    {ApiKey::kDeleteGroups, "DeleteGroups", 0, 1, 2},
    {ApiKey::kIncrementalAlterConfigs, "IncrementalAlterConfigs", 0, 1, 1},
    {ApiKey::kOffsetDelete, "OffsetDelete", 0, 0, 32767},  // never flexible
    {ApiKey::kDescribeCluster, "DescribeCluster", 0, 0, 0},
}};

}  // namespace

std::span<const ApiSupport> SupportedApis() { return kApis; }

std::optional<ApiSupport> FindApi(int16_t key) {
  for (const ApiSupport& api : kApis) {
    if (static_cast<int16_t>(api.key) == key) return api;
  }
  return std::nullopt;
}

}  // namespace floe::broker
