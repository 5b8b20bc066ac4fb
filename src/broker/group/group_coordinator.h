// Consumer groups: membership, the rebalance barrier (JoinGroup responses are held until every
// known member has rejoined or the rebalance timeout passed; SyncGroup followers wait for the
// leader's assignment), session timeouts, and committed offsets (through OffsetStore).
//
// Asynchronous answers are delivered through callbacks, so the coordinator knows nothing of
// the network; time advances only through Tick() and the injected Clock, so tests drive it
// without sleeping. Owned by the Broker; I/O thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "broker/group/offset_store.h"
#include "broker/protocol/error_code.h"

namespace floe::broker {

struct JoinRequest {
  std::string group_id;
  int32_t session_timeout_ms = 10000;
  int32_t rebalance_timeout_ms = 10000;
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string protocol_type;
  std::vector<std::pair<std::string, std::string>> protocols;  // name, metadata
  std::string client_id;
  std::string client_host;
};

struct JoinMember {
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string metadata;
};

struct JoinResult {
  ErrorCode error = ErrorCode::kNone;
  int32_t generation = -1;
  std::string protocol_type;
  std::string protocol_name;
  std::string leader;
  std::string member_id;
  std::vector<JoinMember> members;  // Only for the leader.
};

struct SyncResult {
  ErrorCode error = ErrorCode::kNone;
  std::string protocol_type;
  std::string protocol_name;
  std::string assignment;
};

struct GroupMemberDescription {
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string client_id;
  std::string client_host;
  std::string metadata;
  std::string assignment;
};

struct GroupDescription {
  ErrorCode error = ErrorCode::kNone;
  std::string group_id;
  std::string state;
  std::string protocol_type;
  std::string protocol_name;
  std::vector<GroupMemberDescription> members;
};

struct GroupCoordinatorOptions {
  int32_t min_session_timeout_ms = 1000;
  int32_t max_session_timeout_ms = 1800000;
  // How long the first rebalance of an empty group waits for more members.
  int32_t initial_rebalance_delay_ms = 0;
};

class GroupCoordinator {
 public:
  GroupCoordinator(GroupCoordinatorOptions options, Clock& clock, std::unique_ptr<OffsetStore> offsets);
  ~GroupCoordinator();

  using JoinCallback = std::function<void(const JoinResult&)>;
  using SyncCallback = std::function<void(const SyncResult&)>;

  void Join(const JoinRequest& request, JoinCallback done);
  void Sync(const std::string& group_id, int32_t generation, const std::string& member_id,
            const std::vector<std::pair<std::string, std::string>>& assignments, SyncCallback done);
  ErrorCode Heartbeat(const std::string& group_id, int32_t generation, const std::string& member_id);
  ErrorCode Leave(const std::string& group_id, const std::string& member_id);

  // Checks a commit's membership; generation -1 with no member is a standalone commit.
  ErrorCode CheckCommit(const std::string& group_id, int32_t generation, const std::string& member_id) const;
  OffsetStore& offsets() { return *offsets_; }

  std::vector<std::pair<std::string, std::string>> ListGroups() const;  // id, protocol type
  // DeleteGroups: forgets a group without members and its committed offsets. NON_EMPTY_GROUP
  // while it has members, GROUP_ID_NOT_FOUND when it has neither members nor offsets.
  ErrorCode DeleteGroup(const std::string& group_id);
  // OffsetDelete (KIP-496), checked before any offset is removed: GROUP_ID_NOT_FOUND for a group
  // with neither members nor offsets, NON_EMPTY_GROUP for a group with members that is not a
  // consumer group; else kNone.
  ErrorCode CheckOffsetDelete(const std::string& group_id) const;
  // Whether a member of the group subscribes to `topic` (its offsets then stay:
  // GROUP_SUBSCRIBED_TO_TOPIC). A subscription that does not parse counts as every topic.
  bool SubscribesTo(const std::string& group_id, std::string_view topic) const;
  GroupDescription Describe(const std::string& group_id) const;
  std::string StateName(const std::string& group_id) const;

  // Completes rebalances whose time is up and expires members whose session lapsed.
  void Tick();

 private:
  struct Group;
  struct Member;

  Group& GetOrCreate(const std::string& group_id);
  void PrepareRebalance(Group& group);
  void MaybeCompleteJoin(Group& group);
  void CompleteJoin(Group& group);
  void RemoveMember(Group& group, const std::string& member_id, ErrorCode pending_error);

  GroupCoordinatorOptions options_;
  Clock& clock_;
  std::unique_ptr<OffsetStore> offsets_;
  std::map<std::string, std::unique_ptr<Group>> groups_;
  uint64_t next_member_ = 1;
};

}  // namespace floe::broker
