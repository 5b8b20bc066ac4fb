#include "registry/compatibility.h"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace floe::registry {
namespace {

using avro::AvroNode;
using avro::AvroType;

// The name after the last '.': Avro resolution matches named types by unqualified name.
std::string_view UnqualifiedName(std::string_view full) {
  size_t dot = full.rfind('.');
  return dot == std::string_view::npos ? full : full.substr(dot + 1);
}

bool Promotes(AvroType writer, AvroType reader) {
  switch (writer) {
    case AvroType::kInt:
      return reader == AvroType::kLong || reader == AvroType::kFloat || reader == AvroType::kDouble;
    case AvroType::kLong:
      return reader == AvroType::kFloat || reader == AvroType::kDouble;
    case AvroType::kFloat:
      return reader == AvroType::kDouble;
    case AvroType::kString:
      return reader == AvroType::kBytes;
    case AvroType::kBytes:
      return reader == AvroType::kString;
    default:
      return false;
  }
}

std::vector<std::string> FieldAliases(const avro::AvroField& field) {
  std::vector<std::string> aliases;
  if (auto it = field.extra.find("aliases"); it != field.extra.end() && it->is_array()) {
    for (const auto& alias : *it) {
      if (alias.is_string()) aliases.push_back(alias.get<std::string>());
    }
  }
  return aliases;
}

class ReadChecker {
 public:
  void Check(const AvroNode& reader, const AvroNode& writer, const std::string& path) {
    // Recursive named types: a pair already being checked is assumed readable (its other
    // parts are checked where the recursion started).
    if (!in_progress_.insert({&reader, &writer}).second) return;
    CheckNode(reader, writer, path);
    in_progress_.erase({&reader, &writer});
  }

  std::vector<std::string> problems;

 private:
  void Problem(const std::string& path, std::string what) {
    problems.push_back(fmt::format("{}: {}", path.empty() ? "/" : path, what));
  }

  // Whether reader can read writer, without recording problems.
  bool Readable(const AvroNode& reader, const AvroNode& writer) {
    ReadChecker probe;
    probe.in_progress_ = in_progress_;
    probe.Check(reader, writer, "");
    return probe.problems.empty();
  }

  void CheckNode(const AvroNode& reader, const AvroNode& writer, const std::string& path) {
    if (writer.type == AvroType::kUnion) {
      // Every branch the writer may have written must be readable.
      for (size_t i = 0; i < writer.branches.size(); ++i) {
        Check(reader, *writer.branches[i], fmt::format("{}/{}", path, i));
      }
      return;
    }
    if (reader.type == AvroType::kUnion) {
      for (const AvroNode* branch : reader.branches) {
        if (Readable(*branch, writer)) return;
      }
      Problem(path, fmt::format("reader union lacks a branch for the writer's {}", avro::AvroTypeName(writer.type)));
      return;
    }
    if (reader.type != writer.type) {
      if (!Promotes(writer.type, reader.type)) {
        Problem(path, fmt::format("type mismatch: reader {} cannot read writer {}", avro::AvroTypeName(reader.type),
                                  avro::AvroTypeName(writer.type)));
      }
      return;
    }
    switch (reader.type) {
      case AvroType::kRecord:
        CheckRecord(reader, writer, path);
        return;
      case AvroType::kEnum:
        CheckEnum(reader, writer, path);
        return;
      case AvroType::kFixed:
        if (UnqualifiedName(reader.name) != UnqualifiedName(writer.name)) {
          Problem(path, fmt::format("fixed name mismatch: reader {} writer {}", reader.name, writer.name));
        } else if (reader.size != writer.size) {
          Problem(path, fmt::format("fixed size mismatch: reader {} writer {}", reader.size, writer.size));
        }
        return;
      case AvroType::kArray:
        Check(*reader.items, *writer.items, path + "/items");
        return;
      case AvroType::kMap:
        Check(*reader.items, *writer.items, path + "/values");
        return;
      default:
        return;  // Equal primitive types.
    }
  }

