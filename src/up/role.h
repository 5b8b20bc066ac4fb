// Role: one box of the pipeline that `floe up` runs (broker, catalog, stream job, query
// server, generator), started and stopped by the Pipeline.
//
// Start returns once the role serves (ports bound, threads running) or with the reason it
// cannot; Stop blocks until the role's threads have finished. Both are called from the
// pipeline's thread only.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::up {

class Role {
 public:
  virtual ~Role() = default;
  virtual std::string_view name() const = 0;
  // Where it runs, for the start-up table: "Kafka protocol on 127.0.0.1:9092".
  virtual std::string Describe() const = 0;
  virtual Status Start() = 0;
  virtual void Stop() = 0;
};

}  // namespace floe::up
