// ProtoSchema: one Protobuf schema file as a Schema Registry holds it, parsed into messages,
// fields and enums with every field's type resolved, for decoding messages of it
// (proto_column_decoder.h) and for making tables from it.
//
// Two spellings are accepted, both as Confluent's registry and its serializers use them:
//  - .proto source text, proto2 or proto3 (the Java serializer registers this): package,
//    messages (nested), enums, repeated, map<K, V>, oneof, optional/required; options, reserved
//    ranges, services and extensions are skipped; imports of the well-known
//    google/protobuf/timestamp.proto and wrappers.proto, whose types are built in, and of the
//    files given to ParseWithImports (Confluent's schema references);
//  - the base64 of a serialized google.protobuf.FileDescriptorProto (what
//    `@confluentinc/schemaregistry`'s ProtobufSerializer registers, and what Confluent's
//    registry answers with ?format=serialized).
// Anything else is an error naming the line and column (text) or the byte offset (descriptor):
// InvalidArgument or Corruption when the schema is wrong, NotImplemented when it is valid
// Protobuf floe does not read (editions, groups, other imports).
// Parsing is bounded: kMaxSchemaBytes of input per file, messages nested at most kMaxNesting
// deep, at most kMaxImports imported files.
//
// Immutable after parsing; any thread may read it. Pointers into it (messages, enums, fields)
// stay valid while the ProtoSchema lives, also when it is moved.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::protobuf {

// The field types of descriptor.proto's FieldDescriptorProto.Type, by their numbers there.
enum class ProtoType : uint8_t {
  kDouble = 1,
  kFloat = 2,
  kInt64 = 3,
  kUint64 = 4,
  kInt32 = 5,
  kFixed64 = 6,
  kFixed32 = 7,
  kBool = 8,
  kString = 9,
  kGroup = 10,
  kMessage = 11,
  kBytes = 12,
  kUint32 = 13,
  kEnum = 14,
  kSfixed32 = 15,
  kSfixed64 = 16,
  kSint32 = 17,
  kSint64 = 18,
};

std::string_view ProtoTypeName(ProtoType type);

enum class ProtoLabel : uint8_t {
  kImplicit,  // proto3 singular without `optional`: absent means the zero value.
  kOptional,  // proto2 optional, proto3 `optional`: absent is told apart.
  kRequired,  // proto2 only.
  kRepeated,
};

// Well-known types with a column meaning of their own.
enum class WellKnown : uint8_t {
  kNone,
  kTimestamp,  // google.protobuf.Timestamp: seconds and nanos since the epoch.
  kWrapper,    // google.protobuf.*Value: one field `value` = 1, a nullable scalar.
};

struct ProtoMessage;
struct ProtoEnum;

// A file a schema imports, as one of Confluent's schema references gives it: `name` is the path
// the `import` statement (or the descriptor's dependency) names, `schema` the referenced
// version's schema, in either spelling.
struct ProtoImport {
  std::string name;
  std::string schema;
};

struct ProtoField {
  std::string name;
  int32_t number = 0;
  ProtoLabel label = ProtoLabel::kImplicit;
  ProtoType type = ProtoType::kInt32;
  std::string type_name;                  // Message and enum fields: as written (resolved below).
  const ProtoMessage* message = nullptr;  // kMessage: the resolved type.
  const ProtoEnum* enumeration = nullptr; // kEnum: the resolved type.
  int32_t oneof = -1;                     // Index into the message's oneofs, or -1.

  // Whether the wire tells an absent field apart from its zero value.
  bool HasPresence() const {
    return label == ProtoLabel::kOptional || label == ProtoLabel::kRequired ||
           (label == ProtoLabel::kImplicit && (type == ProtoType::kMessage || oneof >= 0));
  }
  bool IsRepeated() const { return label == ProtoLabel::kRepeated; }
  bool IsMap() const;
};

struct ProtoEnumValue {
  std::string name;
  int32_t number = 0;
};

struct ProtoEnum {
  std::string name;
  std::string full_name;  // "pkg.Outer.Status", without a leading dot.
  std::vector<ProtoEnumValue> values;

  // The first value declared with `number`, or null.
  const ProtoEnumValue* Find(int32_t number) const;
};

struct ProtoMessage {
  std::string name;
  std::string full_name;
  std::vector<ProtoField> fields;  // In declaration order.
  std::vector<std::string> oneofs;
  std::vector<std::unique_ptr<ProtoMessage>> nested;  // Map entries included.
  std::vector<std::unique_ptr<ProtoEnum>> enums;
  bool map_entry = false;  // A map<K, V> field's entry: key = 1, value = 2.
  WellKnown well_known = WellKnown::kNone;

  const ProtoField* FieldByNumber(int32_t number) const;
  const ProtoField* FieldByName(std::string_view name) const;
};

inline bool ProtoField::IsMap() const { return label == ProtoLabel::kRepeated && message != nullptr && message->map_entry; }

class ProtoSchema {
 public:
  static constexpr size_t kMaxSchemaBytes = size_t{1} << 20;
  static constexpr int kMaxNesting = 32;
  static constexpr size_t kMaxImports = 256;  // As the registry bounds a schema's references.

  // Text or base64 descriptor, told apart by their characters (a .proto text always has a
  // space, `;` or `{`, which base64 never has).
  static Result<ProtoSchema> Parse(std::string_view schema);
  static Result<ProtoSchema> ParseText(std::string_view text);
  static Result<ProtoSchema> ParseDescriptor(std::string_view serialized);
  // A schema whose imports other than the well-known ones are among `imports`, each listed
  // before the files that import it (dependencies first; a file can only import files listed
  // before it, so an import cycle is an unknown import). Field types resolve to the messages
  // and enums of the imported files too, by full name or relative to the scope, and also to
  // those of files imported indirectly (as if imported publicly: protoc would ask for the
  // import, the meaning is the same). InvalidArgument, naming the file, when an import is
  // not among `imports`, a name is defined by two files, or an imported file is invalid.
  static Result<ProtoSchema> ParseWithImports(std::string_view schema, std::span<const ProtoImport> imports);

  ProtoSchema(ProtoSchema&&) noexcept;
  ProtoSchema& operator=(ProtoSchema&&) noexcept;
  ~ProtoSchema();

  std::string_view syntax() const;   // "proto2" or "proto3".
  std::string_view package() const;
  const std::vector<std::unique_ptr<ProtoMessage>>& messages() const;  // Top level, in order.
  const std::vector<std::unique_ptr<ProtoEnum>>& enums() const;        // Top level, in order.
  const std::vector<std::string>& imports() const;                     // As written, well-known ones included.

  // The message Confluent's message indexes name: the first index picks a top-level message,
  // each further one a message nested in the previous (map entries count, as they are nested
  // types of the descriptor). Corruption when an index is out of range.
  Result<const ProtoMessage*> MessageAt(std::span<const int32_t> indexes) const;

  // The message with this full name (no leading dot), also of an imported file, or null.
  const ProtoMessage* FindMessage(std::string_view full_name) const;

  struct File;  // The parsed definitions (proto_schema.cc).

 private:
  explicit ProtoSchema(std::unique_ptr<File> file);
  std::unique_ptr<File> file_;
};

}  // namespace floe::protobuf
