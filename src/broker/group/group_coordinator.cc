#include "broker/group/group_coordinator.h"

#include <algorithm>

#include "base/logging.h"
#include "broker/protocol/wire.h"

namespace floe::broker {

enum class GroupState { kEmpty, kPreparingRebalance, kCompletingRebalance, kStable };

namespace {
std::string_view Name(GroupState state) {
  switch (state) {
    case GroupState::kEmpty: return "Empty";
    case GroupState::kPreparingRebalance: return "PreparingRebalance";
    case GroupState::kCompletingRebalance: return "CompletingRebalance";
    case GroupState::kStable: return "Stable";
  }
  return "Dead";
}
}  // namespace

struct GroupCoordinator::Member {
  std::string id;
  std::optional<std::string> instance_id;
  std::string client_id;
  std::string client_host;
  std::string protocol_type;
  std::vector<std::pair<std::string, std::string>> protocols;
  int32_t session_timeout_ms = 0;
  int32_t rebalance_timeout_ms = 0;
  int64_t last_heard_ms = 0;
  JoinCallback join_done;
  SyncCallback sync_done;
  std::string assignment;
};

struct GroupCoordinator::Group {
  std::string id;
  GroupState state = GroupState::kEmpty;
  int32_t generation = 0;
  std::string protocol_type;
  std::string protocol_name;
  std::string leader;
  std::vector<std::unique_ptr<Member>> members;  // In join order: the first is the default leader.
  int64_t rebalance_deadline_ms = 0;
  int64_t initial_delay_until_ms = 0;

