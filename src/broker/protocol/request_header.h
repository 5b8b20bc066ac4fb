// The header that starts every Kafka request (RequestHeader v0-v2) and the framing of responses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "broker/protocol/api_key.h"
#include "broker/protocol/wire.h"

namespace floe::broker {

struct RequestHeader {
  int16_t api_key = 0;
  int16_t api_version = 0;
  int32_t correlation_id = 0;
  std::string client_id;
  // The implemented API, or nullopt for a key the broker does not know.
  std::optional<ApiSupport> api;
  // Whether the version is inside the advertised range.
  bool version_supported = false;
  bool flexible = false;
};

// Parses the header at the start of `frame` (the bytes after the 4-byte size) and leaves
// `reader` at the start of the body. The header version follows from the API and version:
// v2 (tagged fields) for flexible versions, v1 otherwise. An unknown API or version is not an
// error here: the header is still readable up to the client id, and the caller decides.
Result<RequestHeader> ParseRequestHeader(WireReader& reader);

// Starts a response in `out`: a size placeholder, the correlation id and, for flexible
// versions except ApiVersions (always response header v0), an empty tagged-field block.
// FinishResponse patches the size once the body is written.
void BeginResponse(std::string* out, const RequestHeader& header);
// `external_bytes` are sent after parts of `out` without being in it (file regions).
void FinishResponse(std::string* out, uint64_t external_bytes = 0);

}  // namespace floe::broker
