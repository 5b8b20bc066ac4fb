// One order-service event, the row type of `shop.orders`, and its JSON form.
//
// The JSON field names and types are the contract between the generator, the stream job's
// schema for shop.orders (docs/orders.md) and every dashboard query.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floe::generator {

enum class OrderEventType { kCreated, kPaid, kShipped, kCancelled };

std::string_view OrderEventTypeName(OrderEventType type);

struct OrderEvent {
  std::string event_id;  // 32 lowercase hex characters, unique per event.
  int64_t ts_millis = 0;  // Epoch milliseconds.
  OrderEventType type = OrderEventType::kCreated;
  int64_t order_id = 0;
  int64_t customer_id = 0;
  std::string_view region;
  int32_t items = 0;
  double amount = 0;  // In `currency`, two decimals.
  std::string_view currency;
  std::optional<std::string_view> coupon;
};

// Appends the event as one JSON object (no trailing newline).
void AppendOrderEventJson(const OrderEvent& event, std::string* out);

// The event id of a value AppendOrderEventJson wrote (it comes first), or "" if absent.
std::string_view EventIdOf(std::string_view json);

// The Iceberg schema JSON of shop.orders, matching AppendOrderEventJson.
std::string_view OrdersSchemaJson();

}  // namespace floe::generator
