// The REST server and client together, over a SQLite catalog and a local warehouse.
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalog/open_catalog.h"
#include "catalog/rest_catalog.h"
#include "catalog/rest_server.h"
#include "io/test_folder.h"
#include "net/http_client.h"

namespace floe::catalog {
namespace {

using Json = nlohmann::json;

const char* kSchema = R"({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"ts","required":false,"type":"timestamptz"}]})";

TableCreation Creation() {
  TableCreation creation;
  creation.schema = Json::parse(kSchema);
  return creation;
}

// A commit that appends one snapshot on top of `table`, guarded as Iceberg clients guard it.
TableCommit AppendCommit(const TableIdentifier& id, const LoadedTable& table, int64_t snapshot_id) {
  const Json& m = table.metadata;
  int64_t current = m.value("current-snapshot-id", int64_t{-1});
  TableCommit commit;
  commit.id = id;
  commit.requirements = {std::make_shared<const iceberg::AssertTableUuid>(m["table-uuid"].get<std::string>()),
                         std::make_shared<const iceberg::AssertRefSnapshotId>(
                             "main", current == -1 ? std::nullopt : std::optional<int64_t>(current))};
  Json snapshot = {{"snapshot-id", snapshot_id},
                   {"sequence-number", m["last-sequence-number"].get<int64_t>() + 1},
                   {"timestamp-ms", 1700000000000 + snapshot_id},
                   {"manifest-list", fmt::format("{}/metadata/snap-{}.avro", m["location"].get<std::string>(), snapshot_id)},
                   {"summary", {{"operation", "append"}}},
                   {"schema-id", 0}};
  if (current != -1) {
    snapshot["parent-snapshot-id"] = current;
  }
  commit.updates = {std::make_shared<const iceberg::AddSnapshot>(snapshot),
                    std::make_shared<const iceberg::SetSnapshotRef>("main", snapshot_id)};
  return commit;
}

class RestCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = io::testing::FreshFolder();
    auto backend = OpenCatalog({"sqlite:" + folder_ + "/catalog.db", "file://" + folder_ + "/warehouse"});
    ASSERT_TRUE(backend) << backend.error().ToString();
    backend_ = std::move(*backend);
    RestServerOptions options;
    options.port = 0;
    server_ = std::make_unique<RestCatalogServer>(*backend_, options);
    ASSERT_TRUE(server_->Start());
    url_ = fmt::format("http://127.0.0.1:{}", server_->port());
    auto client = RestCatalog::Open(url_);
    ASSERT_TRUE(client) << client.error().ToString();
    client_ = std::move(*client);
  }
  void TearDown() override {
    if (server_) {
      server_->Stop();
    }
  }

  // A raw request, to see statuses and bodies as a foreign client would.
  net::HttpResponse Raw(std::string method, std::string path, std::string body = "") {
    net::HttpClientRequest request;
    request.method = std::move(method);
    request.url = url_ + path;
    request.body = body;
    auto response = http_.Send(request);
    EXPECT_TRUE(response) << response.error().ToString();
    return response.value_or(net::HttpResponse{});
  }

  std::string folder_;
  std::unique_ptr<Catalog> backend_;
  std::unique_ptr<RestCatalogServer> server_;
  std::string url_;
  std::unique_ptr<RestCatalog> client_;
  net::HttpClient http_;
};

