// SerializeDescriptor: a parsed ProtoSchema as a serialized google.protobuf.FileDescriptorProto,
// the form Confluent's registry answers with ?format=serialized and its JavaScript serializers
// read (base64 of these bytes). Writes what the parsers read: package, imports, syntax,
// messages (nested, map entries with map_entry set), fields (label, type, fully qualified type
// names, json_name, oneof index; proto3 `optional` as proto3_optional with its synthetic oneof
// "_<name>" after the real ones), enums. Options, services and extensions are not kept by the
// parsers and so are not written. Stateless; any thread.
#pragma once

#include <string>
#include <string_view>

#include "formats/protobuf/proto_schema.h"

namespace floe::protobuf {

std::string SerializeDescriptor(const ProtoSchema& schema, std::string_view file_name);

}  // namespace floe::protobuf
