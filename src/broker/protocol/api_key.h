// The Kafka APIs floe's broker implements and the exact version range of each: the ApiVersions
// response advertises this table and the dispatcher rejects anything outside it. A version is
// "flexible" (compact encodings, tagged fields, request header v2, response header v1) from the
// threshold each API's message schema gives.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace floe::broker {

enum class ApiKey : int16_t {
  kProduce = 0,
  kFetch = 1,
  kListOffsets = 2,
  kMetadata = 3,
  kOffsetCommit = 8,
  kOffsetFetch = 9,
  kFindCoordinator = 10,
  kJoinGroup = 11,
  kHeartbeat = 12,
  kLeaveGroup = 13,
  kSyncGroup = 14,
  kDescribeGroups = 15,
  kListGroups = 16,
  kSaslHandshake = 17,
  kApiVersions = 18,
  kCreateTopics = 19,
  kDeleteTopics = 20,
  kDeleteRecords = 21,
  kInitProducerId = 22,
  kAddPartitionsToTxn = 24,
  kAddOffsetsToTxn = 25,
  kEndTxn = 26,
  kTxnOffsetCommit = 28,
  kDescribeConfigs = 32,
  kAlterConfigs = 33,
  kSaslAuthenticate = 36,
  kCreatePartitions = 37,
  kDeleteGroups = 42,
  kIncrementalAlterConfigs = 44,
  kOffsetDelete = 47,
  kDescribeCluster = 60,
};

struct ApiSupport {
  ApiKey key;
  std::string_view name;
  int16_t min_version;
  int16_t max_version;
  int16_t first_flexible_version;  // From the API's schema; may exceed max_version.
  // The lowest version ApiVersions lists, when lower than min_version (-1: min_version). A
  // request below min_version is still UNSUPPORTED_VERSION.
  int16_t advertised_min_version = -1;

  int16_t AdvertisedMinVersion() const { return advertised_min_version >= 0 ? advertised_min_version : min_version; }
};

// Every implemented API, ordered by key.
std::span<const ApiSupport> SupportedApis();

// The entry for `key`, or nullopt when the broker does not implement that API.
std::optional<ApiSupport> FindApi(int16_t key);

inline bool IsFlexible(const ApiSupport& api, int16_t version) { return version >= api.first_flexible_version; }

}  // namespace floe::broker
