// Fuzz target: bytes as newline-delimited JSON order events, decoded into the columns of
// shop.orders exactly as the stream job does. Bad lines must become line errors (dead letters),
// never a crash, and must not stop the good lines around them.
#include <cstdint>
#include <memory>
#include <string>

#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "generator/order_event.h"
#include "iceberg/schema_json.h"

namespace {

std::unique_ptr<floe::formats::JsonEventDecoder> MakeOrdersDecoder() {
  auto schema = floe::iceberg::SchemaFromJson(floe::generator::OrdersSchemaJson());
  if (!schema) std::abort();
  auto fields = floe::formats::BatchFieldsFromSchema(*schema);
  if (!fields) std::abort();
  auto decoder = floe::formats::JsonEventDecoder::Make(*fields, floe::formats::EpochUnit::kMillis);
  if (!decoder) std::abort();
  return std::move(*decoder);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<floe::formats::JsonEventDecoder> decoder = MakeOrdersDecoder();
  std::string text(reinterpret_cast<const char*>(data), size);
  text.append(floe::formats::JsonEventDecoder::kPadding, '\0');
  decoder->DecodeLines(std::string_view(text.data(), size), 1);
  (void)decoder->TakeBatch();
  decoder->ClearErrors();
  return 0;
}
