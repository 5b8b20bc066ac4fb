// One payment-service event, the row type of `shop.payments`, and its JSON form.
//
// A payment is what settled an order: the generator emits exactly one per valid `paid` order
// event, at that event's time, for the order's amount in its currency (docs/orders.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floe::generator {

struct PaymentEvent {
  std::string payment_id;  // 32 lowercase hex characters, unique per payment.
  int64_t ts_millis = 0;   // The order's `paid` event's ts.
  int64_t order_id = 0;
  std::string_view method;    // card, paypal, bank_transfer or wallet.
  std::string_view provider;  // Who processed it: depends on the method and the order's region.
  double amount = 0;          // The order's amount, two decimals.
  std::string_view currency;  // The order's currency.
};

// Appends the payment as one JSON object, `payment_id` first (no trailing newline).
void AppendPaymentEventJson(const PaymentEvent& payment, std::string* out);

// The Iceberg schema JSON of shop.payments, matching AppendPaymentEventJson.
std::string_view PaymentsSchemaJson();

}  // namespace floe::generator