TEST_F(RestCatalogTest, NamespacesAndTablesThroughTheClient) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {{"owner", "ana"}}));
  ASSERT_TRUE(client_->CreateNamespace({"db", "nested"}, {}));
  EXPECT_EQ(client_->CreateNamespace({"db"}, {}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_THAT(*client_->ListNamespaces({}), ::testing::ElementsAre(Namespace{"db"}));
  EXPECT_THAT(*client_->ListNamespaces({"db"}), ::testing::ElementsAre(Namespace{"db", "nested"}));
  EXPECT_TRUE(*client_->NamespaceExists({"db", "nested"}));
  EXPECT_FALSE(*client_->NamespaceExists({"nope"}));
  EXPECT_EQ(client_->LoadNamespaceProperties({"db"})->at("owner"), "ana");

  TableIdentifier t{{"db"}, "events"};
  auto created = client_->CreateTable(t, Creation(), false);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_THAT(created->metadata_location, ::testing::StartsWith("file://" + folder_ + "/warehouse/db/events/metadata/00000-"));
  EXPECT_TRUE(std::filesystem::exists(created->metadata_location.substr(7)));
  EXPECT_EQ(client_->CreateTable(t, Creation(), false).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(client_->CreateTable({{"ghost"}, "x"}, Creation(), false).error().kind(), ErrorKind::kNotFound);
  EXPECT_TRUE(*client_->TableExists(t));
  EXPECT_FALSE(*client_->TableExists({{"db"}, "other"}));
  EXPECT_THAT(*client_->ListTables({"db"}), ::testing::ElementsAre(t));
  auto loaded = client_->LoadTable(t);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata, created->metadata);

  auto missing = client_->LoadTable({{"db"}, "other"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNoSuchTable) << missing.error().ToString();

  auto not_empty = client_->DropNamespace({"db"});
  ASSERT_FALSE(not_empty);
  EXPECT_EQ(not_empty.error().code(), ErrorCode::kNamespaceNotEmpty) << not_empty.error().ToString();

  TableIdentifier moved{{"db", "nested"}, "events2"};
  ASSERT_TRUE(client_->RenameTable(t, moved));
  EXPECT_FALSE(*client_->TableExists(t));
  // The same metadata file under a second name would share the first's folder (a purge of one
  // deletes the other's files): refused while the first exists. Dropped without purge, the
  // table can be adopted again by register, and a purge then removes its files.
  TableIdentifier alias{{"db"}, "alias"};
  auto shared = client_->RegisterTable(alias, created->metadata_location, false);
  ASSERT_FALSE(shared);
  EXPECT_EQ(shared.error().kind(), ErrorKind::kPermissionDenied) << shared.error().ToString();
  ASSERT_TRUE(client_->DropTable(moved, false));
  EXPECT_TRUE(std::filesystem::exists(created->metadata_location.substr(7)));
  auto registered = client_->RegisterTable(alias, created->metadata_location, false);
  ASSERT_TRUE(registered) << registered.error().ToString();
  EXPECT_EQ(registered->metadata, created->metadata);
  ASSERT_TRUE(client_->DropTable(alias, true));
  EXPECT_FALSE(std::filesystem::exists(created->metadata_location.substr(7)));
  EXPECT_EQ(client_->DropTable(alias, true).error().kind(), ErrorKind::kNotFound);
}

TEST_F(RestCatalogTest, CommitsAppendAndStaleRequirementsConflict) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  TableIdentifier t{{"db"}, "t"};
  auto v0 = client_->CreateTable(t, Creation(), false);
  ASSERT_TRUE(v0);
  auto v1 = client_->CommitTable(AppendCommit(t, *v0, 101));
  ASSERT_TRUE(v1) << v1.error().ToString();
  EXPECT_EQ(v1->metadata["current-snapshot-id"], 101);
  EXPECT_THAT(v1->metadata_location, ::testing::HasSubstr("/metadata/00001-"));
  EXPECT_EQ(v1->metadata["metadata-log"][0]["metadata-file"], v0->metadata_location);
  // A writer still on v0 asserts main has no snapshot: 409, and nothing changes.
  auto stale = client_->CommitTable(AppendCommit(t, *v0, 102));
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind(), ErrorKind::kConflict);
  EXPECT_EQ(client_->LoadTable(t)->metadata_location, v1->metadata_location);
}

TEST_F(RestCatalogTest, BadRequestsGetTheSpecsStatusAndBody) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  ASSERT_TRUE(client_->CreateTable({{"db"}, "t"}, Creation(), false));
  auto expect_error = [&](const net::HttpResponse& response, int status, const char* type) {
    EXPECT_EQ(response.status, status) << response.body;
    Json body = Json::parse(response.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << response.body;
    EXPECT_EQ(body["error"]["code"], status);
    EXPECT_EQ(body["error"]["type"], type);
    EXPECT_FALSE(body["error"]["message"].get<std::string>().empty());
  };
  expect_error(Raw("POST", "/v1/namespaces/db/tables/t", "{\"requirements\": [, }"), 400, "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces/db/tables/t", R"({"requirements":[],"updates":[{"action":"explode"}]})"),
               400, "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces/db/tables/t",
                   R"({"requirements":[{"type":"assert-current-schema-id","current-schema-id":7}],"updates":[]})"),
               409, "CommitFailedException");
  expect_error(Raw("POST", "/v1/namespaces/db/tables/t",
                   R"({"requirements":[{"type":"assert-nothing"}],"updates":[]})"),
               400, "BadRequestException");
  expect_error(Raw("GET", "/v1/namespaces/db/tables/nope"), 404, "NoSuchTableException");
  expect_error(Raw("GET", "/v1/namespaces/nope"), 404, "NoSuchNamespaceException");
  expect_error(Raw("POST", "/v1/namespaces/db/tables/nope", R"({"requirements":[],"updates":[]})"), 404,
               "NoSuchTableException");
  expect_error(Raw("POST", "/v1/namespaces", "[1,2]"), 400, "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces", R"({"namespace":"db"})"), 400, "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces", R"({"namespace":["db"]})"), 409, "AlreadyExistsException");
  expect_error(Raw("DELETE", "/v1/namespaces/db"), 409, "NamespaceNotEmptyException");
  EXPECT_EQ(Raw("HEAD", "/v1/namespaces/db/tables/nope").status, 404);
  EXPECT_EQ(Raw("HEAD", "/v1/namespaces/db/tables/t").status, 204);
  EXPECT_EQ(Raw("POST", "/v1/namespaces/db/tables/t/metrics", R"({"report-type":"scan-report"})").status, 204);
  EXPECT_EQ(Raw("GET", "/v1/warehouse1/namespaces/db/tables/t").status, 200);  // With a prefix.
  auto config = Raw("GET", "/v1/config");
  EXPECT_EQ(config.status, 200);
  EXPECT_TRUE(Json::parse(config.body)["endpoints"].is_array());
}

