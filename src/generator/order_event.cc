#include "generator/order_event.h"

#include <fmt/format.h>

#include <string>

namespace floe::generator {

std::string_view OrderEventTypeName(OrderEventType type) {
  switch (type) {
    case OrderEventType::kCreated: return "created";
    case OrderEventType::kPaid: return "paid";
    case OrderEventType::kShipped: return "shipped";
    case OrderEventType::kCancelled: return "cancelled";
  }
  return "unknown";
}

void AppendOrderEventJson(const OrderEvent& event, std::string* out) {
  // Every string the generator emits is plain ASCII without quotes or backslashes, so no
  // escaping is needed; fmt::format_to writes straight into the caller's buffer.
  fmt::format_to(std::back_inserter(*out),
                 R"({{"event_id":"{}","ts":{},"type":"{}","order_id":{},"customer_id":{},"region":"{}",)"
                 R"("items":{},"amount":{:.2f},"currency":"{}","coupon":)",
                 event.event_id, event.ts_millis, OrderEventTypeName(event.type), event.order_id, event.customer_id,
                 event.region, event.items, event.amount, event.currency);
  if (event.coupon) {
    fmt::format_to(std::back_inserter(*out), R"("{}")", *event.coupon);
  } else {
    out->append("null");
  }
  if (event.shipping_address) {
    out->append(R"(,"line_items":[)");
    for (size_t i = 0; i < event.line_items.size(); ++i) {
      const LineItem& line = event.line_items[i];
      fmt::format_to(std::back_inserter(*out), R"({}{{"sku":"{}","quantity":{},"unit_price":{:.2f}}})", i ? "," : "",
                     line.sku, line.quantity, line.unit_price);
    }
    const ShippingAddress& address = *event.shipping_address;
    fmt::format_to(std::back_inserter(*out),
                   R"(],"shipping_address":{{"city":"{}","postal_code":"{}","country":"{}"}})", address.city,
                   address.postal_code, address.country);
  }
  out->push_back('}');
}

std::string_view OrdersSchemaJson(bool line_items) {
  constexpr std::string_view kFields = R"({"type":"struct","schema-id":0,"identifier-field-ids":[1],"fields":[
  {"id":1,"name":"event_id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":true,"type":"timestamptz"},
  {"id":3,"name":"type","required":true,"type":"string"},
  {"id":4,"name":"order_id","required":true,"type":"long"},
  {"id":5,"name":"customer_id","required":true,"type":"long"},
  {"id":6,"name":"region","required":true,"type":"string"},
  {"id":7,"name":"items","required":true,"type":"int"},
  {"id":8,"name":"amount","required":true,"type":"double"},
  {"id":9,"name":"currency","required":true,"type":"string"},
  {"id":10,"name":"coupon","required":false,"type":"string"})";
  // The address's fields are optional although always set: hyparquet (icebird's Parquet
  // reader) cannot assemble required leaves inside an optional struct.
  constexpr std::string_view kNestedFields = R"(,
  {"id":11,"name":"line_items","required":false,"type":{"type":"list","element-id":12,"element-required":true,
    "element":{"type":"struct","fields":[
      {"id":13,"name":"sku","required":true,"type":"string"},
      {"id":14,"name":"quantity","required":true,"type":"int"},
      {"id":15,"name":"unit_price","required":true,"type":"double"}]}}},
  {"id":16,"name":"shipping_address","required":false,"type":{"type":"struct","fields":[
    {"id":17,"name":"city","required":false,"type":"string"},
    {"id":18,"name":"postal_code","required":false,"type":"string"},
    {"id":19,"name":"country","required":false,"type":"string"}]}})";
  static const std::string plain = std::string(kFields) + "]}";
  static const std::string nested = std::string(kFields) + std::string(kNestedFields) + "]}";
  return line_items ? nested : plain;
}

}  // namespace floe::generator