  void CheckRecord(const AvroNode& reader, const AvroNode& writer, const std::string& path) {
    if (UnqualifiedName(reader.name) != UnqualifiedName(writer.name)) {
      Problem(path, fmt::format("record name mismatch: reader {} writer {}", reader.name, writer.name));
      return;
    }
    for (const avro::AvroField& field : reader.fields) {
      int at = writer.FieldIndex(field.name);
      if (at < 0) {
        for (const std::string& alias : FieldAliases(field)) {
          at = writer.FieldIndex(alias);
          if (at >= 0) break;
        }
      }
      std::string field_path = fmt::format("{}/fields/{}", path, field.name);
      if (at >= 0) {
        Check(*field.type, *writer.fields[static_cast<size_t>(at)].type, field_path);
      } else if (!field.default_value) {
        Problem(field_path, "reader field missing from the writer and has no default");
      }
    }
  }

  void CheckEnum(const AvroNode& reader, const AvroNode& writer, const std::string& path) {
    if (UnqualifiedName(reader.name) != UnqualifiedName(writer.name)) {
      Problem(path, fmt::format("enum name mismatch: reader {} writer {}", reader.name, writer.name));
      return;
    }
    if (reader.extra.contains("default")) return;  // Unknown symbols read as the default.
    for (const std::string& symbol : writer.symbols) {
      if (std::find(reader.symbols.begin(), reader.symbols.end(), symbol) == reader.symbols.end()) {
        Problem(path, fmt::format("reader enum lacks the writer's symbol {}", symbol));
      }
    }
  }

  std::set<std::pair<const AvroNode*, const AvroNode*>> in_progress_;
};

}  // namespace

std::optional<CompatibilityLevel> ParseCompatibilityLevel(std::string_view text) {
  static constexpr std::pair<std::string_view, CompatibilityLevel> kLevels[] = {
      {"NONE", CompatibilityLevel::kNone},
      {"BACKWARD", CompatibilityLevel::kBackward},
      {"BACKWARD_TRANSITIVE", CompatibilityLevel::kBackwardTransitive},
      {"FORWARD", CompatibilityLevel::kForward},
      {"FORWARD_TRANSITIVE", CompatibilityLevel::kForwardTransitive},
      {"FULL", CompatibilityLevel::kFull},
      {"FULL_TRANSITIVE", CompatibilityLevel::kFullTransitive},
  };
  for (const auto& [name, level] : kLevels) {
    if (name == text) return level;
  }
  return std::nullopt;
}

std::string_view CompatibilityLevelName(CompatibilityLevel level) {
  switch (level) {
    case CompatibilityLevel::kNone:
      return "NONE";
    case CompatibilityLevel::kBackward:
      return "BACKWARD";
    case CompatibilityLevel::kBackwardTransitive:
      return "BACKWARD_TRANSITIVE";
    case CompatibilityLevel::kForward:
      return "FORWARD";
    case CompatibilityLevel::kForwardTransitive:
      return "FORWARD_TRANSITIVE";
    case CompatibilityLevel::kFull:
      return "FULL";
    case CompatibilityLevel::kFullTransitive:
      return "FULL_TRANSITIVE";
  }
  return "NONE";
}

std::vector<std::string> AvroReadProblems(const avro::AvroNode& reader, const avro::AvroNode& writer) {
  ReadChecker checker;
  checker.Check(reader, writer, "");
  return std::move(checker.problems);
}

std::vector<std::string> AvroCompatibilityProblems(CompatibilityLevel level, const avro::AvroNode& candidate,
                                                   const std::vector<const avro::AvroNode*>& existing) {
  std::vector<std::string> problems;
  if (level == CompatibilityLevel::kNone || existing.empty()) return problems;
  bool transitive = level == CompatibilityLevel::kBackwardTransitive || level == CompatibilityLevel::kForwardTransitive ||
                    level == CompatibilityLevel::kFullTransitive;
  bool backward = level != CompatibilityLevel::kForward && level != CompatibilityLevel::kForwardTransitive;
  bool forward = level != CompatibilityLevel::kBackward && level != CompatibilityLevel::kBackwardTransitive;
  size_t first = transitive ? 0 : existing.size() - 1;
  for (size_t i = existing.size(); i-- > first;) {
    auto add = [&](std::vector<std::string> found, std::string_view direction) {
      for (std::string& problem : found) {
        problems.push_back(fmt::format("{} (existing schema {} of {}, {}): {}", direction, i + 1, existing.size(),
                                       CompatibilityLevelName(level), problem));
      }
    };
    if (backward) add(AvroReadProblems(candidate, *existing[i]), "new schema cannot read data written with");
    if (forward) add(AvroReadProblems(*existing[i], candidate), "data written with the new schema cannot be read by");
  }
  return problems;
}

}  // namespace floe::registry