TEST_F(RestCatalogTest, TransactionsCommitAllTablesOrNone) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  TableIdentifier a{{"db"}, "a"};
  TableIdentifier b{{"db"}, "b"};
  auto a0 = client_->CreateTable(a, Creation(), false);
  auto b0 = client_->CreateTable(b, Creation(), false);
  ASSERT_TRUE(a0 && b0);
  auto b1 = client_->CommitTable(AppendCommit(b, *b0, 7));
  ASSERT_TRUE(b1);
  // b's part is stale: neither table moves.
  auto failed = client_->CommitTransaction({AppendCommit(a, *a0, 1), AppendCommit(b, *b0, 8)});
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind(), ErrorKind::kConflict);
  EXPECT_EQ(client_->LoadTable(a)->metadata_location, a0->metadata_location);
  ASSERT_TRUE(client_->CommitTransaction({AppendCommit(a, *a0, 1), AppendCommit(b, *b1, 8)}));
  EXPECT_EQ(client_->LoadTable(a)->metadata["current-snapshot-id"], 1);
  EXPECT_EQ(client_->LoadTable(b)->metadata["current-snapshot-id"], 8);
}

TEST_F(RestCatalogTest, StagedCreateBecomesATableOnItsCommit) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  TableIdentifier t{{"db"}, "staged"};
  auto staged = client_->CreateTable(t, Creation(), true);
  ASSERT_TRUE(staged) << staged.error().ToString();
  EXPECT_TRUE(staged->metadata_location.empty());
  EXPECT_FALSE(*client_->TableExists(t));
  const Json& m = staged->metadata;
  TableCommit commit;
  commit.id = t;
  commit.requirements = {std::make_shared<const iceberg::AssertCreate>()};
  for (const char* json : {R"({"action":"upgrade-format-version","format-version":2})"}) {
    commit.updates.push_back(*iceberg::TableUpdate::FromJson(Json::parse(json)));
  }
  commit.updates.push_back(*iceberg::TableUpdate::FromJson(Json{{"action", "assign-uuid"}, {"uuid", m["table-uuid"]}}));
  commit.updates.push_back(
      *iceberg::TableUpdate::FromJson(Json{{"action", "add-schema"}, {"schema", m["schemas"][0]}}));
  commit.updates.push_back(*iceberg::TableUpdate::FromJson(Json{{"action", "set-current-schema"}, {"schema-id", -1}}));
  commit.updates.push_back(
      *iceberg::TableUpdate::FromJson(Json{{"action", "add-spec"}, {"spec", m["partition-specs"][0]}}));
  commit.updates.push_back(*iceberg::TableUpdate::FromJson(Json{{"action", "set-default-spec"}, {"spec-id", -1}}));
  commit.updates.push_back(
      *iceberg::TableUpdate::FromJson(Json{{"action", "add-sort-order"}, {"sort-order", m["sort-orders"][0]}}));
  commit.updates.push_back(
      *iceberg::TableUpdate::FromJson(Json{{"action", "set-default-sort-order"}, {"sort-order-id", -1}}));
  commit.updates.push_back(
      *iceberg::TableUpdate::FromJson(Json{{"action", "set-location"}, {"location", m["location"]}}));
  auto created = client_->CommitTable(commit);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_EQ(created->metadata["table-uuid"], m["table-uuid"]);
  EXPECT_TRUE(*client_->TableExists(t));
  // The same staged create again: the table exists now, so assert-create fails.
  EXPECT_EQ(client_->CommitTable(commit).error().kind(), ErrorKind::kConflict);
}

