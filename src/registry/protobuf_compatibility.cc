#include "registry/protobuf_compatibility.h"

#include <fmt/format.h>

namespace floe::registry {
namespace {

using protobuf::ProtoField;
using protobuf::ProtoMessage;
using protobuf::ProtoType;

// Types whose values are encoded alike on the wire, so either reads the other's bytes.
int WireGroup(ProtoType type) {
  switch (type) {
    case ProtoType::kInt32:
    case ProtoType::kUint32:
    case ProtoType::kInt64:
    case ProtoType::kUint64:
    case ProtoType::kBool: return 1;
    case ProtoType::kSint32:
    case ProtoType::kSint64: return 2;
    case ProtoType::kFixed32:
    case ProtoType::kSfixed32: return 3;
    case ProtoType::kFixed64:
    case ProtoType::kSfixed64: return 4;
    case ProtoType::kString:
    case ProtoType::kBytes: return 5;
    default: return 0;  // Only itself.
  }
}

std::string TypeName(const ProtoField& f) {
  if (f.message != nullptr) return f.message->full_name;
  if (f.enumeration != nullptr) return f.enumeration->full_name;
  return std::string(protobuf::ProtoTypeName(f.type));
}

bool SameType(const ProtoField& a, const ProtoField& b) {
  if (a.type == ProtoType::kMessage || b.type == ProtoType::kMessage) {
    return a.type == b.type && a.message->full_name == b.message->full_name;
  }
  if (a.type == ProtoType::kEnum || b.type == ProtoType::kEnum) {
    return a.type == b.type && a.enumeration->full_name == b.enumeration->full_name;
  }
  if (a.type == b.type) return true;
  const int group = WireGroup(a.type);
  return group != 0 && group == WireGroup(b.type);
}

void CheckMessage(const protobuf::ProtoSchema& reader_schema, const ProtoMessage& writer,
                  std::vector<std::string>& problems, int depth) {
  if (depth > protobuf::ProtoSchema::kMaxNesting) return;
  const ProtoMessage* reader = reader_schema.FindMessage(writer.full_name);
  if (reader == nullptr) return;  // Messages are matched by full name; one on one side only is not checked.
  for (const ProtoField& w : writer.fields) {
    const ProtoField* r = reader->FieldByNumber(w.number);
    if (r == nullptr) continue;  // Removed: the reader skips it.
    const std::string where = fmt::format("{}: field number {} ('{}')", writer.full_name, w.number, w.name);
    if (r->IsRepeated() != w.IsRepeated() || r->IsMap() != w.IsMap()) {
      problems.push_back(fmt::format("{} changed between singular and repeated", where));
    } else if (!SameType(*r, w)) {
      problems.push_back(fmt::format("{} changed type from {} to {}", where, TypeName(w), TypeName(*r)));
    }
    const bool r_oneof = r->oneof >= 0, w_oneof = w.oneof >= 0;
    if (r_oneof != w_oneof || (r_oneof && reader->oneofs[static_cast<size_t>(r->oneof)] !=
                                              writer.oneofs[static_cast<size_t>(w.oneof)])) {
      problems.push_back(fmt::format("{} moved into or out of a oneof", where));
    }
  }
  for (const ProtoField& r : reader->fields) {
    if (r.label == protobuf::ProtoLabel::kRequired && writer.FieldByNumber(r.number) == nullptr) {
      problems.push_back(fmt::format("{}: required field number {} ('{}') was added", writer.full_name, r.number, r.name));
    }
  }
  for (const auto& nested : writer.nested) CheckMessage(reader_schema, *nested, problems, depth + 1);
}

}  // namespace

std::vector<std::string> ProtobufReadProblems(const protobuf::ProtoSchema& reader, const protobuf::ProtoSchema& writer) {
  std::vector<std::string> problems;
  for (const auto& message : writer.messages()) CheckMessage(reader, *message, problems, 1);
  return problems;
}

std::vector<std::string> ProtobufCompatibilityProblems(CompatibilityLevel level, const protobuf::ProtoSchema& candidate,
                                                       const std::vector<const protobuf::ProtoSchema*>& existing) {
  std::vector<std::string> problems;
  if (level == CompatibilityLevel::kNone || existing.empty()) return problems;
  const bool transitive = level == CompatibilityLevel::kBackwardTransitive ||
                          level == CompatibilityLevel::kForwardTransitive || level == CompatibilityLevel::kFullTransitive;
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
    if (backward) add(ProtobufReadProblems(candidate, *existing[i]), "new schema cannot read data written with");
    if (forward) add(ProtobufReadProblems(*existing[i], candidate), "data written with the new schema cannot be read by");
  }
  return problems;
}

}  // namespace floe::registry
