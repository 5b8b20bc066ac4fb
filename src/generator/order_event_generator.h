// OrderEventGenerator: a deterministic stream of realistic order-service events.
//
// Orders live through consistent lifecycles (created -> paid -> shipped, or cancelled before
// shipping); every event of one order repeats its customer, region, items, amount, currency and
// coupon. Customers are skewed (a few buy a lot), regions weighted, amounts per region's
// currency. A configurable share of the messages is malformed in assorted ways so that dead
// letters are exercised. With payments and shipments on, each valid `paid` event brings one
// payment and each valid `shipped` event one shipment (NextPendingMessage), for the topics of their
// own; they draw on a random source apart from the orders', so the orders stream is the same with
// them or without. The same seed gives the same streams. Not thread-safe: one per producer.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "base/clock.h"
#include "generator/order_event.h"

namespace floe::generator {

struct GeneratorOptions {
  uint64_t seed = 1;
  double malformed_rate = 0.0;  // Share of messages that are not valid events, in [0, 1].
  int64_t customers = 100'000;
  size_t max_open_orders = 10'000;
  int64_t first_order_id = 1;  // Orders are numbered from here on.
  // Orders carry their line items and shipping address (OrderEvent). Off, the stream is the
  // same as before they existed, seed for seed.
  bool line_items = false;
  // Each valid paid event brings a payment (PaymentEvent) for the payments topic.
  bool payments = false;
  // Each valid shipped event brings a shipment (ShipmentEvent) to the order's shipping address,
  // which only orders with line_items have: without them no shipment is made.
  bool shipments = false;
};

// A first order id that no earlier run on this clock can have reached: the run's start
// millisecond (since 2026-01-01) times a thousand. A run would have to make a million orders per
// second of its life to reach the next run's first id, so runs producing into one topic one
// after another (a restarted `floe up`, however quickly) never give two orders one id — the
// keyed shop.order_state would merge them. Stays below 2^53 (exact in every JSON reader) until
// the 2280s.
int64_t UniqueFirstOrderId(const Clock& clock);

// Which topic a message is for.
enum class EventStream { kOrders, kPayments, kShipments };

// One message to produce: the key (the order id, so an order's events, payment and shipment stay
// in one partition number and in order) and the value. `valid` is false for deliberately
// malformed values.
struct GeneratedMessage {
  std::string key;
  std::string value;
  bool valid = true;
  std::string event_id;  // The event's id (event_id, payment_id, shipment_id); empty for malformed messages.
  EventStream stream = EventStream::kOrders;
};

class OrderEventGenerator {
 public:
  OrderEventGenerator(GeneratorOptions options, const Clock& clock);

  // The next event (also used by tests to check lifecycles).
  OrderEvent NextEvent();
  // The next message: a valid event's JSON, or (at malformed_rate) a malformed value.
  GeneratedMessage NextMessage();
  // The next message, always a valid event (the playground's freshness marker).
  GeneratedMessage NextValidMessage();
  // The payment or shipment the last valid order messages brought, oldest first, until none is
  // left: take them after each order message, so each goes out right behind its order event.
  std::optional<GeneratedMessage> NextPendingMessage();

 private:
  struct OpenOrder {
    int64_t order_id;
    int64_t customer_id;
    uint8_t region_index;
    int32_t items;
    double amount;
    int16_t coupon_index;  // -1: none.
    OrderEventType last;
    std::vector<LineItem> lines;  // With options_.line_items only, as the two below.
    uint8_t city_index;
    std::string postal_code;
  };

  std::string NewEventId();
  OrderEvent EventFor(const OpenOrder& order, OrderEventType type);
  OpenOrder NewOrder();
  // Splits the order's items into lines of products (popular ones more often) and sets its
  // amount to their total; picks where it ships to.
  void AddLinesAndAddress(OpenOrder& order);
  std::string MalformedValue();
  // Queues the payment or shipment a valid order event brings, if any.
  void AddPendingFor(const OrderEvent& event);
  std::string NewPendingId();
  int64_t SkewedCustomer();

  GeneratorOptions options_;
  const Clock& clock_;
  std::mt19937_64 rng_;
  std::vector<OpenOrder> open_orders_;
  int64_t next_order_id_ = 1;
  uint64_t event_counter_ = 0;
  // Payments' and shipments' own random source, so they leave the orders' rng_ untouched.
  std::mt19937_64 pending_rng_;
  uint64_t pending_counter_ = 0;
  std::deque<GeneratedMessage> pending_;
};

}  // namespace floe::generator
