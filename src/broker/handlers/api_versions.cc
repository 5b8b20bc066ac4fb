// ApiVersions (key 18), v0-3: the table of implemented APIs and versions.
#include "broker/handlers/handler.h"

namespace floe::broker {

void WriteApiVersionsFallback(WireWriter& out) {
  out.Int16(Wire(ErrorCode::kUnsupportedVersion));
  out.ArrayLength(SupportedApis().size());
  for (const ApiSupport& api : SupportedApis()) {
    out.Int16(static_cast<int16_t>(api.key));
    out.Int16(api.AdvertisedMinVersion());
    out.Int16(api.max_version);
  }
}

Status HandleApiVersions(RequestContext& ctx, WireReader& in, WireWriter& out) {
  if (ctx.version() >= 3) {
    FLOE_RETURN_IF_ERROR(in.String("client_software_name"));
    FLOE_RETURN_IF_ERROR(in.String("client_software_version"));
    FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("ApiVersions request"));
  }
  out.Int16(Wire(ErrorCode::kNone));
  out.ArrayLength(SupportedApis().size());
  for (const ApiSupport& api : SupportedApis()) {
    out.Int16(static_cast<int16_t>(api.key));
    out.Int16(api.AdvertisedMinVersion());
    out.Int16(api.max_version);
    out.TaggedFields();
  }
  if (ctx.version() >= 1) out.Int32(0);  // throttle_time_ms
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker
