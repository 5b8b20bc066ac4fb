// RestCatalog: the Catalog over any Iceberg REST catalog (floe's own `floe catalog`, Polaris,
// Lakekeeper, the Java fixture), used by every floe role whose catalog URI is http(s)://. It
// reads GET /v1/config once for the server's prefix, sends commits as requirements and updates
// and maps the spec's error bodies back onto floe error kinds (see rest_error.h). Auth: a static
// bearer token (FLOE_CATALOG_TOKEN), or client credentials "id:secret"
// (FLOE_CATALOG_CREDENTIAL, or the first line of the 0600 file FLOE_CATALOG_CREDENTIAL_FILE
// names) exchanged at POST /v1/oauth/tokens and exchanged again when the
// token nears expiry or the server answers 401. Thread-safe: the HTTP client pools
// connections; the token is guarded by a mutex.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "net/http_client.h"

namespace floe::catalog {

inline constexpr size_t kMaxRestCatalogServers = 8;

class RestCatalog final : public Catalog {
 public:
  // `uri`: "http://host:port" (with or without a trailing "/v1"); `warehouse` is passed to
  // /v1/config and, when the server names no prefix, used as the prefix. Several servers of one
  // catalog (sharing its database) may be listed, comma-separated: a request that cannot reach
  // one (no connection, no answer) goes to the next, and the one that answered is asked first
  // from then on. Only unreachable servers are skipped, never an answer, so a commit reaches at
  // most one server that answers it; one whose answer was lost is refused by its requirements
  // when sent again.
  static Result<std::unique_ptr<RestCatalog>> Open(std::string uri, std::string warehouse = "",
                                                   std::string token = "", std::string credential = "");

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Result<PropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                                     const Properties& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<bool> TableExists(const TableIdentifier& id) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& id, const TableCreation& creation, bool stage) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, std::string_view metadata_location,
                                    bool overwrite) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;

  Result<LoadedTable> CommitTable(const TableCommit& commit) override;
  Status CommitTransaction(const std::vector<TableCommit>& commits) override;

  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Result<bool> ViewExists(const TableIdentifier& id) override;
  Result<LoadedView> LoadView(const TableIdentifier& id) override;
  Result<LoadedView> CreateView(const TableIdentifier& id, const ViewCreation& creation) override;
  Result<LoadedView> CommitView(const ViewCommit& commit) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DropView(const TableIdentifier& id) override;

 private:
  RestCatalog(std::vector<std::string> bases, std::string warehouse, std::string token, std::string credential)
      : bases_(std::move(bases)),
        warehouse_(std::move(warehouse)),
        token_(std::move(token)),
        credential_(std::move(credential)) {}

  // Sends `request` to `path` on the server that answered last, or on the next ones while a
  // server cannot be reached.
  Result<net::HttpResponse> SendToAnyServer(net::HttpClientRequest& request, const std::string& path);

  // Exchanges credential_ for a new token.
  Status FetchToken();
  std::string CurrentToken();

  Status LoadConfig();
  // Sends and returns the response; HTTP errors become floe errors unless `status_ok(status)`.
  Result<net::HttpResponse> Call(std::string_view method, const std::string& path, const std::string& body,
                                 std::string_view what);
  std::string NamespacePath(const Namespace& ns) const;
  std::string TablePath(const TableIdentifier& id) const;
  static Result<LoadedTable> ParseLoadResult(const std::string& body);
  std::string ViewPath(const TableIdentifier& id) const;
  static Result<LoadedView> ParseLoadViewResult(const std::string& body);

  std::vector<std::string> bases_;    // "http://host:port", one per server.
  std::atomic<size_t> preferred_{0};  // The index in bases_ of the server that answered last.
  std::string prefix_;  // "/v1" or "/v1/<prefix>"
  std::string warehouse_;
  std::mutex token_mu_;
  std::string token_;  // Guarded by token_mu_.
  std::chrono::steady_clock::time_point token_expiry_ = std::chrono::steady_clock::time_point::max();  // Guarded.
  std::string credential_;
  net::HttpClient client_;
};

}  // namespace floe::catalog