TEST_F(RestCatalogTest, ConcurrentCommittersThroughRestLoseNothing) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  TableIdentifier t{{"db"}, "hot"};
  ASSERT_TRUE(client_->CreateTable(t, Creation(), false));
  constexpr int kWriters = 6;
  constexpr int kCommitsEach = 10;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  std::atomic<int> conflicts{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto client = RestCatalog::Open(url_);
      if (!client) {
        ++failures;
        return;
      }
      for (int i = 0; i < kCommitsEach; ++i) {
        int64_t id = (w + 1) * 1000 + i;
        while (true) {
          auto table = (*client)->LoadTable(t);
          if (!table) {
            ++failures;
            return;
          }
          auto committed = (*client)->CommitTable(AppendCommit(t, *table, id));
          if (committed) {
            break;
          }
          if (committed.error().kind() != ErrorKind::kConflict) {
            ++failures;
            return;
          }
          ++conflicts;
        }
      }
    });
  }
  for (auto& writer : writers) {
    writer.join();
  }
  ASSERT_EQ(failures.load(), 0);
  auto table = client_->LoadTable(t);
  ASSERT_TRUE(table);
  const Json& snapshots = table->metadata["snapshots"];
  ASSERT_EQ(snapshots.size(), size_t{kWriters * kCommitsEach});
  std::set<int64_t> ids;
  for (const Json& snapshot : snapshots) {
    EXPECT_TRUE(ids.insert(snapshot["snapshot-id"].get<int64_t>()).second);
  }
  // The history is one line: each snapshot's parent is the one before it.
  int64_t at = table->metadata["current-snapshot-id"].get<int64_t>();
  size_t depth = 0;
  std::map<int64_t, int64_t> parent;
  for (const Json& snapshot : snapshots) {
    parent[snapshot["snapshot-id"]] = snapshot.value("parent-snapshot-id", int64_t{-1});
  }
  while (at != -1 && depth <= snapshots.size()) {
    at = parent.at(at);
    ++depth;
  }
  EXPECT_EQ(depth, snapshots.size());
  EXPECT_EQ(table->metadata["last-sequence-number"], kWriters * kCommitsEach);
}

// Two servers over one SQLite database, as `floe up`'s catalog and its replica: a client that
// lists both carries on through either while the other is down, and commits stay guarded.
TEST_F(RestCatalogTest, AClientListingTwoServersCarriesOnWhileOneIsDown) {
  auto second_backend = OpenCatalog({"sqlite:" + folder_ + "/catalog.db", "file://" + folder_ + "/warehouse"});
  ASSERT_TRUE(second_backend) << second_backend.error().ToString();
  RestServerOptions options;
  options.port = 0;
  auto second = std::make_unique<RestCatalogServer>(**second_backend, options);
  ASSERT_TRUE(second->Start());
  std::string second_url = fmt::format("http://127.0.0.1:{}", second->port());
  auto both = RestCatalog::Open(url_ + "," + second_url + "/v1/");
  ASSERT_TRUE(both) << both.error().ToString();

  TableIdentifier id{{"ha"}, "t"};
  ASSERT_TRUE((*both)->CreateNamespace({"ha"}, {}));
  auto created = (*both)->CreateTable(id, Creation(), false);
  ASSERT_TRUE(created) << created.error().ToString();
  ASSERT_TRUE((*both)->CommitTable(AppendCommit(id, *created, 1)));

  // The first server goes away: the same client commits through the second.
  server_->Stop();
  auto loaded = (*both)->LoadTable(id);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata["current-snapshot-id"], 1);
  ASSERT_TRUE((*both)->CommitTable(AppendCommit(id, *loaded, 2)));
  // A commit on a stale base is still refused, whichever server takes it.
  auto stale = (*both)->CommitTable(AppendCommit(id, *loaded, 3));
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind(), ErrorKind::kConflict) << stale.error().ToString();

  // Both down: the client says the catalog cannot be reached.
  second->Stop();
  auto none = (*both)->LoadTable(id);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind(), ErrorKind::kUnavailable) << none.error().ToString();
  // What the second server committed is in the shared database.
  auto direct = backend_->LoadTable(id);
  ASSERT_TRUE(direct) << direct.error().ToString();
  EXPECT_EQ(direct->metadata["current-snapshot-id"], 2);
  server_.reset();

  for (const char* bad : {"http://a,", "http://a,ftp://b", ",http://a",
                          "http://1,http://2,http://3,http://4,http://5,"
                          "http://6,http://7,http://8,http://9"}) {
    auto refused = RestCatalog::Open(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument) << bad << ": " << refused.error().ToString();
  }
}

