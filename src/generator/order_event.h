// One order-service event, the row type of `shop.orders`, and its JSON form.
//
// The JSON field names and types are the contract between the generator, the stream job's
// schema for shop.orders (docs/orders.md) and every dashboard query.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floe::generator {

enum class OrderEventType { kCreated, kPaid, kShipped, kCancelled };

std::string_view OrderEventTypeName(OrderEventType type);

// One line of an order: a product, how many, and its price per unit in the order's currency.
struct LineItem {
  std::string sku;  // "SKU-00042"
  int32_t quantity = 0;
  double unit_price = 0;  // Two decimals.
};

// Where an order ships to.
struct ShippingAddress {
  std::string_view city;
  std::string postal_code;
  std::string_view country;  // ISO 3166-1 alpha-2.
};

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
  // Only with GeneratorOptions::line_items: the order's lines (their quantities add up to
  // `items`, their prices to `amount` before any coupon) and its shipping address.
  std::vector<LineItem> line_items;
  std::optional<ShippingAddress> shipping_address;
};

// Appends the event as one JSON object (no trailing newline).
void AppendOrderEventJson(const OrderEvent& event, std::string* out);

// The Iceberg schema JSON of shop.orders, matching AppendOrderEventJson; with `line_items` it
// also has the optional columns line_items (a list of structs) and shipping_address (a struct).
std::string_view OrdersSchemaJson(bool line_items = false);

}  // namespace floe::generator
