// The request handlers, one per Kafka API (handlers/<api>.cc), and what they are given.
//
// A handler decodes its request body with the version-aware WireReader and writes its response
// body with WireWriter. A decoding error closes the connection (the frame cannot be trusted);
// protocol-level problems (unknown topic, stale generation) are Kafka error codes in the
// response. Handlers run on the I/O thread; those that wait (Produce for acks=all, Fetch long
// polls, JoinGroup and SyncGroup barriers) are coroutines.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.
#include <boost/asio/awaitable.hpp>

#include "auth/authorize.h"
#include "auth/scram.h"
#include "base/result.h"
#include "broker/protocol/error_code.h"
#include "broker/protocol/request_header.h"
#include "broker/protocol/wire.h"
#include "broker/server/broker.h"

namespace floe::broker {

// Bytes of a segment file that belong in the response at byte `at` of the encoded body: the
// connection sends them with sendfile instead of copying them through the response.
struct ResponseRegion {
  size_t at = 0;
  FileRegion region;
};

// A connection's SASL progress. With users configured (BrokerConfig::users), every request
// but ApiVersions, SaslHandshake and SaslAuthenticate closes the connection until the client
// has authenticated, as Kafka does.
struct SaslState {
  bool authenticated = false;
  std::string mechanism;  // Chosen by SaslHandshake: "PLAIN" or "SCRAM-SHA-256".
  std::string user;       // Once authenticated.
  std::unique_ptr<auth::ScramExchange> scram;  // Between SCRAM's two client messages.
};

struct RequestContext {
  Broker& broker;
  const RequestHeader& header;
  std::string& frame;  // The request's bytes; Produce stamps offsets into them in place.
  const std::string& client_host;
  SaslState& sasl;
  bool send_response = true;
  bool close_after_response = false;  // A failed authentication: answer, then hang up.
  std::vector<ResponseRegion> regions;  // In increasing `at` order.

  int16_t version() const { return header.api_version; }
  // Whether the authenticated user may do `operation` on the topic or group (auth/authorize.h:
  // its role and grants; always, without users). A refusal is TOPIC_AUTHORIZATION_FAILED or
  // GROUP_AUTHORIZATION_FAILED, as Kafka's ACLs answer.
  bool AllowsTopic(std::string_view topic, auth::Operation operation) const {
    return auth::Authorize(broker.config().users, sasl.user, {auth::ResourceKind::kTopic, topic}, operation);
  }
  // Kafka's Describe on a topic, which Read, Write, Delete and Alter each imply: whether the user
  // may learn that the topic exists, its partitions and offsets (Metadata, ListOffsets,
  // DescribeConfigs, OffsetFetch).
  bool MayDescribeTopic(std::string_view topic) const {
    for (auth::Operation operation : {auth::Operation::kRead, auth::Operation::kWrite, auth::Operation::kDelete,
                                      auth::Operation::kAlter}) {
      if (AllowsTopic(topic, operation)) return true;
    }
    return false;
  }
  bool AllowsGroup(std::string_view group, auth::Operation operation) const {
    return auth::Authorize(broker.config().users, sasl.user, {auth::ResourceKind::kGroup, group}, operation);
  }
  char* Mutable(std::string_view view) { return frame.data() + (view.data() - frame.data()); }
};

using boost::asio::awaitable;

// Routes a parsed request to its handler.
awaitable<Status> Dispatch(RequestContext& ctx, WireReader& in, WireWriter& out);
// The ApiVersions answer in v0 format for a version the broker does not know (KIP-511).
void WriteApiVersionsFallback(WireWriter& out);

awaitable<Status> HandleProduce(RequestContext& ctx, WireReader& in, WireWriter& out);
awaitable<Status> HandleFetch(RequestContext& ctx, WireReader& in, WireWriter& out);
awaitable<Status> HandleJoinGroup(RequestContext& ctx, WireReader& in, WireWriter& out);
awaitable<Status> HandleSyncGroup(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleApiVersions(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleMetadata(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleListOffsets(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleFindCoordinator(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleHeartbeat(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleLeaveGroup(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleOffsetCommit(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleOffsetFetch(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleDescribeGroups(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleListGroups(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleCreateTopics(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleDeleteTopics(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleDeleteGroups(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleOffsetDelete(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleCreatePartitions(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleInitProducerId(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleAddPartitionsToTxn(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleAddOffsetsToTxn(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleEndTxn(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleTxnOffsetCommit(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleDescribeConfigs(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleAlterConfigs(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleIncrementalAlterConfigs(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleDeleteRecords(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleDescribeCluster(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleSaslHandshake(RequestContext& ctx, WireReader& in, WireWriter& out);
Status HandleSaslAuthenticate(RequestContext& ctx, WireReader& in, WireWriter& out);

}  // namespace floe::broker