TEST(RestCatalogAuthTest, ClientCredentialsAndTokenRefreshAfterARestart) {
  std::string folder = io::testing::FreshFolder();
  auto backend = OpenCatalog({"sqlite:" + folder + "/catalog.db", "file://" + folder + "/warehouse"});
  ASSERT_TRUE(backend);
  auto spark = auth::MakeAuthUser("spark", "s3cret", "admin");
  auto trino = auth::MakeAuthUser("trino", "pw");
  ASSERT_TRUE(spark && trino);
  auto users = std::vector<auth::AuthUser>{*spark, *trino};
  RestServerOptions options;
  options.port = 0;
  auto tokens = std::make_unique<OAuthTokens>(users);
  options.tokens = tokens.get();
  auto server = std::make_unique<RestCatalogServer>(**backend, options);
  ASSERT_TRUE(server->Start());
  uint16_t port = server->port();
  std::string url = fmt::format("http://127.0.0.1:{}", port);

  auto anonymous = RestCatalog::Open(url);
  ASSERT_FALSE(anonymous);
  EXPECT_EQ(anonymous.error().kind(), ErrorKind::kUnauthenticated);
  auto wrong = RestCatalog::Open(url, "", "", "spark:nope");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().kind(), ErrorKind::kUnauthenticated);
  auto client = RestCatalog::Open(url, "", "", "spark:s3cret");
  ASSERT_TRUE(client) << client.error().ToString();
  ASSERT_TRUE((*client)->CreateNamespace({"db"}, {}));

  // A restart forgets every token; the client exchanges its credentials again on the 401.
  server->Stop();
  tokens = std::make_unique<OAuthTokens>(users);
  options.tokens = tokens.get();
  options.port = port;
  server = std::make_unique<RestCatalogServer>(**backend, options);
  ASSERT_TRUE(server->Start());
  EXPECT_TRUE(*(*client)->NamespaceExists({"db"}));
  server->Stop();
}

// Issue #27, finding 6: the token carries its user, and so the role. A reader only reads, a
// writer also commits snapshots, only an admin changes structure; refusals are 403
// ForbiddenException and change nothing.
TEST(RestCatalogAuthTest, RolesDecideWhatEachUserMayDo) {
  std::string folder = io::testing::FreshFolder();
  auto backend = OpenCatalog({"sqlite:" + folder + "/catalog.db", "file://" + folder + "/warehouse"});
  ASSERT_TRUE(backend);
  std::vector<auth::AuthUser> users;
  for (const char* role : {"reader", "writer", "admin"}) {
    auto user = auth::MakeAuthUser(role, "pw", role);
    ASSERT_TRUE(user);
    users.push_back(*user);
  }
  OAuthTokens tokens(users);
  RestServerOptions options;
  options.port = 0;
  options.tokens = &tokens;
  RestCatalogServer server(**backend, options);
  ASSERT_TRUE(server.Start());
  std::string url = fmt::format("http://127.0.0.1:{}", server.port());
  auto open = [&](std::string_view user) {
    auto client = RestCatalog::Open(url, "", "", fmt::format("{}:pw", user));
    EXPECT_TRUE(client) << client.error().ToString();
    return std::move(*client);
  };
  auto reader = open("reader");
  auto writer = open("writer");
  auto admin = open("admin");
  auto forbidden = [](const auto& result) {
    return !result.has_value() && result.error().kind() == ErrorKind::kPermissionDenied;
  };
  TableIdentifier t{{"db"}, "t"};
  EXPECT_TRUE(forbidden(reader->CreateNamespace({"db"}, {})));
  EXPECT_TRUE(forbidden(writer->CreateNamespace({"db"}, {})));
  ASSERT_TRUE(admin->CreateNamespace({"db"}, {}));
  EXPECT_TRUE(forbidden(writer->CreateTable(t, Creation(), false)));
  auto v0 = admin->CreateTable(t, Creation(), false);
  ASSERT_TRUE(v0) << v0.error().ToString();
  // Reading is for everyone.
  EXPECT_TRUE(reader->LoadTable(t));
  EXPECT_THAT(*reader->ListTables({"db"}), ::testing::ElementsAre(t));
  // Data commits: not a reader's; a writer's.
  EXPECT_TRUE(forbidden(reader->CommitTable(AppendCommit(t, *v0, 101))));
  auto v1 = writer->CommitTable(AppendCommit(t, *v0, 101));
  ASSERT_TRUE(v1) << v1.error().ToString();
  // A property change, a rename, a drop (with or without purge): an admin's.
  TableCommit properties{t,
                         {},
                         {std::make_shared<const iceberg::SetProperties>(
                             std::map<std::string, std::string>{{"write.format.default", "avro"}})}};
  EXPECT_TRUE(forbidden(writer->CommitTable(properties)));
  EXPECT_TRUE(forbidden(writer->RenameTable(t, {{"db"}, "u"})));
  EXPECT_TRUE(forbidden(writer->DropTable(t, true)));
  EXPECT_TRUE(forbidden(reader->DropTable(t, false)));
  EXPECT_TRUE(forbidden(writer->DropNamespace({"db"})));
  EXPECT_EQ(admin->LoadTable(t)->metadata_location, v1->metadata_location);  // Nothing changed.
  ASSERT_TRUE(admin->CommitTable(properties));
  ASSERT_TRUE(admin->DropTable(t, true));
  // The refusal is the spec's body, as a foreign client sees it.
  net::HttpClient http;
  auto token = tokens.Issue("writer", "pw");
  ASSERT_TRUE(token);
  net::HttpClientRequest request;
  request.method = "DELETE";
  request.url = url + "/v1/namespaces/db";
  request.headers.Set("Authorization", "Bearer " + *token);
  auto raw = http.Send(request);
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->status, 403);
  EXPECT_EQ(nlohmann::json::parse(raw->body)["error"]["type"], "ForbiddenException");
  server.Stop();
}

