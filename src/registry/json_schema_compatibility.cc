#include "registry/json_schema_compatibility.h"

#include <fmt/format.h>

#include "formats/json_schema/json_schema_compatibility.h"

namespace floe::registry {

std::vector<std::string> JsonSchemaCompatibilityProblems(CompatibilityLevel level,
                                                         const json_schema::JsonSchema& candidate,
                                                         const std::vector<const json_schema::JsonSchema*>& existing) {
  std::vector<std::string> problems;
  if (level == CompatibilityLevel::kNone || existing.empty()) return problems;
  const bool transitive = level == CompatibilityLevel::kBackwardTransitive ||
                          level == CompatibilityLevel::kForwardTransitive ||
                          level == CompatibilityLevel::kFullTransitive;
  const bool backward = level != CompatibilityLevel::kForward && level != CompatibilityLevel::kForwardTransitive;
  const bool forward = level != CompatibilityLevel::kBackward && level != CompatibilityLevel::kBackwardTransitive;
  const size_t first = transitive ? 0 : existing.size() - 1;
  for (size_t i = existing.size(); i-- > first;) {
    auto add = [&](std::vector<std::string> found, std::string_view direction) {
      for (std::string& problem : found) {
        problems.push_back(fmt::format("{} (existing schema {} of {}, {}): {}", direction, i + 1, existing.size(),
                                       CompatibilityLevelName(level), problem));
      }
    };
    // The new schema reads (BACKWARD): it must accept every document the existing one accepts.
    if (backward) {
      add(json_schema::JsonSchemaReadProblems(candidate, *existing[i]), "new schema cannot read data written with");
    }
    if (forward) {
      add(json_schema::JsonSchemaReadProblems(*existing[i], candidate),
          "data written with the new schema cannot be read by");
    }
  }
  return problems;
}

}  // namespace floe::registry
