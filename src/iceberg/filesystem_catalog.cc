#include "iceberg/filesystem_catalog.h"

#include <filesystem>

namespace floe::iceberg {

Result<TableIdentifier> TableIdentifier::Parse(std::string_view text) {
  TableIdentifier id;
  size_t start = 0;
  std::vector<std::string> parts;
  while (true) {
    size_t dot = text.find('.', start);
    std::string part(text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (part.empty() || part == ".." || part.find('/') != std::string::npos) {
      return InvalidArgument("table name '{}': expected NAMESPACE.NAME", text);
    }
    parts.push_back(std::move(part));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() < 2) return InvalidArgument("table name '{}': expected NAMESPACE.NAME", text);
  id.name = parts.back();
  parts.pop_back();
  id.namespace_parts = std::move(parts);
  return id;
}

std::string TableIdentifier::ToString() const {
  std::string out;
  for (const std::string& p : namespace_parts) out += p + ".";
  return out + name;
}

std::string TableIdentifier::FolderKey() const {
  std::string out;
  for (const std::string& p : namespace_parts) out += p + "/";
  return out + name;
}

Result<std::unique_ptr<FileSystemCatalog>> FileSystemCatalog::Open(std::string_view warehouse_uri) {
  std::string uri(warehouse_uri);
  if (!uri.starts_with("s3://") && !uri.starts_with("s3a://") && !uri.starts_with("file:")) {
    uri = std::filesystem::absolute(uri).lexically_normal().string();
  }
  if (uri.starts_with("/")) std::filesystem::create_directories(uri);
  if (uri.starts_with("file://")) std::filesystem::create_directories(uri.substr(7));
  FLOE_ASSIGN_OR_RETURN(auto store, io::OpenObjectStore(uri));
  return std::make_unique<FileSystemCatalog>(std::shared_ptr<io::ObjectStore>(std::move(store)));
}

std::shared_ptr<TableOperations> FileSystemCatalog::Operations(const TableIdentifier& id) const {
  return std::make_shared<FileSystemTableOperations>(store_, id.FolderKey());
}

Result<std::unique_ptr<Table>> FileSystemCatalog::LoadTable(const TableIdentifier& id) const {
  auto table = Table::Load(Operations(id));
  if (!table && table.error().kind() == ErrorKind::kNotFound) {
    return NotFound("no table {} in {}", id.ToString(), store_->Uri(""));
  }
  return table;
}

Result<std::unique_ptr<Table>> FileSystemCatalog::CreateTable(const TableIdentifier& id, const Schema& schema,
                                                              const std::vector<PartitionField>& partition_fields,
                                                              std::map<std::string, std::string> properties) const {
  auto ops = Operations(id);
  if (ops->Refresh()) return AlreadyExists("table {} already exists", id.ToString());
  return Table::Create(std::move(ops), schema, partition_fields, std::move(properties));
}

bool LooksLikePath(std::string_view text) {
  return text.find('/') != std::string_view::npos || text.find("://") != std::string_view::npos;
}

Result<std::shared_ptr<TableOperations>> OpenTableOperationsAt(std::string_view path_or_uri) {
  std::string uri(path_or_uri);
  bool remote = uri.starts_with("s3://") || uri.starts_with("s3a://");
  if (!remote) {
    std::string path = NormalizeLocation(uri);
    if (!path.starts_with("/")) path = std::filesystem::absolute(path).lexically_normal().string();
    uri = "file://" + path;
  }
  while (uri.size() > 1 && uri.back() == '/') uri.pop_back();
  std::optional<std::string> metadata_file;
  if (uri.ends_with(".metadata.json")) {
    size_t slash = uri.rfind('/');
    metadata_file = uri.substr(slash + 1);
    uri = uri.substr(0, slash);
    if (uri.ends_with("/metadata")) {
      uri = uri.substr(0, uri.size() - 9);
    } else {
      return InvalidArgument("{}: a metadata file must be in the table's metadata/ folder", path_or_uri);
    }
  }
  if (!remote && !std::filesystem::exists(NormalizeLocation(uri))) return NotFound("no table folder at {}", uri);
  FLOE_ASSIGN_OR_RETURN(auto store, io::OpenObjectStore(uri));
  auto ops = std::make_shared<FileSystemTableOperations>(std::shared_ptr<io::ObjectStore>(std::move(store)), "");
  if (metadata_file) ops->PinMetadataFile("metadata/" + *metadata_file);
  return std::shared_ptr<TableOperations>(std::move(ops));
}

Result<std::unique_ptr<Table>> OpenTableAt(std::string_view path_or_uri) {
  FLOE_ASSIGN_OR_RETURN(auto ops, OpenTableOperationsAt(path_or_uri));
  return Table::Load(std::move(ops));
}

}  // namespace floe::iceberg
