// Fuzz target: bytes as SQL text through the whole front end: the pre-parser, libpg_query, the
// AST reader, the binder against an orders table and the optimizer. Errors must carry a
// position; nothing may crash or recurse without bound.
#include <cstdint>
#include <string_view>

#include "sql/binder/binder.h"
#include "sql/catalog/memory_catalog.h"
#include "sql/planner/optimizer.h"
#include "sql/parser/parser.h"

namespace {

floe::sql::MemoryCatalog MakeCatalog() {
  using floe::sql::SqlType;
  floe::sql::MemoryCatalog catalog;
  floe::sql::CatalogTable orders;
  orders.name = {"floe", "shop", "orders"};
  orders.columns = {{"event_id", SqlType::Varchar()},  {"ts", SqlType::TimestampTz()},
                    {"type", SqlType::Varchar()},      {"order_id", SqlType::Bigint()},
                    {"customer_id", SqlType::Bigint()}, {"region", SqlType::Varchar()},
                    {"items", SqlType::Integer()},     {"amount", SqlType::Double()},
                    {"currency", SqlType::Varchar()},   {"coupon", SqlType::Varchar()}};
  orders.estimated_rows = 1'000'000;
  orders.location = "file:///fuzz/shop/orders";
  catalog.AddTable(orders);
  return catalog;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const floe::sql::MemoryCatalog catalog = MakeCatalog();
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto statements = floe::sql::Parse(sql);
  if (!statements) return 0;
  for (const auto& statement : *statements) {
    auto bound = floe::sql::Bind(*statement, sql, catalog, {"floe", "shop"});
    if (!bound || !bound->plan) continue;
    auto optimized = floe::sql::Optimize(std::move(bound->plan));
    if (optimized) (void)floe::sql::ExplainPlan(**optimized);
  }
  return 0;
}
