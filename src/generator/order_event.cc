#include "generator/order_event.h"

#include <fmt/format.h>

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
    fmt::format_to(std::back_inserter(*out), R"("{}"}})", *event.coupon);
  } else {
    out->append("null}");
  }
}

std::string_view EventIdOf(std::string_view json) {
  constexpr std::string_view kPrefix = R"({"event_id":")";
  if (!json.starts_with(kPrefix)) return {};
  json.remove_prefix(kPrefix.size());
  auto end = json.find('"');
  return end == std::string_view::npos ? std::string_view() : json.substr(0, end);
}

std::string_view OrdersSchemaJson() {
  return R"({"type":"struct","schema-id":0,"identifier-field-ids":[1],"fields":[
  {"id":1,"name":"event_id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":true,"type":"timestamptz"},
  {"id":3,"name":"type","required":true,"type":"string"},
  {"id":4,"name":"order_id","required":true,"type":"long"},
  {"id":5,"name":"customer_id","required":true,"type":"long"},
  {"id":6,"name":"region","required":true,"type":"string"},
  {"id":7,"name":"items","required":true,"type":"int"},
  {"id":8,"name":"amount","required":true,"type":"double"},
  {"id":9,"name":"currency","required":true,"type":"string"},
  {"id":10,"name":"coupon","required":false,"type":"string"}]})";
}

}  // namespace floe::generator
