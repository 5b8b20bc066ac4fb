// One shipping-service event, the row type of `shop.shipments`, and its JSON form.
//
// A shipment is what carried an order away: the generator emits exactly one per valid `shipped`
// order event, at that event's time, to the country of the order's shipping address
// (docs/orders.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floe::generator {

struct ShipmentEvent {
  std::string shipment_id;  // 32 lowercase hex characters, unique per shipment.
  int64_t ts_millis = 0;    // The order's `shipped` event's ts.
  int64_t order_id = 0;
  std::string_view carrier;     // One that delivers in `country`.
  std::string tracking_number;  // The carrier's prefix and 12 digits.
  std::string_view country;     // ISO 3166-1 alpha-2, the order's shipping address's.
};

// Appends the shipment as one JSON object, `shipment_id` first (no trailing newline).
void AppendShipmentEventJson(const ShipmentEvent& shipment, std::string* out);

// The Iceberg schema JSON of shop.shipments, matching AppendShipmentEventJson.
std::string_view ShipmentsSchemaJson();

}  // namespace floe::generator
