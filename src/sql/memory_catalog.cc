#include "sql/memory_catalog.h"

namespace floe::sql {

void MemoryCatalog::AddSchema(const std::string& schema) { schemas_[schema]; }

void MemoryCatalog::AddTable(CatalogTable table) {
  table.name.catalog = catalog_name_;
  std::string schema = table.name.schema, name = table.name.table;
  schemas_[schema][name] = std::make_shared<const CatalogTable>(std::move(table));
}

std::vector<std::string> MemoryCatalog::CatalogNames() const { return {catalog_name_}; }

Result<std::vector<std::string>> MemoryCatalog::SchemaNames(std::string_view catalog) const {
  if (catalog != catalog_name_) return NotFound("Catalog '{}' does not exist", catalog);
  std::vector<std::string> out;
  for (const auto& [name, tables] : schemas_) out.push_back(name);
  return out;
}

Result<std::vector<std::string>> MemoryCatalog::TableNames(std::string_view catalog, std::string_view schema) const {
  if (catalog != catalog_name_) return NotFound("Catalog '{}' does not exist", catalog);
  auto it = schemas_.find(std::string(schema));
  if (it == schemas_.end()) return NotFound("Schema '{}' does not exist", schema);
  std::vector<std::string> out;
  for (const auto& [name, table] : it->second) out.push_back(name);
  return out;
}

Result<std::shared_ptr<const CatalogTable>> MemoryCatalog::GetTable(const QualifiedTableName& name,
                                                                    const TableVersion& version) const {
  if (name.catalog != catalog_name_) return NotFound("Catalog '{}' does not exist", name.catalog);
  auto schema = schemas_.find(name.schema);
  if (schema == schemas_.end()) return NotFound("Schema '{}' does not exist", name.schema);
  auto table = schema->second.find(name.table);
  if (table == schema->second.end()) return NotFound("Table '{}' does not exist", name.ToString());
  (void)version;  // Every version of an in-memory table has its one schema.
  return table->second;
}

Result<std::shared_ptr<const CatalogTable>> MemoryCatalog::GetTableAt(std::string_view location,
                                                                      const TableVersion& version) const {
  for (const auto& [schema_name, tables] : schemas_) {
    for (const auto& [table_name, table] : tables) {
      if (!table->location.empty() && table->location == location) return table;
    }
  }
  (void)version;
  return NotFound("No table at '{}'", location);
}

}  // namespace floe::sql
