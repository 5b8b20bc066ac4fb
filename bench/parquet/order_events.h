// The order-events data set of the Parquet benchmarks: ten columns shaped like the events the
// generator produces (a 32-char id, a timestamp, low-cardinality strings, longs, an int, a
// double, a nullable string), deterministic for a seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "formats/column_batch.h"

namespace floe::bench {

inline std::vector<formats::Field> OrderEventFields() {
  using formats::Primitive;
  using formats::TypeId;
  auto f = [](std::string name, int id, TypeId type, bool nullable) {
    formats::Field field;
    field.name = std::move(name);
    field.id = id;
    field.nullable = nullable;
    field.type = Primitive(type);
    return field;
  };
  return {f("order_id", 1, TypeId::kString, false),     f("event_time", 2, TypeId::kTimestampTz, false),
          f("status", 3, TypeId::kString, false),       f("region", 4, TypeId::kString, false),
          f("customer_id", 5, TypeId::kInt64, false),   f("product_id", 6, TypeId::kInt64, false),
          f("quantity", 7, TypeId::kInt32, false),      f("price", 8, TypeId::kDouble, false),
          f("currency", 9, TypeId::kString, false),     f("coupon", 10, TypeId::kString, true)};
}

struct OrderEvent {
  std::string order_id;
  int64_t event_time_us;
  const char* status;
  const char* region;
  int64_t customer_id, product_id;
  int32_t quantity;
  double price;
  const char* currency;
  const char* coupon;  // nullptr: null
};

class OrderEventGenerator {
 public:
  explicit OrderEventGenerator(uint64_t seed) : rng_(seed) {}
  OrderEvent Next() {
    static const char* kStatus[] = {"created", "paid", "packed", "shipped", "delivered", "cancelled"};
    static const char* kRegion[] = {"eu-west-1", "eu-central-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2",
                                    "ap-south-1", "ap-northeast-1", "ap-southeast-2", "sa-east-1", "ca-central-1", "af-south-1"};
    static const char* kCurrency[] = {"EUR", "USD", "GBP", "JPY"};
    static const char* kCoupon[] = {"SAVE5", "SAVE10", "SAVE15", "WELCOME", "SPRING", "SUMMER", "VIP", "FREESHIP"};
    OrderEvent e;
    uint64_t a = rng_(), b = rng_();
    e.order_id = fmt::format("{:016x}{:016x}", a, b);
    time_us_ += static_cast<int64_t>(rng_() % 2000) * 1000 + static_cast<int64_t>(rng_() % 1000);
    e.event_time_us = time_us_;
    e.status = kStatus[rng_() % 6];
    e.region = kRegion[rng_() % 12];
    e.customer_id = static_cast<int64_t>(rng_() % 1000000);
    e.product_id = static_cast<int64_t>(rng_() % 50000);
    e.quantity = static_cast<int32_t>(1 + rng_() % 10);
    e.price = static_cast<double>(rng_() % 100000) / 100.0;
    e.currency = kCurrency[rng_() % 4];
    e.coupon = rng_() % 5 == 0 ? kCoupon[rng_() % 8] : nullptr;
    return e;
  }

 private:
  std::mt19937_64 rng_;
  int64_t time_us_ = 1767225600000000;  // 2026-01-01T00:00:00Z
};

}  // namespace floe::bench