// Issue #27: [[grant]] entries narrow or widen a role per namespace on the REST catalog, in the
// path (header) and in the body (create namespace, rename, transactions); refusals are 403.
TEST(RestCatalogAuthTest, GrantsDecidePerNamespace) {
  std::string folder = io::testing::FreshFolder();
  auto backend = OpenCatalog({"sqlite:" + folder + "/catalog.db", "file://" + folder + "/warehouse"});
  ASSERT_TRUE(backend);
  auto users = auth::ParseAuthToml(
      "[[user]]\nname = \"admin\"\npassword = \"pw\"\nrole = \"admin\"\n"
      "[[user]]\nname = \"ana\"\npassword = \"pw\"\nrole = \"reader\"\n"
      "[[user]]\nname = \"bo\"\npassword = \"pw\"\nrole = \"writer\"\n"
      "[[grant]]\nuser = \"ana\"\nnamespace = \"sandbox*\"\nallow = [\"create\", \"write\", \"alter\", \"delete\"]\n"
      "[[grant]]\nuser = \"bo\"\nnamespace = \"finance\"\ndeny = [\"read\", \"write\"]\n",
      "users.toml");
  ASSERT_TRUE(users) << users.error().ToString();
  OAuthTokens tokens(*users);
  RestServerOptions options;
  options.port = 0;
  options.tokens = &tokens;
  RestCatalogServer server(**backend, options);
  ASSERT_TRUE(server.Start());
  std::string url = fmt::format("http://127.0.0.1:{}", server.port());
  auto open = [&](std::string_view user) {
    auto client = RestCatalog::Open(url, "", "", fmt::format("{}:pw", user));
    EXPECT_TRUE(client) << client.error().ToString();
    return std::move(*client);
  };
  auto admin = open("admin");
  auto ana = open("ana");
  auto bo = open("bo");
  auto forbidden = [](const auto& result) {
    return !result.has_value() && result.error().kind() == ErrorKind::kPermissionDenied;
  };
  for (const char* ns : {"shop", "finance"}) ASSERT_TRUE(admin->CreateNamespace({ns}, {}));
  TableIdentifier orders{{"shop"}, "orders"};
  TableIdentifier ledger{{"finance"}, "ledger"};
  auto orders0 = admin->CreateTable(orders, Creation(), false);
  auto ledger0 = admin->CreateTable(ledger, Creation(), false);
  ASSERT_TRUE(orders0 && ledger0);

  // Widened: the reader ana creates, commits to, renames within and drops its sandbox namespaces.
  EXPECT_TRUE(forbidden(ana->CreateNamespace({"shop2"}, {})));
  ASSERT_TRUE(ana->CreateNamespace({"sandbox"}, {}));
  ASSERT_TRUE(ana->CreateNamespace({"sandbox_b"}, {}));
  TableIdentifier scratch{{"sandbox"}, "scratch"};
  auto scratch0 = ana->CreateTable(scratch, Creation(), false);
  ASSERT_TRUE(scratch0) << scratch0.error().ToString();
  EXPECT_TRUE(forbidden(ana->CreateTable({{"shop"}, "mine"}, Creation(), false)));
  auto scratch1 = ana->CommitTable(AppendCommit(scratch, *scratch0, 11));
  ASSERT_TRUE(scratch1) << scratch1.error().ToString();
  EXPECT_TRUE(forbidden(ana->CommitTable(AppendCommit(orders, *orders0, 12))));
  // A transaction is judged on each of its tables: one outside the grant refuses it all.
  EXPECT_TRUE(forbidden(ana->CommitTransaction({AppendCommit(scratch, *scratch1, 13), AppendCommit(orders, *orders0, 14)})));
  EXPECT_EQ(ana->LoadTable(scratch)->metadata_location, scratch1->metadata_location);
  // A rename needs alter where the table is and create where it goes.
  EXPECT_TRUE(forbidden(ana->RenameTable(scratch, {{"shop"}, "scratch"})));
  EXPECT_TRUE(forbidden(ana->RenameTable(orders, {{"sandbox"}, "orders"})));
  TableIdentifier moved{{"sandbox_b"}, "moved"};
  ASSERT_TRUE(ana->RenameTable(scratch, moved));
  EXPECT_TRUE(forbidden(ana->DropTable(orders, false)));
  ASSERT_TRUE(ana->DropTable(moved, true));
  EXPECT_TRUE(forbidden(ana->DropNamespace({"shop"})));
  ASSERT_TRUE(ana->DropNamespace({"sandbox_b"}));

  // Narrowed: the writer bo neither reads nor writes finance, and keeps its role elsewhere.
  EXPECT_TRUE(forbidden(bo->LoadTable(ledger)));
  EXPECT_TRUE(forbidden(bo->ListTables({"finance"})));
  EXPECT_TRUE(forbidden(bo->CommitTable(AppendCommit(ledger, *ledger0, 21))));
  EXPECT_TRUE(bo->LoadTable(orders));
  auto orders1 = bo->CommitTable(AppendCommit(orders, *orders0, 22));
  ASSERT_TRUE(orders1) << orders1.error().ToString();
  // Its role still stops what no grant gives it: a property change is an alter.
  EXPECT_TRUE(forbidden(bo->CommitTable(TableCommit{
      orders, {}, {std::make_shared<const iceberg::SetProperties>(std::map<std::string, std::string>{{"k", "v"}})}})));
  EXPECT_EQ(admin->LoadTable(ledger)->metadata_location, ledger0->metadata_location);
  server.Stop();
}

