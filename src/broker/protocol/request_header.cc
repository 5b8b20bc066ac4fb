#include "broker/protocol/request_header.h"

#include "base/bytes.h"

namespace floe::broker {

Result<RequestHeader> ParseRequestHeader(WireReader& reader) {
  RequestHeader header;
  reader.set_flexible(false);
  FLOE_ASSIGN_OR_RETURN(header.api_key, reader.Int16("request api_key"));
  FLOE_ASSIGN_OR_RETURN(header.api_version, reader.Int16("request api_version"));
  FLOE_ASSIGN_OR_RETURN(header.correlation_id, reader.Int32("request correlation_id"));
  // client_id stays a classic nullable string even in header v2.
  FLOE_ASSIGN_OR_RETURN(auto client_id, reader.NullableString("request client_id"));
  if (client_id) header.client_id = std::string(*client_id);
  header.api = FindApi(header.api_key);
  if (!header.api) return header;
  header.version_supported =
      header.api_version >= header.api->min_version && header.api_version <= header.api->max_version;
  header.flexible = IsFlexible(*header.api, header.api_version);
  if (header.flexible && header.version_supported) {
    reader.set_flexible(true);
    FLOE_RETURN_IF_ERROR(reader.SkipTaggedFields("request header tagged fields"));
  }
  reader.set_flexible(header.flexible);
  return header;
}

void BeginResponse(std::string* out, const RequestHeader& header) {
  ByteWriter writer(out);
  writer.AppendBig<int32_t>(0);
  writer.AppendBig<int32_t>(header.correlation_id);
  if (header.flexible && header.api_key != static_cast<int16_t>(ApiKey::kApiVersions)) {
    writer.AppendUnsignedVarint(0);
  }
}

void FinishResponse(std::string* out, uint64_t external_bytes) {
  ByteWriter writer(out);
  writer.PatchBig<int32_t>(0, static_cast<int32_t>(out->size() - 4 + external_bytes));
}

}  // namespace floe::broker
