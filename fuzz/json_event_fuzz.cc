// Fuzz target: bytes as newline-delimited JSON order events, decoded into the columns of
// shop.orders exactly as the stream job does. Bad lines must become line errors (dead letters),
// never a crash, and must not stop the good lines around them. The same bytes are decoded again
// with the fast path off: both must give the same rows and the same errors (it aborts if
// not); and both ways again for a schema with nested objects.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "generator/order_event.h"
#include "iceberg/schema_json.h"

namespace {

// A schema with nested objects beside the flat orders schema, so that both paths meet them too.
constexpr char kNestedSchema[] = R"({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":false,"type":"timestamptz"},
  {"id":3,"name":"n","required":false,"type":"long"},
  {"id":4,"name":"price","required":false,"type":"double"},
  {"id":5,"name":"addr","required":false,"type":{"type":"struct","fields":[
     {"id":6,"name":"city","required":false,"type":"string"},
     {"id":7,"name":"zip","required":true,"type":"int"},
     {"id":8,"name":"geo","required":false,"type":{"type":"struct","fields":[
        {"id":9,"name":"lat","required":true,"type":"double"},
        {"id":10,"name":"lon","required":true,"type":"double"}]}}]}},
  {"id":11,"name":"tags","required":false,"type":{"type":"list","element-id":12,"element":"string","element-required":false}}]})";

std::unique_ptr<floe::formats::JsonEventDecoder> MakeDecoder(const std::string& schema_json, bool fast_path) {
  auto schema = floe::iceberg::SchemaFromJson(schema_json);
  if (!schema) std::abort();
  auto fields = floe::formats::BatchFieldsFromSchema(*schema);
  if (!fields) std::abort();
  auto decoder = floe::formats::JsonEventDecoder::Make(*fields, floe::formats::EpochUnit::kMillis);
  if (!decoder) std::abort();
  (*decoder)->set_fast_path(fast_path);
  return std::move(*decoder);
}

// Decodes `text` with both decoders; aborts unless they give the same rows and errors.
void ExpectSameOutcome(floe::formats::JsonEventDecoder& fast, floe::formats::JsonEventDecoder& general, std::string_view text) {
  fast.DecodeLines(text, 1);
  general.DecodeLines(text, 1);
  floe::formats::ColumnBatch a = fast.TakeBatch();
  floe::formats::ColumnBatch b = general.TakeBatch();
  if (a.num_rows != b.num_rows) std::abort();
  for (size_t c = 0; c < a.columns.size(); ++c) {
    if (!floe::formats::SameSlots(a.columns[c], b.columns[c])) std::abort();
  }
  if (fast.errors().size() != general.errors().size()) std::abort();
  for (size_t i = 0; i < fast.errors().size(); ++i) {
    if (fast.errors()[i].line != general.errors()[i].line || fast.errors()[i].message != general.errors()[i].message) std::abort();
  }
  fast.ClearErrors();
  general.ClearErrors();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string orders(floe::generator::OrdersSchemaJson());
  static std::unique_ptr<floe::formats::JsonEventDecoder> fast = MakeDecoder(orders, true);
  static std::unique_ptr<floe::formats::JsonEventDecoder> general = MakeDecoder(orders, false);
  static std::unique_ptr<floe::formats::JsonEventDecoder> nested_fast = MakeDecoder(kNestedSchema, true);
  static std::unique_ptr<floe::formats::JsonEventDecoder> nested_general = MakeDecoder(kNestedSchema, false);
  std::string text(reinterpret_cast<const char*>(data), size);
  text.append(floe::formats::JsonEventDecoder::kPadding, '\0');
  ExpectSameOutcome(*fast, *general, std::string_view(text.data(), size));
  ExpectSameOutcome(*nested_fast, *nested_general, std::string_view(text.data(), size));
  return 0;
}
