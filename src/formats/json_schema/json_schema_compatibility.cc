#include "formats/json_schema/json_schema_compatibility.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include "formats/json_schema/json_pointer.h"

namespace floe::json_schema {
namespace {

using Json = nlohmann::json;

// A subschema of one of the two schemas (so `$ref`s in it resolve in its own documents).
struct Side {
  const JsonSchema* schema = nullptr;
  size_t document = 0;
  const Json* node = nullptr;

  Side At(const Json& child) const { return {schema, document, &child}; }
};

const Json kTrue = true;
const Json kEmpty = Json::object();

constexpr int kMaxRefHops = 32;
constexpr size_t kMaxRegexLength = 256;  // Longer patterns or names are not evaluated.

// A value as messages show it, cut short.
std::string Show(const Json& value) {
  std::string text = value.dump();
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

const Json* Member(const Json& schema, std::string_view key) {
  if (!schema.is_object()) return nullptr;
  auto it = schema.find(key);
  return it == schema.end() ? nullptr : &*it;
}

// Keywords that do not constrain documents (annotations, definitions, identifiers): ignored.
bool IsAnnotation(std::string_view key) {
  static const std::set<std::string_view> kAnnotations = {
      "title",      "description",   "$comment",       "default",         "examples",         "$id",
      "id",         "$schema",       "definitions",    "$defs",           "readOnly",         "writeOnly",
      "deprecated", "$anchor",       "$dynamicAnchor", "contentEncoding", "contentMediaType", "$vocabulary",
      "javaType",   "javaInterfaces"};
  // Confluent's and tools' own annotations: "connect.type", "x-...".
  return kAnnotations.contains(key) || key.find('.') != std::string_view::npos || key.starts_with("x-");
}

// Keywords the rules below compare; any other constraining keyword must be equal.
bool IsCompared(std::string_view key) {
  static const std::set<std::string_view> kCompared = {"type",
                                                       "enum",
                                                       "const",
                                                       "minimum",
                                                       "maximum",
                                                       "exclusiveMinimum",
                                                       "exclusiveMaximum",
                                                       "multipleOf",
                                                       "maxLength",
                                                       "minLength",
                                                       "maxItems",
                                                       "minItems",
                                                       "maxProperties",
                                                       "minProperties",
                                                       "required",
                                                       "properties",
                                                       "patternProperties",
                                                       "additionalProperties",
                                                       "items",
                                                       "prefixItems",
                                                       "additionalItems",
                                                       "oneOf",
                                                       "anyOf",
                                                       "allOf",
                                                       "not",
                                                       "$ref",
                                                       "uniqueItems"};
  return kCompared.contains(key);
}

std::optional<std::set<std::string>> TypesOf(const Json& schema) {
  const Json* type = Member(schema, "type");
  if (type == nullptr) return std::nullopt;
  std::set<std::string> names;
  if (type->is_string()) names.insert(type->get<std::string>());
  if (type->is_array()) {
    for (const Json& name : *type) {
      if (name.is_string()) names.insert(name.get<std::string>());
    }
  }
  return names;
}

// The JSON Schema type of a value ("integer" for integral numbers).
std::string TypeOfValue(const Json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number_integer()) return "integer";
  if (value.is_number()) return std::floor(value.get<double>()) == value.get<double>() ? "integer" : "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

std::string ShowTypes(const std::set<std::string>& types) {
  std::string out;
  for (const std::string& t : types) out += fmt::format("{}'{}'", out.empty() ? "" : ", ", t);
  return "[" + out + "]";
}

// The values an `enum` or `const` allows, or null when neither is present.
std::optional<std::vector<Json>> EnumOf(const Json& schema) {
  if (const Json* values = Member(schema, "enum"); values != nullptr && values->is_array()) {
    return std::vector<Json>(values->begin(), values->end());
  }
  if (const Json* value = Member(schema, "const")) return std::vector<Json>{*value};
  return std::nullopt;
}

struct Bound {
  double value = 0;
  bool exclusive = false;
};

// The lower (or upper) bound, from minimum/exclusiveMinimum: a number since draft 6, a boolean
// modifying minimum in draft 4; the tighter of the two when both are numbers.
std::optional<Bound> BoundOf(const Json& schema, bool lower) {
  const Json* inclusive = Member(schema, lower ? "minimum" : "maximum");
  const Json* exclusive = Member(schema, lower ? "exclusiveMinimum" : "exclusiveMaximum");
  std::optional<Bound> bound;
  if (inclusive != nullptr && inclusive->is_number()) bound = Bound{inclusive->get<double>(), false};
  if (exclusive != nullptr && exclusive->is_boolean() && exclusive->get<bool>() && bound) bound->exclusive = true;
  if (exclusive != nullptr && exclusive->is_number()) {
    const double e = exclusive->get<double>();
    if (!bound || (lower ? e >= bound->value : e <= bound->value)) bound = Bound{e, true};
  }
  return bound;
}

std::string ShowBound(const Bound& bound, bool lower) {
  return fmt::format("{} {}", lower ? (bound.exclusive ? ">" : ">=") : (bound.exclusive ? "<" : "<="), bound.value);
}

std::optional<double> NumberOf(const Json& schema, std::string_view key) {
  const Json* value = Member(schema, key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

// Whether ECMA-262 `pattern` matches `name`; nullopt when floe cannot tell (the pattern does not
// compile as std::regex's ECMAScript, or either is longer than kMaxRegexLength). The
// polynomial (Thompson) matcher of libstdc++, so no pattern can backtrack exponentially.
std::optional<bool> PatternMatches(const std::string& pattern, const std::string& name) {
  if (pattern.size() > kMaxRegexLength || name.size() > kMaxRegexLength) return std::nullopt;
  try {
    const std::regex regex(pattern, std::regex::ECMAScript | std::regex_constants::__polynomial);
    return std::regex_search(name, regex);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

class Checker {
 public:
  // True when `reader` accepts every document `writer` accepts; else false, and (with `out`)
  // the reasons appended. Without `out`, a trial: stops at the first problem.
  bool Compare(Side reader, Side writer, const std::string& path, int depth, std::vector<std::string>* out) {
    if (++steps_ > kMaxSteps) {
      if (out != nullptr && !budget_reported_) {
        budget_reported_ = true;
        out->push_back(fmt::format("{}: more than {} comparisons: not compared further", path, kMaxSteps));
      }
      return false;
    }
    if (depth > kMaxDepth) return Fail(out, "{}: nested deeper than {} levels: not compared", path, kMaxDepth);
    std::optional<Side> r = Deref(reader, "reader", path, out);
    std::optional<Side> w = Deref(writer, "writer", path, out);
    if (!r || !w) return false;
    const Json& R = *r->node;
    const Json& W = *w->node;
    if (R.is_boolean() && R.get<bool>()) return true;
    if (W.is_boolean() && !W.get<bool>()) return true;
    if (R.is_boolean()) return Fail(out, "{}: the reader's schema is false (accepts nothing)", path);
    if (R.empty()) return true;
    Side writer_object = W.is_boolean() ? w->At(kEmpty) : *w;  // `true` accepts what {} accepts.
    // A pair already being compared is assumed compatible: recursive schemas end there.
    const std::pair<const Json*, const Json*> key = {&R, writer_object.node};
    if (!in_progress_.insert(key).second) return true;
    const bool ok = CompareObjects(*r, writer_object, path, depth, out);
    in_progress_.erase(key);
    return ok;
  }

 private:
  template <typename... Args>
  static bool Fail(std::vector<std::string>* out, fmt::format_string<Args...> format, Args&&... args) {
    if (out != nullptr) out->push_back(fmt::format(format, std::forward<Args>(args)...));
    return false;
  }

  // `side` with its `$ref`s followed (draft 7: a `$ref`'s siblings are ignored).
  std::optional<Side> Deref(Side side, std::string_view who, const std::string& path, std::vector<std::string>* out) {
    for (int hops = 0;; ++hops) {
      const Json* ref = Member(*side.node, "$ref");
      if (ref == nullptr || !ref->is_string()) return side;
      if (hops == kMaxRefHops) {
        Fail(out, "{}: the {}'s \"$ref\"s lead through more than {} others in a row: not compared", path, who,
             kMaxRefHops);
        return std::nullopt;
      }
      std::optional<JsonSchema::Location> target = side.schema->Resolve(side.document, ref->get<std::string>());
      if (!target) {
        Fail(out, "{}: the {}'s \"$ref\": {} resolves to no schema floe can follow", path, who, Show(*ref));
        return std::nullopt;
      }
      side = {side.schema, target->document, target->node};
    }
  }

  bool AcceptsAnything(Side reader, const std::string& path, int depth) {
    return Compare(reader, reader.At(kTrue), path, depth + 1, nullptr);
  }

  bool CompareObjects(Side r, Side w, const std::string& path, int depth, std::vector<std::string>* out) {
    const Json& R = *r.node;
    const Json& W = *w.node;
    // The writer's alternatives: the reader accepts the writer when it accepts each of them.
    const Json* w_one_of = Member(W, "oneOf");
    const Json* w_any_of = Member(W, "anyOf");
    const Json* w_members = w_one_of != nullptr && w_any_of == nullptr   ? w_one_of
                            : w_any_of != nullptr && w_one_of == nullptr ? w_any_of
                                                                         : nullptr;
    if (w_members != nullptr && w_members->is_array()) {
      bool all = true;
      for (const Json& member : *w_members) {
        if (!Compare(r, w.At(member), path, depth + 1, nullptr)) {
          all = false;
          break;
        }
      }
      if (all) return true;
    }
    // A writer's allOf holds only documents each member accepts: one accepted member suffices.
    if (const Json* all_of = Member(W, "allOf"); all_of != nullptr && all_of->is_array()) {
      for (const Json& member : *all_of) {
        if (Compare(r, w.At(member), path, depth + 1, nullptr)) return true;
      }
    }

    bool ok = true;
    auto check = [&](bool passed) {
      ok = passed && ok;
      return ok || out != nullptr;  // A trial stops at the first problem.
    };

    for (const std::string_view keyword : {"oneOf", "anyOf"}) {
      const Json* members = Member(R, keyword);
      if (members == nullptr || !members->is_array()) continue;
      const std::string at = fmt::format("{}/{}", path, keyword);
      auto accepted_by_some = [&](Side writer_side) {
        return std::any_of(members->begin(), members->end(), [&](const Json& member) {
          return Compare(r.At(member), writer_side, at, depth + 1, nullptr);
        });
      };
      if (w_members != nullptr && w_members->is_array()) {
        for (size_t i = 0; i < w_members->size(); ++i) {
          if (accepted_by_some(w.At((*w_members)[i]))) continue;
          if (i < members->size() && out != nullptr) {
            Compare(r.At((*members)[i]), w.At((*w_members)[i]), fmt::format("{}/{}", at, i), depth + 1, out);
          }
          if (!check(Fail(out, "{}: the writer's {} member {} is accepted by no member of the reader's {}", at,
                          w_members == w_one_of ? "oneOf" : "anyOf", i, keyword))) {
            return false;
          }
        }
      } else if (!accepted_by_some(w)) {
        if (!check(
                Fail(out, "{}: no member of the reader's {} accepts what the writer's schema allows", at, keyword))) {
          return false;
        }
      }
    }
    if (const Json* all_of = Member(R, "allOf"); all_of != nullptr && all_of->is_array()) {
      for (size_t i = 0; i < all_of->size(); ++i) {
        if (!check(Compare(r.At((*all_of)[i]), w, fmt::format("{}/allOf/{}", path, i), depth + 1, out))) return false;
      }
    }
    if (const Json* r_not = Member(R, "not")) {
      const Json* w_not = Member(W, "not");
      // not A accepts all of not B when B accepts all of A: the same question, the other way.
      const bool passed = w_not == nullptr ? Fail(out, "{}/not: the reader adds \"not\" the writer lacks", path)
                                           : Compare(w.At(*w_not), r.At(*r_not), path + "/not", depth + 1, out);
      if (!check(passed)) return false;
    }

    if (!check(CompareTypes(R, W, path, out))) return false;
    if (!check(CompareEnums(R, W, path, out))) return false;
    if (!check(CompareNumbers(R, W, path, out))) return false;
    if (!check(CompareCounts(R, W, path, out))) return false;
    if (!check(CompareOthers(R, W, path, out))) return false;
    if (!check(CompareRequired(r, w, path, out))) return false;
    if (!check(CompareProperties(r, w, path, depth, out))) return false;
    if (!check(CompareItems(r, w, path, depth, out))) return false;
    return ok;
  }

  static bool CompareTypes(const Json& R, const Json& W, const std::string& path, std::vector<std::string>* out) {
    std::optional<std::set<std::string>> reader = TypesOf(R);
    if (!reader) return true;
    auto reads = [&](const std::string& type) {
      return reader->contains(type) || (type == "integer" && reader->contains("number"));
    };
    // A writer's enum says which types it writes.
    std::optional<std::set<std::string>> writer = TypesOf(W);
    if (std::optional<std::vector<Json>> values = EnumOf(W)) {
      writer.emplace();
      for (const Json& value : *values) writer->insert(TypeOfValue(value));
    }
    if (!writer) {
      return Fail(out, "{}/type: the reader requires type {} where the writer allows any type", path,
                  ShowTypes(*reader));
    }
    bool ok = true;
    for (const std::string& type : *writer) {
      if (reads(type)) continue;
      ok = Fail(out, "{}/type: the writer's type '{}' is not among the reader's {}{}", path, type, ShowTypes(*reader),
                type == "number" && reader->contains("integer") ? " (number narrowed to integer)" : "");
      if (out == nullptr) return false;
    }
    return ok;
  }

  static bool CompareEnums(const Json& R, const Json& W, const std::string& path, std::vector<std::string>* out) {
    std::optional<std::vector<Json>> reader = EnumOf(R);
    if (!reader) return true;
    const char* keyword = Member(R, "enum") != nullptr ? "enum" : "const";
    std::optional<std::vector<Json>> writer = EnumOf(W);
    if (!writer) {
      return Fail(out, "{}/{}: the reader allows only {} where the writer has no enum", path, keyword,
                  Show(Json(*reader)));
    }
    bool ok = true;
    for (const Json& value : *writer) {
      if (std::find(reader->begin(), reader->end(), value) != reader->end()) continue;
      ok = Fail(out, "{}/{}: the writer's value {} is not among the reader's", path, keyword, Show(value));
      if (out == nullptr) return false;
    }
    return ok;
  }

  static bool CompareNumbers(const Json& R, const Json& W, const std::string& path, std::vector<std::string>* out) {
    bool ok = true;
    for (const bool lower : {true, false}) {
      std::optional<Bound> reader = BoundOf(R, lower);
      if (!reader) continue;
      const char* keyword = lower ? (reader->exclusive ? "exclusiveMinimum" : "minimum")
                                  : (reader->exclusive ? "exclusiveMaximum" : "maximum");
      std::optional<Bound> writer = BoundOf(W, lower);
      if (!writer) {
        ok =
            Fail(out, "{}/{}: the reader adds the bound {} the writer lacks", path, keyword, ShowBound(*reader, lower));
      } else {
        const bool wider = lower ? reader->value < writer->value : reader->value > writer->value;
        const bool equal = reader->value == writer->value && (!reader->exclusive || writer->exclusive);
        if (!wider && !equal) {
          ok = Fail(out, "{}/{}: the reader's bound {} is narrower than the writer's {}", path, keyword,
                    ShowBound(*reader, lower), ShowBound(*writer, lower));
        }
      }
      if (!ok && out == nullptr) return false;
    }
    if (std::optional<double> reader = NumberOf(R, "multipleOf")) {
      std::optional<double> writer = NumberOf(W, "multipleOf");
      const double ratio = writer ? *writer / *reader : 0;
      if (!writer || std::abs(ratio - std::round(ratio)) > 1e-9 * std::max(1.0, ratio) || std::round(ratio) < 1) {
        ok = Fail(out, "{}/multipleOf: the reader's multipleOf {} does not divide the writer's {}", path, *reader,
                  writer ? fmt::format("{}", *writer) : std::string("(none)"));
      }
    }
    return ok;
  }

  static bool CompareCounts(const Json& R, const Json& W, const std::string& path, std::vector<std::string>* out) {
    bool ok = true;
    for (const std::string_view keyword : {"maxLength", "maxItems", "maxProperties"}) {
      std::optional<double> reader = NumberOf(R, keyword);
      if (!reader) continue;
      std::optional<double> writer = NumberOf(W, keyword);
      if (!writer) {
        ok = Fail(out, "{}/{}: the reader adds {} {} the writer lacks", path, keyword, keyword, *reader);
      } else if (*reader < *writer) {
        ok = Fail(out, "{}/{}: the reader's {} {} is below the writer's {}", path, keyword, keyword, *reader, *writer);
      }
      if (!ok && out == nullptr) return false;
    }
    for (const std::string_view keyword : {"minLength", "minItems", "minProperties"}) {
      const double reader = NumberOf(R, keyword).value_or(0);
      const double writer = NumberOf(W, keyword).value_or(0);
      if (reader > writer) {
        ok = Fail(out, "{}/{}: the reader's {} {} is above the writer's {}", path, keyword, keyword, reader, writer);
        if (out == nullptr) return false;
      }
    }
    return ok;
  }

  // pattern, format, uniqueItems and every keyword the rules do not know: the reader's must be
  // the writer's (floe does not compare regular expressions, formats or conditionals).
  static bool CompareOthers(const Json& R, const Json& W, const std::string& path, std::vector<std::string>* out) {
    bool ok = true;
    for (const auto& [key, value] : R.items()) {
      if (IsAnnotation(key) || (IsCompared(key) && key != "uniqueItems")) continue;
      if (key == "uniqueItems" && !value.is_boolean()) continue;
      if (key == "uniqueItems" && !value.get<bool>()) continue;
      const Json* writer = Member(W, key);
      if (writer != nullptr && *writer == value) continue;
      ok = Fail(out, "{}/{}: the reader's \"{}\": {} is not the writer's ({}); floe compares it only for equality",
                path, EscapePointerToken(key), key, Show(value), writer == nullptr ? "absent" : Show(*writer));
      if (out == nullptr) return false;
    }
    return ok;
  }

  static std::set<std::string> RequiredOf(const Json& schema) {
    std::set<std::string> names;
    if (const Json* required = Member(schema, "required"); required != nullptr && required->is_array()) {
      for (const Json& name : *required) {
        if (name.is_string()) names.insert(name.get<std::string>());
      }
    }
    return names;
  }

  bool CompareRequired(Side r, Side w, const std::string& path, std::vector<std::string>* out) {
    const std::set<std::string> writer = RequiredOf(*w.node);
    bool ok = true;
    for (const std::string& name : RequiredOf(*r.node)) {
      if (writer.contains(name)) continue;
      // Confluent's rule: a required property with a default is compatible.
      const Json* properties = Member(*r.node, "properties");
      const Json* property = properties != nullptr ? Member(*properties, name) : nullptr;
      if (property != nullptr && Member(*property, "default") != nullptr) continue;
      ok = Fail(out, "{}/required: the reader requires '{}' (without a default), the writer does not", path, name);
      if (out == nullptr) return false;
    }
    return ok;
  }

  // What a side says of the value under one property name: where (`schemas`, all of which
  // apply), nothing (open), or that it may not appear (closed).
  struct Slot {
    enum class Kind { kAny, kNever, kSchemas, kUnknown } kind = Kind::kAny;
    std::vector<Side> schemas;
    std::string unknown_pattern;
  };

  Slot SlotOf(Side side, const std::string& name) {
    Slot slot;
    if (const Json* properties = Member(*side.node, "properties")) {
      if (const Json* property = Member(*properties, name)) slot.schemas.push_back(side.At(*property));
    }
    if (const Json* patterns = Member(*side.node, "patternProperties"); patterns != nullptr && patterns->is_object()) {
      for (const auto& [pattern, schema] : patterns->items()) {
        ++steps_;
        std::optional<bool> matches = PatternMatches(pattern, name);
        if (!matches) {
          slot.kind = Slot::Kind::kUnknown;
          slot.unknown_pattern = pattern;
          return slot;
        }
        if (*matches) slot.schemas.push_back(side.At(schema));
      }
    }
    if (!slot.schemas.empty()) {
      slot.kind = Slot::Kind::kSchemas;
      return slot;
    }
    const Json* additional = Member(*side.node, "additionalProperties");
    if (additional == nullptr || (additional->is_boolean() && additional->get<bool>())) return slot;
    if (additional->is_boolean()) {
      slot.kind = Slot::Kind::kNever;
      return slot;
    }
    slot.kind = Slot::Kind::kSchemas;
    slot.schemas.push_back(side.At(*additional));
    return slot;
  }

  bool CompareProperties(Side r, Side w, const std::string& path, int depth, std::vector<std::string>* out) {
    const Json& R = *r.node;
    const Json& W = *w.node;
    std::set<std::string> names;
    for (const Json* schema : {&R, &W}) {
      if (const Json* properties = Member(*schema, "properties"); properties != nullptr && properties->is_object()) {
        for (const auto& [name, value] : properties->items()) names.insert(name);
      }
    }
    bool ok = true;
    for (const std::string& name : names) {
      const std::string at = fmt::format("{}/properties/{}", path, EscapePointerToken(name));
      const Slot writer = SlotOf(w, name);
      if (writer.kind == Slot::Kind::kNever) continue;  // The writer never writes it.
      const Slot reader = SlotOf(r, name);
      bool passed = true;
      if (reader.kind == Slot::Kind::kNever) {
        passed =
            Fail(out, "{}: the reader's closed content model rejects property '{}', which the writer allows", at, name);
      } else if (reader.kind == Slot::Kind::kUnknown || writer.kind == Slot::Kind::kUnknown) {
        passed =
            Fail(out, "{}: floe cannot tell whether patternProperties {} match '{}'", at,
                 Show(reader.kind == Slot::Kind::kUnknown ? reader.unknown_pattern : writer.unknown_pattern), name);
      } else {
        for (const Side& constraint : reader.schemas) {
          if (writer.kind == Slot::Kind::kAny) {
            if (!AcceptsAnything(constraint, at, depth)) {
              passed = Fail(out,
                            "{}: the reader constrains property '{}' where the writer's open content model allows any "
                            "value under it",
                            at, name);
            }
          } else {
            // Every writer schema applies; the first (its property, else a matching pattern)
            // stands for them.
            passed = Compare(constraint, writer.schemas.front(), at, depth + 1, out) && passed;
          }
          if (!passed && out == nullptr) return false;
        }
      }
      ok = passed && ok;
      if (!ok && out == nullptr) return false;
    }
    return CompareOpenContent(r, w, path, depth, out) && ok;
  }

  // What the reader says of names neither side declares: its patternProperties and
  // additionalProperties against the writer's. Patterns are matched by their text: a reader
  // pattern the writer lacks must accept what the writer allows under any other name.
  bool CompareOpenContent(Side r, Side w, const std::string& path, int depth, std::vector<std::string>* out) {
    const Json* r_patterns = Member(*r.node, "patternProperties");
    const Json* w_patterns = Member(*w.node, "patternProperties");
    const Json* w_additional = Member(*w.node, "additionalProperties");
    const bool writer_closed = w_additional != nullptr && w_additional->is_boolean() && !w_additional->get<bool>();
    const bool writer_open = w_additional == nullptr || (w_additional->is_boolean() && w_additional->get<bool>());
    bool ok = true;
    // `reader` against what the writer allows under names it matches (a pattern of its own
    // text, else every writer pattern the reader lacks and additionalProperties).
    auto against_writer = [&](Side reader, const std::string& at, const std::string* own_pattern) {
      if (own_pattern != nullptr && w_patterns != nullptr && w_patterns->contains(*own_pattern)) {
        return Compare(reader, w.At((*w_patterns)[*own_pattern]), at, depth + 1, out);
      }
      bool passed = true;
      if (w_patterns != nullptr && w_patterns->is_object()) {
        for (const auto& [pattern, schema] : w_patterns->items()) {
          if (r_patterns != nullptr && r_patterns->contains(pattern)) continue;
          passed = Compare(reader, w.At(schema),
                           fmt::format("{}/patternProperties/{}", path, EscapePointerToken(pattern)), depth + 1, out) &&
                   passed;
          if (!passed && out == nullptr) return false;
        }
      }
      if (writer_closed) return passed;
      if (writer_open) {
        if (AcceptsAnything(reader, at, depth)) return passed;
        return Fail(out, "{}: the reader constrains properties the writer's open content model allows with any value",
                    at);
      }
      return Compare(reader, w.At(*w_additional), at, depth + 1, out) && passed;
    };
    if (r_patterns != nullptr && r_patterns->is_object()) {
      for (const auto& [pattern, schema] : r_patterns->items()) {
        ok = against_writer(r.At(schema), fmt::format("{}/patternProperties/{}", path, EscapePointerToken(pattern)),
                            &pattern) &&
             ok;
        if (!ok && out == nullptr) return false;
      }
    }
    const Json* r_additional = Member(*r.node, "additionalProperties");
    if (r_additional == nullptr || (r_additional->is_boolean() && r_additional->get<bool>())) return ok;
    const std::string at = path + "/additionalProperties";
    if (r_additional->is_boolean()) {
      // Closed: the writer must be closed too, and match by no pattern the reader lacks.
      if (!writer_closed) {
        ok = Fail(out,
                  "{}: the reader's content model is closed, the writer's is {}: properties the writer allows are "
                  "rejected",
                  at, writer_open ? "open" : "partially open");
      }
      if (w_patterns != nullptr && w_patterns->is_object()) {
        for (const auto& [pattern, schema] : w_patterns->items()) {
          if (r_patterns != nullptr && r_patterns->contains(pattern)) continue;
          ok = Fail(out,
                    "{}/patternProperties/{}: properties matching {} are allowed by the writer, rejected by the "
                    "reader's closed content model",
                    path, EscapePointerToken(pattern), Show(pattern));
        }
      }
      return ok;
    }
    return against_writer(r.At(*r_additional), at, nullptr) && ok;
  }

  // An array schema's items by position: `prefix` (tuple schemas) then `rest` (null: any).
  struct Items {
    const Json* prefix = nullptr;
    const Json* rest = nullptr;
  };

  static Items ItemsOf(const Json& schema) {
    const Json* items = Member(schema, "items");
    if (const Json* prefix = Member(schema, "prefixItems"); prefix != nullptr && prefix->is_array()) {
      return {prefix, items};
    }
    if (items != nullptr && items->is_array()) return {items, Member(schema, "additionalItems")};
    return {nullptr, items};
  }

  bool CompareItems(Side r, Side w, const std::string& path, int depth, std::vector<std::string>* out) {
    const Items reader = ItemsOf(*r.node);
    const Items writer = ItemsOf(*w.node);
    auto at_index = [](const Items& items, size_t i) -> const Json* {
      if (items.prefix != nullptr && i < items.prefix->size()) return &(*items.prefix)[i];
      return items.rest;
    };
    auto compare = [&](const Json* reader_items, const Json* writer_items, const std::string& at) {
      if (reader_items == nullptr) return true;
      if (writer_items == nullptr) {
        if (AcceptsAnything(r.At(*reader_items), at, depth)) return true;
        return Fail(out, "{}: the reader constrains array items the writer allows with any value", at);
      }
      return Compare(r.At(*reader_items), w.At(*writer_items), at, depth + 1, out);
    };
    const size_t positions = std::max(reader.prefix != nullptr ? reader.prefix->size() : 0,
                                      writer.prefix != nullptr ? writer.prefix->size() : 0);
    const bool tuple = positions > 0;
    bool ok = true;
    for (size_t i = 0; i < positions; ++i) {
      ok = compare(at_index(reader, i), at_index(writer, i), fmt::format("{}/items/{}", path, i)) && ok;
      if (!ok && out == nullptr) return false;
    }
    return compare(reader.rest, writer.rest, path + (tuple ? "/additionalItems" : "/items")) && ok;
  }

  std::set<std::pair<const Json*, const Json*>> in_progress_;
  int steps_ = 0;
  bool budget_reported_ = false;
};

}  // namespace

std::vector<std::string> JsonSchemaReadProblems(const JsonSchema& reader, const JsonSchema& writer) {
  std::vector<std::string> problems;
  Checker checker;
  const JsonSchema::Location r = reader.root();
  const JsonSchema::Location w = writer.root();
  checker.Compare({&reader, r.document, r.node}, {&writer, w.document, w.node}, "#", 0, &problems);
  return problems;
}

}  // namespace floe::json_schema