TEST(CorpusCatalogTest, PyIcebergCatalogLoadsItsTable) {
  std::filesystem::path source = std::filesystem::path(io::testing::CorpusDir()) / "iceberg/partition_timestamp";
  ASSERT_TRUE(std::filesystem::exists(source / "pyiceberg_catalog.db")) << "corpus not found at " << source;
  std::string folder = io::testing::FreshFolder();
  std::filesystem::copy(source, folder, std::filesystem::copy_options::recursive);
  auto catalog = OpenCatalog({"sqlite:" + folder + "/pyiceberg_catalog.db", ""});
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  auto table = (*catalog)->LoadTable({{"default"}, "partition_timestamp"});
  ASSERT_TRUE(table) << table.error().ToString();
  EXPECT_EQ(table->metadata["format-version"], 2);
  EXPECT_TRUE(table->metadata["current-snapshot-id"].is_number_integer());
  EXPECT_EQ(table->metadata["snapshots"].size(), 1u);
}

// Issue #27, finding 1: a table's location decides what a purge deletes, so a catalog client
// naming a folder outside the warehouse could delete it. Every way of choosing a location is
// tried; the folder outside survives and each refusal is the REST spec's 403 (or 400).
TEST_F(RestCatalogTest, TablesCannotReachOutsideTheWarehouse) {
  const std::string victim = folder_ + "/victim";
  std::filesystem::create_directories(victim);
  std::ofstream(victim + "/precious.txt") << "keep me";
  auto expect_error = [&](const net::HttpResponse& response, int status, const char* type) {
    EXPECT_EQ(response.status, status) << response.body;
    Json body = Json::parse(response.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << response.body;
    EXPECT_EQ(body["error"]["code"], status);
    EXPECT_EQ(body["error"]["type"], type);
  };
  ASSERT_TRUE(client_->CreateNamespace({"evil"}, {}));
  Json create = {{"name", "x"}, {"schema", Json::parse(kSchema)}, {"location", "file://" + victim}};
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 403, "ForbiddenException");
  // Other spellings of the same folder: climbing out with "..", or a path without a scheme.
  create["location"] = "file://" + folder_ + "/warehouse/../victim";
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 400, "BadRequestException");
  create["location"] = victim;
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 403, "ForbiddenException");
  // The warehouse itself would contain every table.
  create["location"] = "file://" + folder_ + "/warehouse/";
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 403, "ForbiddenException");
  EXPECT_FALSE(*client_->TableExists({{"evil"}, "x"}));

  // Names become folders: '/' and '..' are refused rather than nesting or climbing.
  create.erase("location");
  create["name"] = "../../victim";
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 400, "BadRequestException");
  create["name"] = "a/b";
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 400, "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces", R"({"namespace":["..","x"]})"), 400, "BadRequestException");

  // A table made legitimately cannot then move outside, or onto another table.
  create["name"] = "x";
  ASSERT_EQ(Raw("POST", "/v1/namespaces/evil/tables", create.dump()).status, 200);
  create["name"] = "y";
  ASSERT_EQ(Raw("POST", "/v1/namespaces/evil/tables", create.dump()).status, 200);
  Json move = {{"requirements", Json::array()},
               {"updates", {{{"action", "set-location"}, {"location", "file://" + victim}}}}};
  expect_error(Raw("POST", "/v1/namespaces/evil/tables/x", move.dump()), 403, "ForbiddenException");
  move["updates"][0]["location"] = "file://" + folder_ + "/warehouse/evil/y/data";
  expect_error(Raw("POST", "/v1/namespaces/evil/tables/x", move.dump()), 403, "ForbiddenException");
  create["name"] = "z";
  create["location"] = "file://" + folder_ + "/warehouse/evil";  // Would contain x and y.
  expect_error(Raw("POST", "/v1/namespaces/evil/tables", create.dump()), 403, "ForbiddenException");

  // Register: neither a metadata file outside nor one claiming an outside location.
  auto x = client_->LoadTable({{"evil"}, "x"});
  ASSERT_TRUE(x);
  Json forged = x->metadata;
  forged["location"] = "file://" + victim;
  std::ofstream(victim + "/forged.metadata.json") << forged.dump();
  Json reg = {{"name", "r"}, {"metadata-location", "file://" + victim + "/forged.metadata.json"}};
  expect_error(Raw("POST", "/v1/namespaces/evil/register", reg.dump()), 403, "ForbiddenException");
  std::filesystem::create_directories(folder_ + "/warehouse/evil/r/metadata");
  std::ofstream(folder_ + "/warehouse/evil/r/metadata/forged.metadata.json") << forged.dump();
  reg["metadata-location"] = "file://" + folder_ + "/warehouse/evil/r/metadata/forged.metadata.json";
  expect_error(Raw("POST", "/v1/namespaces/evil/register", reg.dump()), 403, "ForbiddenException");

  // Purges of the legitimate tables delete their own folders only.
  EXPECT_EQ(Raw("DELETE", "/v1/namespaces/evil/tables/x?purgeRequested=true").status, 204);
  EXPECT_EQ(Raw("DELETE", "/v1/namespaces/evil/tables/y?purgeRequested=true").status, 204);
  size_t files_left = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder_ + "/warehouse/evil/x")) {
    files_left += entry.is_regular_file() ? 1 : 0;
  }
  EXPECT_EQ(files_left, 0u);
  EXPECT_TRUE(std::filesystem::exists(victim + "/precious.txt"));
  EXPECT_TRUE(std::filesystem::exists(folder_ + "/warehouse/evil/r/metadata/forged.metadata.json"));
}

