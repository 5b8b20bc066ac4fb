// Fuzz target: bytes as newline-delimited JSON order events, decoded into the columns of
// shop.orders exactly as the stream job does. Bad lines must become line errors (dead letters),
// never a crash, and must not stop the good lines around them. The same bytes are decoded again
// with the flat fast path off: both must give the same rows and the same errors (it aborts if not).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "generator/order_event.h"
#include "iceberg/schema_json.h"

namespace {

std::unique_ptr<floe::formats::JsonEventDecoder> MakeOrdersDecoder(bool flat_fast_path) {
  auto schema = floe::iceberg::SchemaFromJson(floe::generator::OrdersSchemaJson());
  if (!schema) std::abort();
  auto fields = floe::formats::BatchFieldsFromSchema(*schema);
  if (!fields) std::abort();
  auto decoder = floe::formats::JsonEventDecoder::Make(*fields, floe::formats::EpochUnit::kMillis);
  if (!decoder) std::abort();
  (*decoder)->set_flat_fast_path(flat_fast_path);
  return std::move(*decoder);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<floe::formats::JsonEventDecoder> fast = MakeOrdersDecoder(true);
  static std::unique_ptr<floe::formats::JsonEventDecoder> general = MakeOrdersDecoder(false);
  std::string text(reinterpret_cast<const char*>(data), size);
  text.append(floe::formats::JsonEventDecoder::kPadding, '\0');
  fast->DecodeLines(std::string_view(text.data(), size), 1);
  general->DecodeLines(std::string_view(text.data(), size), 1);
  floe::formats::ColumnBatch a = fast->TakeBatch();
  floe::formats::ColumnBatch b = general->TakeBatch();
  if (a.num_rows != b.num_rows) std::abort();
  for (size_t c = 0; c < a.columns.size(); ++c) {
    if (!floe::formats::SameSlots(a.columns[c], b.columns[c])) std::abort();
  }
  if (fast->errors().size() != general->errors().size()) std::abort();
  for (size_t i = 0; i < fast->errors().size(); ++i) {
    if (fast->errors()[i].line != general->errors()[i].line || fast->errors()[i].message != general->errors()[i].message) std::abort();
  }
  fast->ClearErrors();
  general->ClearErrors();
  return 0;
}
