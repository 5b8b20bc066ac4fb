#include "generator/payment_event.h"

#include <fmt/format.h>

namespace floe::generator {

void AppendPaymentEventJson(const PaymentEvent& payment, std::string* out) {
  // Plain ASCII without quotes or backslashes throughout, as in AppendOrderEventJson.
  fmt::format_to(std::back_inserter(*out),
                 R"({{"payment_id":"{}","ts":{},"order_id":{},"method":"{}","provider":"{}","amount":{:.2f},)"
                 R"("currency":"{}"}})",
                 payment.payment_id, payment.ts_millis, payment.order_id, payment.method, payment.provider,
                 payment.amount, payment.currency);
}

std::string_view PaymentsSchemaJson() {
  return R"({"type":"struct","schema-id":0,"identifier-field-ids":[1],"fields":[
  {"id":1,"name":"payment_id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":true,"type":"timestamptz"},
  {"id":3,"name":"order_id","required":true,"type":"long"},
  {"id":4,"name":"method","required":true,"type":"string"},
  {"id":5,"name":"provider","required":true,"type":"string"},
  {"id":6,"name":"amount","required":true,"type":"double"},
  {"id":7,"name":"currency","required":true,"type":"string"}]})";
}

}  // namespace floe::generator
