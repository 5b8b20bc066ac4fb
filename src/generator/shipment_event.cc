#include "generator/shipment_event.h"

#include <fmt/format.h>

namespace floe::generator {

void AppendShipmentEventJson(const ShipmentEvent& shipment, std::string* out) {
  // Plain ASCII without quotes or backslashes throughout, as in AppendOrderEventJson.
  fmt::format_to(std::back_inserter(*out),
                 R"({{"shipment_id":"{}","ts":{},"order_id":{},"carrier":"{}","tracking_number":"{}",)"
                 R"("country":"{}"}})",
                 shipment.shipment_id, shipment.ts_millis, shipment.order_id, shipment.carrier,
                 shipment.tracking_number, shipment.country);
}

std::string_view ShipmentsSchemaJson() {
  return R"({"type":"struct","schema-id":0,"identifier-field-ids":[1],"fields":[
  {"id":1,"name":"shipment_id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":true,"type":"timestamptz"},
  {"id":3,"name":"order_id","required":true,"type":"long"},
  {"id":4,"name":"carrier","required":true,"type":"string"},
  {"id":5,"name":"tracking_number","required":true,"type":"string"},
  {"id":6,"name":"country","required":true,"type":"string"}]})";
}

}  // namespace floe::generator