// Issue #27, finding 5: a deeply nested body (here inside add-encryption-key, which is copied
// and dumped as given) would overflow the server's stack; it gets 400 and the server lives on.
TEST_F(RestCatalogTest, DeeplyNestedBodiesAreRefused) {
  ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  ASSERT_TRUE(client_->CreateTable({{"db"}, "t"}, Creation(), false));
  const size_t levels = 500'000;  // A 1 MB body.
  std::string nested = std::string(levels, '[') + std::string(levels, ']');
  std::string body = R"({"requirements":[],"updates":[{"action":"add-encryption-key","encryption-key":)" + nested + "}]}";
  net::HttpResponse response = Raw("POST", "/v1/namespaces/db/tables/t", body);
  EXPECT_EQ(response.status, 400) << response.body.substr(0, 200);
  EXPECT_EQ(Json::parse(response.body, nullptr, false)["error"]["type"], "BadRequestException");
  EXPECT_TRUE(*client_->TableExists({{"db"}, "t"}));
}

// A table whose pointer names a location outside the allowed roots (written before they were
// enforced, or by another tool) is not purged: the drop is refused and the files stay.
TEST(LocationPolicyCatalogTest, PurgeOfATableOutsideTheAllowedLocationsIsRefused) {
  const std::string folder = io::testing::FreshFolder();
  {
    auto open = OpenCatalog({"sqlite:" + folder + "/catalog.db", ""});  // Unconfined.
    ASSERT_TRUE(open);
    ASSERT_TRUE((*open)->CreateNamespace({"db"}, {}));
    TableCreation creation = Creation();
    creation.location = "file://" + folder + "/elsewhere/t";
    ASSERT_TRUE((*open)->CreateTable({{"db"}, "t"}, creation, false));
  }
  auto confined = OpenCatalog({.uri = "sqlite:" + folder + "/catalog.db", .warehouse = "file://" + folder + "/warehouse",
                               .allowed_locations = {"file://" + folder + "/warehouse", "file://" + folder + "/more"}});
  ASSERT_TRUE(confined);
  auto dropped = (*confined)->DropTable({{"db"}, "t"}, true);
  ASSERT_FALSE(dropped);
  EXPECT_EQ(dropped.error().kind(), ErrorKind::kPermissionDenied);
  EXPECT_TRUE(*(*confined)->TableExists({{"db"}, "t"}));
  EXPECT_TRUE(std::filesystem::exists(folder + "/elsewhere/t/metadata"));
  // A second allowed location takes tables.
  TableCreation creation = Creation();
  creation.location = "file://" + folder + "/more/u";
  auto created = (*confined)->CreateTable({{"db"}, "u"}, creation, false);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_THAT(created->metadata_location, ::testing::StartsWith("file://" + folder + "/more/u/metadata/"));
}

}  // namespace
}  // namespace floe::catalog
