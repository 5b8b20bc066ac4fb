// ReadFirstRecordValue: the value of the oldest record the topic still holds (the first
// partition with one), read outside any consumer group. How `floe stream --format avro` learns
// the writer's schema of a table it must create: from the first record's schema id.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <string>

#include "base/result.h"

namespace floe::stream {

// Waits up to `wait` for a record to arrive (checking `*stop`, when given, meanwhile); NotFound
// when the topic has none by then, Unavailable when the broker cannot be asked.
Result<std::string> ReadFirstRecordValue(const std::string& brokers, const std::string& topic,
                                         const std::map<std::string, std::string>& consumer_config,
                                         std::chrono::milliseconds wait, const std::atomic<bool>* stop);

}  // namespace floe::stream
