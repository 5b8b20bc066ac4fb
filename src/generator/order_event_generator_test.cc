#include "generator/order_event_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "generator/payment_event.h"
#include "generator/shipment_event.h"

namespace floe::generator {
namespace {

TEST(OrderEventGenerator, LifecyclesAreConsistent) {
  ManualClock clock(1'700'000'000'000);
  OrderEventGenerator generator({.seed = 7, .max_open_orders = 500}, clock);
  std::map<int64_t, std::vector<OrderEvent>> orders;
  std::set<std::string> ids;
  for (int i = 0; i < 50'000; ++i) {
    OrderEvent e = generator.NextEvent();
    EXPECT_EQ(e.event_id.size(), 32u);
    EXPECT_TRUE(ids.insert(e.event_id).second) << "duplicate event id " << e.event_id;
    orders[e.order_id].push_back(e);
  }
  size_t shipped = 0, cancelled = 0;
  for (const auto& [order_id, events] : orders) {
    ASSERT_EQ(events.front().type, OrderEventType::kCreated) << order_id;
    for (size_t i = 1; i < events.size(); ++i) {
      const OrderEvent& prev = events[i - 1];
      const OrderEvent& e = events[i];
      EXPECT_EQ(e.customer_id, prev.customer_id);
      EXPECT_EQ(e.region, prev.region);
      EXPECT_EQ(e.amount, prev.amount);
      EXPECT_EQ(e.items, prev.items);
      EXPECT_EQ(e.coupon, prev.coupon);
      bool allowed = (prev.type == OrderEventType::kCreated &&
                      (e.type == OrderEventType::kPaid || e.type == OrderEventType::kCancelled)) ||
                     (prev.type == OrderEventType::kPaid &&
                      (e.type == OrderEventType::kShipped || e.type == OrderEventType::kCancelled));
      EXPECT_TRUE(allowed) << OrderEventTypeName(prev.type) << " -> " << OrderEventTypeName(e.type);
    }
    shipped += events.back().type == OrderEventType::kShipped;
    cancelled += events.back().type == OrderEventType::kCancelled;
  }
  EXPECT_GT(shipped, cancelled);  // Most orders that finish ship.
  EXPECT_GT(cancelled, 0u);
}

TEST(OrderEventGenerator, CustomersAreSkewed) {
  ManualClock clock(0);
  OrderEventGenerator generator({.seed = 3, .customers = 10'000}, clock);
  std::map<int64_t, int> created_by_customer;
  int created = 0;
  for (int i = 0; i < 100'000; ++i) {
    OrderEvent e = generator.NextEvent();
    if (e.type != OrderEventType::kCreated) continue;
    ++created_by_customer[e.customer_id];
    ++created;
    EXPECT_GE(e.customer_id, 1);
    EXPECT_LE(e.customer_id, 10'000);
  }
  // The busiest 1% of customers place far more than 1% of orders.
  std::vector<int> counts;
  for (const auto& [c, n] : created_by_customer) counts.push_back(n);
  std::sort(counts.rbegin(), counts.rend());
  int top = 0;
  for (size_t i = 0; i < 100 && i < counts.size(); ++i) top += counts[i];
  EXPECT_GT(top, created / 10);
}

TEST(OrderEventGenerator, SameSeedSameStream) {
  ManualClock clock(5);
  OrderEventGenerator a({.seed = 11, .malformed_rate = 0.1}, clock);
  OrderEventGenerator b({.seed = 11, .malformed_rate = 0.1}, clock);
  for (int i = 0; i < 1000; ++i) {
    auto ma = a.NextMessage();
    auto mb = b.NextMessage();
    EXPECT_EQ(ma.key, mb.key);
    EXPECT_EQ(ma.value, mb.value);
  }
}

// A valid message is a JSON object with every field of the schema and the right JSON types.
bool IsValidEvent(const std::string& value) {
  auto j = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return false;
  return j.contains("event_id") && j["event_id"].is_string() && j["ts"].is_number_integer() &&
         j["type"].is_string() && j["order_id"].is_number_integer() && j["customer_id"].is_number_integer() &&
         j["region"].is_string() && j["items"].is_number_integer() && j["amount"].is_number() &&
         j["currency"].is_string() && (j["coupon"].is_null() || j["coupon"].is_string());
}

TEST(OrderEventGenerator, MalformedMessagesAreMalformedAndValidOnesValid) {
  ManualClock clock(1'700'000'000'000);
  OrderEventGenerator generator({.seed = 5, .malformed_rate = 0.2}, clock);
  int malformed = 0;
  for (int i = 0; i < 5000; ++i) {
    GeneratedMessage m = generator.NextMessage();
    EXPECT_EQ(IsValidEvent(m.value), m.valid) << m.value;
    if (m.valid) {
      EXPECT_EQ(nlohmann::json::parse(m.value)["event_id"], m.event_id);
      EXPECT_EQ(m.key, std::to_string(nlohmann::json::parse(m.value)["order_id"].get<int64_t>()));
    }
    malformed += !m.valid;
  }
  EXPECT_GT(malformed, 800);
  EXPECT_LT(malformed, 1200);
}

TEST(OrderEventGenerator, SchemaJsonNamesEveryField) {
  auto schema = nlohmann::json::parse(OrdersSchemaJson());
  std::vector<std::string> names;
  for (const auto& f : schema["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"event_id", "ts", "type", "order_id", "customer_id", "region", "items",
                                             "amount", "currency", "coupon"}));
}

TEST(OrderEventGenerator, RunsNumberTheirOrdersApart) {
  ManualClock clock(1'767'225'600'000 + 5'000);  // 2026-01-01T00:00:05Z
  EXPECT_EQ(UniqueFirstOrderId(clock), 5'000'001);
  OrderEventGenerator first({.seed = 1, .first_order_id = UniqueFirstOrderId(clock)}, clock);
  int64_t highest = 0;
  for (int i = 0; i < 10'000; ++i) highest = std::max(highest, first.NextEvent().order_id);
  EXPECT_GE(highest, 5'000'001);
  // A run started 10 ms later (floe up stopped and started again at once) begins past
  // everything the first made in those 10 ms, even at 10,000 events in them.
  clock.AdvanceMillis(10);
  OrderEventGenerator second({.seed = 1, .first_order_id = UniqueFirstOrderId(clock)}, clock);
  EXPECT_EQ(second.NextEvent().order_id, 5'010'001);
  EXPECT_LT(highest, 5'010'001);
  // The default still starts at 1, so a seed repeats a stream exactly.
  EXPECT_EQ(OrderEventGenerator({.seed = 1}, clock).NextEvent().order_id, 1);
}

// With line items, each order's lines add up to its items and (before a coupon's 10%) its
// amount, every event of the order repeats them and its address, and the JSON carries them in
// the shape the line-items schema declares. Without, no event has them.
TEST(OrderEventGenerator, LineItemsAddUpToTheOrder) {
  ManualClock clock(1'700'000'000'000);
  OrderEventGenerator generator({.seed = 11, .max_open_orders = 300, .line_items = true}, clock);
  std::map<int64_t, OrderEvent> created;
  std::map<std::string, int> units;
  for (int i = 0; i < 20'000; ++i) {
    OrderEvent e = generator.NextEvent();
    ASSERT_FALSE(e.line_items.empty());
    ASSERT_TRUE(e.shipping_address.has_value());
    if (e.type == OrderEventType::kCreated) {
      int32_t quantity = 0;
      double total = 0;
      for (const LineItem& line : e.line_items) {
        EXPECT_GE(line.quantity, 1);
        EXPECT_GT(line.unit_price, 0);
        quantity += line.quantity;
        total += line.quantity * line.unit_price;
        units[line.sku] += line.quantity;
      }
      EXPECT_EQ(quantity, e.items);
      EXPECT_NEAR(e.amount, e.coupon ? total * 0.9 : total, 0.006) << e.order_id;
      EXPECT_EQ(e.shipping_address->postal_code.size(), 5u);
      created[e.order_id] = e;
    } else if (auto it = created.find(e.order_id); it != created.end()) {
      ASSERT_EQ(e.line_items.size(), it->second.line_items.size());
      for (size_t l = 0; l < e.line_items.size(); ++l) EXPECT_EQ(e.line_items[l].sku, it->second.line_items[l].sku);
      EXPECT_EQ(e.shipping_address->city, it->second.shipping_address->city);
      EXPECT_EQ(e.shipping_address->postal_code, it->second.shipping_address->postal_code);
    }
  }
  // Popular products: the top ten sell far more than the median one.
  std::vector<int> sold;
  for (const auto& [sku, n] : units) sold.push_back(n);
  std::sort(sold.rbegin(), sold.rend());
  ASSERT_GT(sold.size(), 100u);
  EXPECT_GT(sold[9], 5 * sold[sold.size() / 2]);

  std::string json;
  AppendOrderEventJson(created.begin()->second, &json);
  auto parsed = nlohmann::json::parse(json);
  ASSERT_TRUE(parsed["line_items"].is_array());
  EXPECT_EQ(parsed["line_items"][0].size(), 3u);
  EXPECT_TRUE(parsed["line_items"][0]["sku"].is_string());
  EXPECT_TRUE(parsed["shipping_address"]["country"].is_string());
  auto schema = nlohmann::json::parse(OrdersSchemaJson(true));
  std::vector<std::string> names;
  for (const auto& f : schema["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names.back(), "shipping_address");
  EXPECT_EQ(names[names.size() - 2], "line_items");

  OrderEventGenerator plain({.seed = 11}, clock);
  json.clear();
  AppendOrderEventJson(plain.NextEvent(), &json);
  EXPECT_EQ(json.find("line_items"), std::string::npos) << json;
  EXPECT_TRUE(nlohmann::json::parse(json).is_object());
}

// With payments and shipments, each valid paid event brings exactly one payment (the order's
// amount and currency, the paid event's time) and each valid shipped event one shipment (to the
// order's country), right behind it, keyed by the order; orders cancelled before they were paid
// have neither, and mangled order events bring nothing.
TEST(OrderEventGenerator, PaymentsAndShipmentsFollowTheirOrders) {
  ManualClock clock(1'700'000'000'000);
  OrderEventGenerator generator({.seed = 13,
                                 .malformed_rate = 0.02,
                                 .max_open_orders = 400,
                                 .line_items = true,
                                 .payments = true,
                                 .shipments = true},
                                clock);
  std::map<int64_t, std::vector<nlohmann::json>> events_by_order, payments_by_order, shipments_by_order;
  std::set<std::string> ids;
  std::set<std::string> methods, carriers, countries;
  for (int i = 0; i < 40'000; ++i) {
    clock.AdvanceMillis(7);
    GeneratedMessage order = generator.NextMessage();
    nlohmann::json event;
    if (order.valid) {
      event = nlohmann::json::parse(order.value);
      events_by_order[event["order_id"].get<int64_t>()].push_back(event);
    }
    while (std::optional<GeneratedMessage> next = generator.NextPendingMessage()) {
      ASSERT_TRUE(order.valid) << "a mangled order event brought " << next->value;
      EXPECT_TRUE(next->valid);
      EXPECT_EQ(next->key, order.key);
      EXPECT_TRUE(ids.insert(next->event_id).second) << "duplicate id " << next->event_id;
      auto value = nlohmann::json::parse(next->value);
      EXPECT_EQ(value["order_id"], event["order_id"]);
      EXPECT_EQ(value["ts"], event["ts"]);
      int64_t order_id = value["order_id"].get<int64_t>();
      if (next->stream == EventStream::kPayments) {
        EXPECT_EQ(event["type"], "paid");
        EXPECT_EQ(value["payment_id"], next->event_id);
        EXPECT_EQ(value["amount"], event["amount"]);
        EXPECT_EQ(value["currency"], event["currency"]);
        EXPECT_TRUE(value["provider"].is_string() && !value["provider"].get<std::string>().empty());
        methods.insert(value["method"].get<std::string>());
        payments_by_order[order_id].push_back(value);
      } else {
        ASSERT_EQ(next->stream, EventStream::kShipments);
        EXPECT_EQ(event["type"], "shipped");
        EXPECT_EQ(value["shipment_id"], next->event_id);
        EXPECT_EQ(value["country"], event["shipping_address"]["country"]);
        EXPECT_EQ(value["tracking_number"].get<std::string>().size(), 14u) << value;
        carriers.insert(value["carrier"].get<std::string>());
        countries.insert(value["country"].get<std::string>());
        shipments_by_order[order_id].push_back(value);
      }
    }
  }
  size_t paid = 0, shipped = 0, cancelled_unpaid = 0;
  for (const auto& [order_id, events] : events_by_order) {
    bool was_paid = false, was_shipped = false, cancelled = false;
    for (const auto& e : events) {
      was_paid |= e["type"] == "paid";
      was_shipped |= e["type"] == "shipped";
      cancelled |= e["type"] == "cancelled";
    }
    EXPECT_EQ(payments_by_order[order_id].size(), was_paid ? 1u : 0u) << order_id;
    EXPECT_EQ(shipments_by_order[order_id].size(), was_shipped ? 1u : 0u) << order_id;
    paid += was_paid;
    shipped += was_shipped;
    cancelled_unpaid += cancelled && !was_paid;
  }
  EXPECT_GT(paid, 5'000u);
  EXPECT_GT(shipped, 3'000u);
  EXPECT_GT(cancelled_unpaid, 100u);
  EXPECT_EQ(methods, (std::set<std::string>{"bank_transfer", "card", "paypal", "wallet"}));
  EXPECT_EQ(countries.size(), 9u);  // Every country orders ship to has carriers.
  EXPECT_GT(carriers.size(), 12u);
}

// The orders stream is the same, seed for seed, with payments and shipments or without: they
// draw on a random source of their own.
TEST(OrderEventGenerator, OrdersAreTheSameWithPaymentsAndShipments) {
  ManualClock clock(1'700'000'000'000);
  OrderEventGenerator plain({.seed = 17, .malformed_rate = 0.05, .line_items = true}, clock);
  OrderEventGenerator with(
      {.seed = 17, .malformed_rate = 0.05, .line_items = true, .payments = true, .shipments = true}, clock);
  size_t pending = 0;
  for (int i = 0; i < 5'000; ++i) {
    GeneratedMessage a = plain.NextMessage();
    GeneratedMessage b = with.NextMessage();
    ASSERT_EQ(a.key, b.key);
    ASSERT_EQ(a.value, b.value);
    EXPECT_FALSE(plain.NextPendingMessage().has_value());
    while (with.NextPendingMessage()) ++pending;
  }
  EXPECT_GT(pending, 1'000u);
}

TEST(OrderEventGenerator, PaymentAndShipmentSchemasNameEveryField) {
  ManualClock clock(1'700'000'000'000);
  OrderEventGenerator generator({.seed = 19, .line_items = true, .payments = true, .shipments = true}, clock);
  std::map<EventStream, nlohmann::json> first;
  for (int i = 0; i < 20'000 && first.size() < 2; ++i) {
    generator.NextMessage();
    while (auto next = generator.NextPendingMessage()) first.emplace(next->stream, nlohmann::json::parse(next->value));
  }
  ASSERT_EQ(first.size(), 2u);
  for (auto [stream, schema_json] : {std::pair{EventStream::kPayments, PaymentsSchemaJson()},
                                     std::pair{EventStream::kShipments, ShipmentsSchemaJson()}}) {
    auto schema = nlohmann::json::parse(schema_json);
    std::vector<std::string> fields, keys;
    for (const auto& f : schema["fields"]) fields.push_back(f["name"]);
    for (const auto& [key, value] : first[stream].items()) keys.push_back(key);
    std::sort(fields.begin(), fields.end());
    EXPECT_EQ(fields, keys);  // nlohmann keeps object keys sorted.
  }
}

}  // namespace
}  // namespace floe::generator
