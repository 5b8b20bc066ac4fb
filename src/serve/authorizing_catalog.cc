#include "serve/authorizing_catalog.h"

#include "sql/catalog/table_scan.h"

namespace floe::serve {
namespace {

// The schema IcebergSqlCatalog gives a table read by location (iceberg_scan('uri')).
constexpr std::string_view kByLocation = "iceberg_scan";

}  // namespace

Status AuthorizingCatalog::Check(auth::Operation operation, std::string_view schema) const {
  if (auth::Authorize(principal_, {auth::ResourceKind::kNamespace, schema}, operation)) return OkStatus();
  return PermissionDenied("permission denied: user '{}' (role {}) may not {} in schema '{}'", principal_.name,
                          auth::RoleName(principal_.role), auth::OperationName(operation), schema);
}

bool AuthorizingCatalog::Visible(std::string_view schema) const {
  for (auth::Operation operation : auth::kAllOperations) {
    if (auth::Authorize(principal_, {auth::ResourceKind::kNamespace, schema}, operation)) return true;
  }
  return false;
}

std::vector<std::string> AuthorizingCatalog::CatalogNames() const { return inner_.CatalogNames(); }

Result<std::vector<std::string>> AuthorizingCatalog::SchemaNames(std::string_view catalog) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<std::string> names, inner_.SchemaNames(catalog));
  std::erase_if(names, [&](const std::string& schema) { return !Visible(schema); });
  return names;
}

Result<std::vector<std::string>> AuthorizingCatalog::TableNames(std::string_view catalog, std::string_view schema) const {
  if (!Visible(schema)) return std::vector<std::string>{};
  return inner_.TableNames(catalog, schema);
}

Result<std::shared_ptr<const sql::CatalogTable>> AuthorizingCatalog::GetTable(const sql::QualifiedTableName& name,
                                                                              const sql::TableVersion& version) const {
  if (!Visible(name.schema)) return std::unexpected(Check(auth::Operation::kRead, name.schema).error());
  return inner_.GetTable(name, version);
}

Result<std::shared_ptr<const sql::CatalogTable>> AuthorizingCatalog::GetTableAt(std::string_view location,
                                                                                const sql::TableVersion& version) const {
  if (!auth::AllowedEverywhere(principal_, auth::ResourceKind::kNamespace, auth::Operation::kRead)) {
    return PermissionDenied("permission denied: user '{}' (role {}) may not read a table by its location: that needs "
                            "read in every schema",
                            principal_.name, auth::RoleName(principal_.role));
  }
  return inner_.GetTableAt(location, version);
}

Result<std::vector<std::string>> AuthorizingCatalog::ViewNames(std::string_view catalog,
                                                               std::string_view schema) const {
  if (!Visible(schema)) return std::vector<std::string>{};
  return inner_.ViewNames(catalog, schema);
}

Result<std::shared_ptr<const sql::CatalogView>> AuthorizingCatalog::GetView(const sql::QualifiedTableName& name) const {
  if (!Visible(name.schema)) return std::unexpected(Check(auth::Operation::kRead, name.schema).error());
  return inner_.GetView(name);
}

Status AuthorizingCatalog::CreateView(const sql::ViewDefinition& definition) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kCreate, definition.view.name.schema));
  // Replacing changes an existing object, as a view commit through the REST catalog does.
  if (definition.replace && inner_.GetView(definition.view.name).has_value()) {
    FLOE_RETURN_IF_ERROR(Check(auth::Operation::kAlter, definition.view.name.schema));
  }
  if (writable_ == nullptr) return sql::SqlCatalog::CreateView(definition);
  return writable_->CreateView(definition);
}

Status AuthorizingCatalog::DropView(const sql::QualifiedTableName& name) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kDelete, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::DropView(name);
  return writable_->DropView(name);
}

Result<std::unique_ptr<sql::TableScan>> AuthorizingCatalog::OpenScan(const sql::ScanRequest& request) const {
  // A table read by location passed GetTableAt's check; its schema is not a namespace.
  if (request.table != nullptr && request.table->name.schema != kByLocation) {
    FLOE_RETURN_IF_ERROR(Check(auth::Operation::kRead, request.table->name.schema));
  }
  return inner_.OpenScan(request);
}

Status AuthorizingCatalog::CreateSchema(std::string_view catalog, std::string_view schema) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kCreate, schema));
  if (writable_ == nullptr) return sql::SqlCatalog::CreateSchema(catalog, schema);
  return writable_->CreateSchema(catalog, schema);
}

Status AuthorizingCatalog::DropSchema(std::string_view catalog, std::string_view schema) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kDelete, schema));
  if (writable_ == nullptr) return sql::SqlCatalog::DropSchema(catalog, schema);
  return writable_->DropSchema(catalog, schema);
}

Status AuthorizingCatalog::CreateTable(const sql::TableDefinition& definition) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kCreate, definition.name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::CreateTable(definition);
  return writable_->CreateTable(definition);
}

Status AuthorizingCatalog::DropTable(const sql::QualifiedTableName& name) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kDelete, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::DropTable(name);
  return writable_->DropTable(name);
}

Status AuthorizingCatalog::AlterTable(const sql::QualifiedTableName& name, const sql::TableChange& change) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kAlter, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::AlterTable(name, change);
  return writable_->AlterTable(name, change);
}

Result<int64_t> AuthorizingCatalog::AppendRows(const sql::QualifiedTableName& name,
                                               std::vector<formats::ColumnBatch> batches) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kWrite, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::AppendRows(name, std::move(batches));
  return writable_->AppendRows(name, std::move(batches));
}

Result<int64_t> AuthorizingCatalog::DeleteRows(const sql::QualifiedTableName& name, const sql::ScanPredicate& pushed,
                                               bool pushed_is_exact, const RowSelector& select) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kWrite, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::DeleteRows(name, pushed, pushed_is_exact, select);
  return writable_->DeleteRows(name, pushed, pushed_is_exact, select);
}

Status AuthorizingCatalog::RewriteRows(const sql::QualifiedTableName& name, const sql::ScanPredicate& pushed,
                                       std::string_view operation, const RowRewriter& rewrite,
                                       const RowAppender& append) {
  FLOE_RETURN_IF_ERROR(Check(auth::Operation::kWrite, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::RewriteRows(name, pushed, operation, rewrite, append);
  return writable_->RewriteRows(name, pushed, operation, rewrite, append);
}

Result<std::string> AuthorizingCatalog::ExecuteProcedure(const sql::QualifiedTableName& name,
                                                         std::string_view procedure,
                                                         const std::map<std::string, sql::Value>& arguments) {
  // ANALYZE ("analyze") records statistics of the data: a write. The maintenance procedures alter.
  FLOE_RETURN_IF_ERROR(Check(procedure == "analyze" ? auth::Operation::kWrite : auth::Operation::kAlter, name.schema));
  if (writable_ == nullptr) return sql::SqlCatalog::ExecuteProcedure(name, procedure, arguments);
  return writable_->ExecuteProcedure(name, procedure, arguments);
}

}  // namespace floe::serve
