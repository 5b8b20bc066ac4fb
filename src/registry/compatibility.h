// Schema compatibility as the registry's compatibility levels define it, for Avro by the Avro
// specification's schema-resolution rules: a reader schema can read data written with a writer
// schema when every reader field the writer lacks has a default, removed fields are dropped,
// int->long->float->double and string<->bytes promote, enums keep the writer's symbols (or the
// reader has a default symbol), and unions resolve branch by branch. Stateless; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/avro/avro_schema.h"

namespace floe::registry {

enum class CompatibilityLevel {
  kNone,
  kBackward,
  kBackwardTransitive,
  kForward,
  kForwardTransitive,
  kFull,
  kFullTransitive,
};

std::optional<CompatibilityLevel> ParseCompatibilityLevel(std::string_view text);
std::string_view CompatibilityLevelName(CompatibilityLevel level);

// Why `reader` cannot read what `writer` wrote, one message per problem; empty when it can.
std::vector<std::string> AvroReadProblems(const avro::AvroNode& reader, const avro::AvroNode& writer);

// The problems of registering `candidate` under `level` after `existing` (oldest first; the
// last is the latest version). BACKWARD: the candidate reads the latest; FORWARD: the latest
// reads the candidate; FULL: both; the transitive levels against every existing version.
std::vector<std::string> AvroCompatibilityProblems(CompatibilityLevel level, const avro::AvroNode& candidate,
                                                   const std::vector<const avro::AvroNode*>& existing);

}  // namespace floe::registry