  Member* Find(const std::string& member_id) {
    for (auto& m : members) {
      if (m->id == member_id) return m.get();
    }
    return nullptr;
  }
};

GroupCoordinator::GroupCoordinator(GroupCoordinatorOptions options, Clock& clock, std::unique_ptr<OffsetStore> offsets)
    : options_(options), clock_(clock), offsets_(std::move(offsets)) {}

GroupCoordinator::~GroupCoordinator() = default;

GroupCoordinator::Group& GroupCoordinator::GetOrCreate(const std::string& group_id) {
  auto& slot = groups_[group_id];
  if (!slot) {
    slot = std::make_unique<Group>();
    slot->id = group_id;
  }
  return *slot;
}

void GroupCoordinator::Join(const JoinRequest& request, JoinCallback done) {
  JoinResult error_result;
  error_result.member_id = request.member_id;
  if (request.group_id.empty()) {
    error_result.error = ErrorCode::kInvalidGroupId;
    return done(error_result);
  }
  if (request.session_timeout_ms < options_.min_session_timeout_ms ||
      request.session_timeout_ms > options_.max_session_timeout_ms) {
    error_result.error = ErrorCode::kInvalidSessionTimeout;
    return done(error_result);
  }
  Group& group = GetOrCreate(request.group_id);
  if (!group.members.empty()) {
    bool common = false;
    for (const auto& [name, metadata] : request.protocols) {
      bool everyone = std::all_of(group.members.begin(), group.members.end(), [&](const auto& m) {
        return m->id == request.member_id ||
               std::any_of(m->protocols.begin(), m->protocols.end(), [&](const auto& p) { return p.first == name; });
      });
      common = common || everyone;
    }
    if (request.protocol_type != group.protocol_type || !common) {
      error_result.error = ErrorCode::kInconsistentGroupProtocol;
      return done(error_result);
    }
  }
  Member* member = nullptr;
  if (request.member_id.empty()) {
    auto fresh = std::make_unique<Member>();
    fresh->id = fmt::format("{}-{}-{}", request.client_id.empty() ? "member" : request.client_id, next_member_++,
                            clock_.MonotonicNanos() % 1000000007);
    member = fresh.get();
    group.members.push_back(std::move(fresh));
  } else {
    member = group.Find(request.member_id);
    if (!member) {
      error_result.error = ErrorCode::kUnknownMemberId;
      return done(error_result);
    }
  }
  if (member->join_done) {
    // A retried join replaces the earlier one, which is told to rejoin.
    JoinResult superseded;
    superseded.error = ErrorCode::kRebalanceInProgress;
    superseded.member_id = member->id;
    std::exchange(member->join_done, nullptr)(superseded);
  }
  member->instance_id = request.group_instance_id;
  member->client_id = request.client_id;
  member->client_host = request.client_host;
  member->protocol_type = request.protocol_type;
  member->protocols = request.protocols;
  member->session_timeout_ms = request.session_timeout_ms;
  member->rebalance_timeout_ms = request.rebalance_timeout_ms > 0 ? request.rebalance_timeout_ms : request.session_timeout_ms;
  member->last_heard_ms = clock_.NowMillis();
  member->join_done = std::move(done);
  group.protocol_type = request.protocol_type;
  if (group.state != GroupState::kPreparingRebalance) {
    if (group.state == GroupState::kEmpty) {
      group.initial_delay_until_ms = clock_.NowMillis() + options_.initial_rebalance_delay_ms;
    }
    PrepareRebalance(group);
  }
  MaybeCompleteJoin(group);
}

void GroupCoordinator::PrepareRebalance(Group& group) {
  group.state = GroupState::kPreparingRebalance;
  int32_t timeout = 0;
  for (auto& m : group.members) timeout = std::max(timeout, m->rebalance_timeout_ms);
  group.rebalance_deadline_ms = clock_.NowMillis() + timeout;
  SyncResult rebalance;
  rebalance.error = ErrorCode::kRebalanceInProgress;
  for (auto& m : group.members) {
    if (m->sync_done) std::exchange(m->sync_done, nullptr)(rebalance);
  }
}

void GroupCoordinator::MaybeCompleteJoin(Group& group) {
  if (group.state != GroupState::kPreparingRebalance) return;
  if (clock_.NowMillis() < group.initial_delay_until_ms) return;
  bool all_joined = std::all_of(group.members.begin(), group.members.end(), [](const auto& m) { return bool(m->join_done); });
  if (all_joined) CompleteJoin(group);
}

void GroupCoordinator::CompleteJoin(Group& group) {
  // Members that did not rejoin in time are out.
  std::vector<std::string> missing;
  for (auto& m : group.members) {
    if (!m->join_done) missing.push_back(m->id);
  }
  for (const auto& id : missing) RemoveMember(group, id, ErrorCode::kUnknownMemberId);
  ++group.generation;
  if (group.members.empty()) {
    group.state = GroupState::kEmpty;
    group.leader.clear();
    group.protocol_name.clear();
    return;
  }
  if (!group.Find(group.leader)) group.leader = group.members.front()->id;
  // The first protocol of the leader's preference list that every member supports.
  group.protocol_name.clear();
  for (const auto& [name, metadata] : group.Find(group.leader)->protocols) {
    bool everyone = std::all_of(group.members.begin(), group.members.end(), [&](const auto& m) {
      return std::any_of(m->protocols.begin(), m->protocols.end(), [&](const auto& p) { return p.first == name; });
    });
    if (everyone) {
      group.protocol_name = name;
      break;
    }
  }
  group.state = GroupState::kCompletingRebalance;
  int64_t now = clock_.NowMillis();
  std::vector<JoinMember> all;
  for (auto& m : group.members) {
    std::string metadata;
    for (const auto& [name, bytes] : m->protocols) {
      if (name == group.protocol_name) metadata = bytes;
    }
    all.push_back({m->id, m->instance_id, metadata});
  }
  Logger("broker")->info("group {} generation {}: {} members, protocol {}, leader {}", group.id, group.generation,
                         group.members.size(), group.protocol_name, group.leader);
  for (auto& m : group.members) {
    m->last_heard_ms = now;
    m->assignment.clear();
    JoinResult result;
    result.generation = group.generation;
    result.protocol_type = group.protocol_type;
    result.protocol_name = group.protocol_name;
    result.leader = group.leader;
    result.member_id = m->id;
    if (m->id == group.leader) result.members = all;
    std::exchange(m->join_done, nullptr)(result);
  }
}

void GroupCoordinator::RemoveMember(Group& group, const std::string& member_id, ErrorCode pending_error) {
  auto it = std::find_if(group.members.begin(), group.members.end(), [&](const auto& m) { return m->id == member_id; });
  if (it == group.members.end()) return;
  std::unique_ptr<Member> member = std::move(*it);
  group.members.erase(it);
  if (member->join_done) {
    JoinResult result;
    result.error = pending_error;
    result.member_id = member->id;
    member->join_done(result);
  }
  if (member->sync_done) {
    SyncResult result;
    result.error = pending_error;
    member->sync_done(result);
  }
}

void GroupCoordinator::Sync(const std::string& group_id, int32_t generation, const std::string& member_id,
                            const std::vector<std::pair<std::string, std::string>>& assignments, SyncCallback done) {
  SyncResult result;
  auto it = groups_.find(group_id);
  Member* member = it == groups_.end() ? nullptr : it->second->Find(member_id);
  if (!member) {
    result.error = ErrorCode::kUnknownMemberId;
    return done(result);
  }
  Group& group = *it->second;
  if (generation != group.generation) {
    result.error = ErrorCode::kIllegalGeneration;
    return done(result);
  }
  result.protocol_type = group.protocol_type;
  result.protocol_name = group.protocol_name;
  member->last_heard_ms = clock_.NowMillis();
  switch (group.state) {
    case GroupState::kEmpty:
      result.error = ErrorCode::kUnknownMemberId;
      return done(result);
    case GroupState::kPreparingRebalance:
      result.error = ErrorCode::kRebalanceInProgress;
      return done(result);
    case GroupState::kStable:
      result.assignment = member->assignment;
      return done(result);
    case GroupState::kCompletingRebalance:
      break;
  }
  if (member->sync_done) {
    SyncResult superseded;
    superseded.error = ErrorCode::kRebalanceInProgress;
    std::exchange(member->sync_done, nullptr)(superseded);
  }
  member->sync_done = std::move(done);
  if (member_id != group.leader) return;
  for (const auto& [id, assignment] : assignments) {
    if (Member* m = group.Find(id)) m->assignment = assignment;
  }
  group.state = GroupState::kStable;
  for (auto& m : group.members) {
    if (!m->sync_done) continue;
    SyncResult answer = result;
    answer.assignment = m->assignment;
    std::exchange(m->sync_done, nullptr)(answer);
  }
}

ErrorCode GroupCoordinator::Heartbeat(const std::string& group_id, int32_t generation, const std::string& member_id) {
  auto it = groups_.find(group_id);
  Member* member = it == groups_.end() ? nullptr : it->second->Find(member_id);
  if (!member) return ErrorCode::kUnknownMemberId;
  Group& group = *it->second;
  member->last_heard_ms = clock_.NowMillis();
  if (group.state == GroupState::kPreparingRebalance) return ErrorCode::kRebalanceInProgress;
  if (generation != group.generation) return ErrorCode::kIllegalGeneration;
  return ErrorCode::kNone;
}

ErrorCode GroupCoordinator::Leave(const std::string& group_id, const std::string& member_id) {
  auto it = groups_.find(group_id);
  if (it == groups_.end() || !it->second->Find(member_id)) return ErrorCode::kUnknownMemberId;
  Group& group = *it->second;
  RemoveMember(group, member_id, ErrorCode::kUnknownMemberId);
  Logger("broker")->info("group {}: member {} left", group_id, member_id);
  if (group.members.empty()) {
    group.state = GroupState::kEmpty;
    ++group.generation;
    return ErrorCode::kNone;
  }
  if (group.state == GroupState::kPreparingRebalance) {
    MaybeCompleteJoin(group);
  } else {
    PrepareRebalance(group);
  }
  return ErrorCode::kNone;
}

ErrorCode GroupCoordinator::CheckCommit(const std::string& group_id, int32_t generation,
                                        const std::string& member_id) const {
  if (group_id.empty()) return ErrorCode::kInvalidGroupId;
  auto it = groups_.find(group_id);
  if (generation < 0 && member_id.empty()) {
    // Standalone commits are refused only while a live group owns the id.
    if (it != groups_.end() && !it->second->members.empty()) return ErrorCode::kUnknownMemberId;
    return ErrorCode::kNone;
  }
  Member* member = it == groups_.end() ? nullptr : it->second->Find(member_id);
  if (!member) return ErrorCode::kUnknownMemberId;
  if (generation != it->second->generation) return ErrorCode::kIllegalGeneration;
  if (it->second->state == GroupState::kCompletingRebalance) return ErrorCode::kRebalanceInProgress;
  member->last_heard_ms = clock_.NowMillis();
  return ErrorCode::kNone;
}

std::vector<std::pair<std::string, std::string>> GroupCoordinator::ListGroups() const {
  std::map<std::string, std::string> out;
  for (const auto& id : offsets_->Groups()) out[id] = "consumer";
  for (const auto& [id, group] : groups_) out[id] = group->protocol_type;
  return {out.begin(), out.end()};
}

ErrorCode GroupCoordinator::DeleteGroup(const std::string& group_id) {
  auto it = groups_.find(group_id);
  bool known = it != groups_.end() || !offsets_->ForGroup(group_id).empty();
  if (!known) return ErrorCode::kGroupIdNotFound;
  if (it != groups_.end() && !it->second->members.empty()) return ErrorCode::kNonEmptyGroup;
  if (!offsets_->RemoveGroup(group_id).has_value()) return ErrorCode::kKafkaStorageError;
  if (it != groups_.end()) groups_.erase(it);
  return ErrorCode::kNone;
}

ErrorCode GroupCoordinator::CheckOffsetDelete(const std::string& group_id) const {
  auto it = groups_.find(group_id);
  const bool has_members = it != groups_.end() && !it->second->members.empty();
  if (!has_members && offsets_->ForGroup(group_id).empty()) return ErrorCode::kGroupIdNotFound;
  if (has_members && it->second->protocol_type != "consumer") return ErrorCode::kNonEmptyGroup;
  return ErrorCode::kNone;
}

namespace {

// The topics of a ConsumerProtocolSubscription (every version starts with int16 version and an
// array of topic names; never flexible), or nullopt when the bytes are not one.
std::optional<std::vector<std::string>> SubscribedTopics(std::string_view metadata) {
  WireReader in(metadata, false);
  if (!in.Int16("version")) return std::nullopt;
  auto count = in.ArrayLength("topics", 2);
  if (!count) return std::nullopt;
  std::vector<std::string> topics;
  for (int32_t i = 0; i < *count; ++i) {
    auto topic = in.String("topic");
    if (!topic) return std::nullopt;
    topics.emplace_back(*topic);
  }
  return topics;
}

}  // namespace

bool GroupCoordinator::SubscribesTo(const std::string& group_id, std::string_view topic) const {
  auto it = groups_.find(group_id);
  if (it == groups_.end()) return false;
  const Group& group = *it->second;
  for (const auto& member : group.members) {
    for (const auto& [name, metadata] : member->protocols) {
      // Before the first rebalance completes no protocol is chosen: every offered one counts.
      if (!group.protocol_name.empty() && name != group.protocol_name) continue;
      auto topics = SubscribedTopics(metadata);
      if (!topics || std::find(topics->begin(), topics->end(), topic) != topics->end()) return true;
    }
  }
  return false;
}

std::string GroupCoordinator::StateName(const std::string& group_id) const {
  auto it = groups_.find(group_id);
  if (it == groups_.end()) return offsets_->ForGroup(group_id).empty() ? "Dead" : "Empty";
  return std::string(Name(it->second->state));
}

GroupDescription GroupCoordinator::Describe(const std::string& group_id) const {
  GroupDescription d;
  d.group_id = group_id;
  d.state = StateName(group_id);
  auto it = groups_.find(group_id);
  if (it == groups_.end()) return d;
  const Group& group = *it->second;
  d.protocol_type = group.protocol_type;
  d.protocol_name = group.state == GroupState::kStable ? group.protocol_name : "";
  for (const auto& m : group.members) {
    GroupMemberDescription md{m->id, m->instance_id, m->client_id, m->client_host, "", m->assignment};
    for (const auto& [name, bytes] : m->protocols) {
      if (name == group.protocol_name) md.metadata = bytes;
    }
    d.members.push_back(std::move(md));
  }
  return d;
}

void GroupCoordinator::Tick() {
  int64_t now = clock_.NowMillis();
  for (auto& [id, group] : groups_) {
    if (group->state == GroupState::kPreparingRebalance) {
      // A member that has not rejoined and whose session expired is dead (killed, say): it
      // must not hold the rebalance until the rebalance timeout (max.poll.interval.ms, often
      // five minutes), as Kafka's coordinator also drops it on its session timeout.
      std::vector<std::string> dead;
      for (const auto& m : group->members) {
        if (!m->join_done && now - m->last_heard_ms > m->session_timeout_ms) dead.push_back(m->id);
      }
      for (const auto& member_id : dead) {
        Logger("broker")->info("group {}: member {} session expired during a rebalance", id, member_id);
        RemoveMember(*group, member_id, ErrorCode::kUnknownMemberId);
      }
      if (now >= group->rebalance_deadline_ms && now >= group->initial_delay_until_ms) {
        CompleteJoin(*group);
      } else {
        MaybeCompleteJoin(*group);
      }
      continue;
    }
    std::vector<std::string> expired;
    for (const auto& m : group->members) {
      if (!m->join_done && now - m->last_heard_ms > m->session_timeout_ms) expired.push_back(m->id);
    }
    if (expired.empty()) continue;
    for (const auto& member_id : expired) {
      Logger("broker")->info("group {}: member {} session expired", id, member_id);
      RemoveMember(*group, member_id, ErrorCode::kUnknownMemberId);
    }
    if (group->members.empty()) {
      group->state = GroupState::kEmpty;
      ++group->generation;
    } else {
      PrepareRebalance(*group);
    }
  }
}

}  // namespace floe::broker
