#include "generator/order_event_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "generator/payment_event.h"
#include "generator/shipment_event.h"

namespace floe::generator {
namespace {

struct Region {
  std::string_view name;
  std::string_view currency;
  double weight;
  double mean_item_price;  // In the region's currency.
};

constexpr Region kRegions[] = {
    {"us-east", "USD", 0.30, 34.0}, {"us-west", "USD", 0.18, 36.0},   {"eu-west", "EUR", 0.22, 31.0},
    {"eu-central", "EUR", 0.10, 29.0}, {"ap-south", "INR", 0.08, 2400.0}, {"ap-northeast", "JPY", 0.07, 4200.0},
    {"sa-east", "BRL", 0.05, 150.0},
};

constexpr std::string_view kCoupons[] = {"WELCOME10", "SPRING15", "FREESHIP", "VIP20", "BUNDLE5"};

// Products are SKU-00000 .. SKU-00499; product p costs its region's mean item price times a
// factor of its own between 0.3 and 2.7 (the same product is dear or cheap everywhere).
constexpr int kProducts = 500;
double ProductPriceFactor(int product) {
  double golden = static_cast<double>(product) * 0.6180339887498949;
  return 0.3 + 2.4 * (golden - std::floor(golden));
}

struct City {
  std::string_view name;
  std::string_view country;
};

// Three cities per region, in kRegions' order.
constexpr City kCities[][3] = {
    {{"New York", "US"}, {"Boston", "US"}, {"Atlanta", "US"}},
    {{"Seattle", "US"}, {"San Francisco", "US"}, {"Los Angeles", "US"}},
    {{"Dublin", "IE"}, {"Paris", "FR"}, {"Amsterdam", "NL"}},
    {{"Berlin", "DE"}, {"Vienna", "AT"}, {"Munich", "DE"}},
    {{"Mumbai", "IN"}, {"Bengaluru", "IN"}, {"Chennai", "IN"}},
    {{"Tokyo", "JP"}, {"Osaka", "JP"}, {"Nagoya", "JP"}},
    {{"Sao Paulo", "BR"}, {"Rio de Janeiro", "BR"}, {"Curitiba", "BR"}},
};

// How a region's customers pay: card, paypal, bank_transfer, wallet (weights), and the local
// bank rails a transfer goes by.
struct PaymentHabits {
  double weights[4];
  std::string_view bank_rail;
};

constexpr std::string_view kPaymentMethods[] = {"card", "paypal", "bank_transfer", "wallet"};

// In kRegions' order.
constexpr PaymentHabits kPaymentHabits[] = {
    {{0.62, 0.18, 0.05, 0.15}, "ach"},  {{0.60, 0.18, 0.05, 0.17}, "ach"}, {{0.50, 0.22, 0.18, 0.10}, "sepa"},
    {{0.38, 0.25, 0.30, 0.07}, "sepa"}, {{0.30, 0.05, 0.50, 0.15}, "upi"}, {{0.60, 0.08, 0.12, 0.20}, "zengin"},
    {{0.40, 0.05, 0.45, 0.10}, "pix"},
};

struct Carrier {
  std::string_view country;
  std::string_view name;
  std::string_view tracking_prefix;
};

// Who delivers where; a country's carriers are adjacent.
constexpr Carrier kCarriers[] = {
    {"US", "ups", "1Z"},           {"US", "fedex", "FX"},    {"US", "usps", "94"},       {"IE", "an_post", "AP"},
    {"IE", "dpd", "DP"},           {"FR", "la_poste", "LP"}, {"FR", "dpd", "DP"},        {"NL", "postnl", "3S"},
    {"NL", "dhl", "JD"},           {"DE", "dhl", "JD"},      {"DE", "dpd", "DP"},        {"DE", "hermes", "HE"},
    {"AT", "austrian_post", "AT"}, {"AT", "dhl", "JD"},      {"IN", "delhivery", "DL"},  {"IN", "bluedart", "BD"},
    {"JP", "yamato", "YM"},        {"JP", "sagawa", "SG"},   {"JP", "japan_post", "JP"}, {"BR", "correios", "BR"},
    {"BR", "jadlog", "JL"},
};

size_t RegionIndex(std::string_view region) {
  for (size_t i = 0; i < std::size(kRegions); ++i) {
    if (kRegions[i].name == region) return i;
  }
  return 0;
}

}  // namespace

int64_t UniqueFirstOrderId(const Clock& clock) {
  constexpr int64_t kEpoch2026Millis = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
  int64_t millis = std::max<int64_t>(0, clock.NowMillis() - kEpoch2026Millis);
  return millis * 1'000 + 1;
}

OrderEventGenerator::OrderEventGenerator(GeneratorOptions options, const Clock& clock)
    : options_(options),
      clock_(clock),
      rng_(options.seed),
      next_order_id_(options.first_order_id),
      pending_rng_(options.seed ^ 0xD1B54A32D192ED03ull) {
  open_orders_.reserve(options_.max_open_orders);
}

std::string OrderEventGenerator::NewEventId() {
  // 128 bits: 64 random bits plus a counter, so ids never repeat within one generator and two
  // generators with different seeds collide only by chance.
  uint64_t random = rng_();
  uint64_t counter = ++event_counter_ ^ (options_.seed * 0x9E3779B97F4A7C15ull);
  return fmt::format("{:016x}{:016x}", random, counter);
}

int64_t OrderEventGenerator::SkewedCustomer() {
  // A power law: customer k is chosen with probability roughly proportional to 1/k^0.8, so
  // "top customers" is a meaningful dashboard.
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double u = unit(rng_);
  double n = static_cast<double>(options_.customers);
  constexpr double kExponent = 0.2;  // 1 - 0.8
  double k = std::pow(u * (std::pow(n, kExponent) - 1.0) + 1.0, 1.0 / kExponent);
  return std::clamp<int64_t>(static_cast<int64_t>(k), 1, options_.customers);
}

OrderEventGenerator::OpenOrder OrderEventGenerator::NewOrder() {
  std::discrete_distribution<int> region_pick({kRegions[0].weight, kRegions[1].weight, kRegions[2].weight,
                                               kRegions[3].weight, kRegions[4].weight, kRegions[5].weight,
                                               kRegions[6].weight});
  std::geometric_distribution<int> extra_items(0.45);
  std::lognormal_distribution<double> price_factor(0.0, 0.6);
  std::uniform_real_distribution<double> unit(0.0, 1.0);

  OpenOrder order{};
  order.order_id = next_order_id_++;
  order.customer_id = SkewedCustomer();
  order.region_index = static_cast<uint8_t>(region_pick(rng_));
  order.items = 1 + std::min(extra_items(rng_), 19);
  double amount = order.items * kRegions[order.region_index].mean_item_price * price_factor(rng_);
  order.coupon_index = -1;
  if (unit(rng_) < 0.15) {
    order.coupon_index = static_cast<int16_t>(rng_() % std::size(kCoupons));
    amount *= 0.9;
  }
  order.amount = std::round(amount * 100.0) / 100.0;
  order.last = OrderEventType::kCreated;
  if (options_.line_items) AddLinesAndAddress(order);
  return order;
}

void OrderEventGenerator::AddLinesAndAddress(OpenOrder& order) {
  std::geometric_distribution<int> extra_lines(0.5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int lines = 1 + std::min({extra_lines(rng_), order.items - 1, 4});
  std::vector<int32_t> quantities(static_cast<size_t>(lines), 1);
  for (int32_t left = order.items - lines; left > 0; --left) ++quantities[rng_() % quantities.size()];
  const Region& region = kRegions[order.region_index];
  double total = 0;
  for (int32_t quantity : quantities) {
    // Popularity falls steeply with the product number (u^3 crowds low numbers), so the
    // dashboard's top products are a few; a product already on the order is not repeated.
    int product = 0;
    std::string sku;
    for (int attempt = 0; attempt < 8; ++attempt) {
      product = std::min(kProducts - 1, static_cast<int>(kProducts * std::pow(unit(rng_), 3.0)));
      sku = fmt::format("SKU-{:05d}", product);
      if (std::none_of(order.lines.begin(), order.lines.end(), [&](const LineItem& l) { return l.sku == sku; })) break;
    }
    double price = std::round(region.mean_item_price * ProductPriceFactor(product) * 100.0) / 100.0;
    order.lines.push_back(LineItem{std::move(sku), quantity, price});
    total += quantity * price;
  }
  if (order.coupon_index >= 0) total *= 0.9;
  order.amount = std::round(total * 100.0) / 100.0;
  order.city_index = static_cast<uint8_t>(rng_() % 3);
  order.postal_code = fmt::format("{:05d}", rng_() % 100'000);
}

OrderEvent OrderEventGenerator::EventFor(const OpenOrder& order, OrderEventType type) {
  const Region& region = kRegions[order.region_index];
  OrderEvent event;
  event.event_id = NewEventId();
  event.ts_millis = clock_.NowMillis();
  event.type = type;
  event.order_id = order.order_id;
  event.customer_id = order.customer_id;
  event.region = region.name;
  event.items = order.items;
  event.amount = order.amount;
  event.currency = region.currency;
  if (order.coupon_index >= 0) event.coupon = kCoupons[order.coupon_index];
  if (options_.line_items) {
    event.line_items = order.lines;
    const City& city = kCities[order.region_index][order.city_index];
    event.shipping_address = ShippingAddress{city.name, order.postal_code, city.country};
  }
  return event;
}

OrderEvent OrderEventGenerator::NextEvent() {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  bool create = open_orders_.empty() || (open_orders_.size() < options_.max_open_orders && unit(rng_) < 0.4);
  if (create) {
    OpenOrder order = NewOrder();
    open_orders_.push_back(order);
    return EventFor(order, OrderEventType::kCreated);
  }
  size_t index = rng_() % open_orders_.size();
  OpenOrder& order = open_orders_[index];
  OrderEventType next;
  double u = unit(rng_);
  if (order.last == OrderEventType::kCreated) {
    next = u < 0.88 ? OrderEventType::kPaid : OrderEventType::kCancelled;
  } else {  // Paid.
    next = u < 0.95 ? OrderEventType::kShipped : OrderEventType::kCancelled;
  }
  order.last = next;
  OrderEvent event = EventFor(order, next);
  if (next == OrderEventType::kShipped || next == OrderEventType::kCancelled) {
    open_orders_[index] = std::move(open_orders_.back());  // The order's life is over.
    open_orders_.pop_back();
  }
  return event;
}

std::string OrderEventGenerator::MalformedValue() {
  OrderEvent event = NextEvent();
  std::string json;
  AppendOrderEventJson(event, &json);
  switch (rng_() % 5) {
    case 0: return json.substr(0, json.size() / 2);  // Truncated mid-object.
    case 1: return "not json at all: " + event.event_id;
    case 2: {  // A non-numeric amount.
      auto at = json.find("\"amount\":");
      return json.substr(0, at) + "\"amount\":\"lots\"" + json.substr(json.find(",\"currency\""));
    }
    case 3: {  // The required event_id missing.
      return json.substr(0, 1) + json.substr(json.find("\"ts\""));
    }
    default: {  // A timestamp that is not a time.
      auto at = json.find("\"ts\":");
      return json.substr(0, at) + "\"ts\":\"yesterday\"" + json.substr(json.find(",\"type\""));
    }
  }
}

GeneratedMessage OrderEventGenerator::NextMessage() {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  GeneratedMessage message;
  if (options_.malformed_rate > 0 && unit(rng_) < options_.malformed_rate) {
    message.value = MalformedValue();
    message.valid = false;
    message.key = fmt::format("malformed-{}", event_counter_);
    return message;
  }
  return NextValidMessage();
}

GeneratedMessage OrderEventGenerator::NextValidMessage() {
  GeneratedMessage message;
  OrderEvent event = NextEvent();
  message.key = fmt::format("{}", event.order_id);
  AppendOrderEventJson(event, &message.value);
  AddPendingFor(event);
  message.event_id = std::move(event.event_id);
  return message;
}

std::optional<GeneratedMessage> OrderEventGenerator::NextPendingMessage() {
  if (pending_.empty()) return std::nullopt;
  GeneratedMessage message = std::move(pending_.front());
  pending_.pop_front();
  return message;
}

std::string OrderEventGenerator::NewPendingId() {
  // As NewEventId: random bits and a counter, so ids never repeat within one generator.
  uint64_t random = pending_rng_();
  uint64_t counter = ++pending_counter_ ^ (options_.seed * 0xBF58476D1CE4E5B9ull);
  return fmt::format("{:016x}{:016x}", random, counter);
}

// Only valid order events bring a payment or shipment (a mangled `paid` event brings none), so
// the tables agree: a payment exists exactly for each paid event shop.orders holds.
void OrderEventGenerator::AddPendingFor(const OrderEvent& event) {
  GeneratedMessage message;
  if (event.type == OrderEventType::kPaid && options_.payments) {
    size_t region = RegionIndex(event.region);
    const PaymentHabits& habits = kPaymentHabits[region];
    std::discrete_distribution<int> method_pick(std::begin(habits.weights), std::end(habits.weights));
    int method = method_pick(pending_rng_);
    PaymentEvent payment{.payment_id = NewPendingId(),
                         .ts_millis = event.ts_millis,
                         .order_id = event.order_id,
                         .method = kPaymentMethods[method],
                         .amount = event.amount,
                         .currency = event.currency};
    switch (method) {
      case 0:
        payment.provider = pending_rng_() % 2 ? "stripe" : "adyen";
        break;
      case 1:
        payment.provider = "paypal";
        break;
      case 2:
        payment.provider = habits.bank_rail;
        break;
      default:
        payment.provider = pending_rng_() % 2 ? "apple_pay" : "google_pay";
        break;
    }
    AppendPaymentEventJson(payment, &message.value);
    message.event_id = payment.payment_id;
    message.stream = EventStream::kPayments;
  } else if (event.type == OrderEventType::kShipped && options_.shipments && event.shipping_address) {
    std::string_view country = event.shipping_address->country;
    std::vector<const Carrier*> carriers;
    for (const Carrier& carrier : kCarriers) {
      if (carrier.country == country) carriers.push_back(&carrier);
    }
    if (carriers.empty()) return;  // Every country of kCities has carriers; a test keeps it so.
    const Carrier& carrier = *carriers[pending_rng_() % carriers.size()];
    ShipmentEvent shipment{
        .shipment_id = NewPendingId(),
        .ts_millis = event.ts_millis,
        .order_id = event.order_id,
        .carrier = carrier.name,
        .tracking_number = fmt::format("{}{:012d}", carrier.tracking_prefix, pending_rng_() % 1'000'000'000'000ull),
        .country = country};
    AppendShipmentEventJson(shipment, &message.value);
    message.event_id = shipment.shipment_id;
    message.stream = EventStream::kShipments;
  } else {
    return;
  }
  message.key = fmt::format("{}", event.order_id);
  pending_.push_back(std::move(message));
}

}  // namespace floe::generator
