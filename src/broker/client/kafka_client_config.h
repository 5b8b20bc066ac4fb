// KafkaClientConfig: the librdkafka configuration every Kafka client floe makes starts from
// (the stream job's consumer, the generator's producer, `floe topic`, fresh reads' tail
// consumer, the console's probe), so that one file secures them all.
//
// The file is named by the environment variable FLOE_KAFKA_CLIENT_CONFIG and holds librdkafka
// properties, one `key=value` per line (`#` comments), e.g. security.protocol,
// sasl.mechanism, sasl.username, sasl.password, ssl.ca.location: what a Kafka user passes as a
// client.properties file. An environment variable rather than a flag on every command because
// `floe up` starts clients in its own process and as children, and the credentials must not
// appear on a command line (ps shows those to every user). Any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

struct rd_kafka_conf_s;

namespace floe::broker {

using KafkaSettings = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::string_view kKafkaClientConfigVariable = "FLOE_KAFKA_CLIENT_CONFIG";

// Parses `key=value` lines; `source` names the text in errors (with its line number).
Result<KafkaSettings> ParseKafkaProperties(std::string_view text, std::string_view source);

// The settings of the file FLOE_KAFKA_CLIENT_CONFIG names; none when it is unset or empty.
Result<KafkaSettings> KafkaSettingsFromEnvironment();

// A new librdkafka configuration: `defaults`, then the environment's file, then `overrides`
// (a later setting of a key wins). `client` says whose configuration it is in errors. The
// caller owns the result (rd_kafka_new takes it, or rd_kafka_conf_destroy).
Result<rd_kafka_conf_s*> MakeKafkaConf(const KafkaSettings& defaults, const KafkaSettings& overrides,
                                       std::string_view client);

}  // namespace floe::broker
