// Views through the REST server and floe's REST client, over a SQLite catalog and a local
// warehouse: the spec's bodies, errors and endpoints, and the view metadata files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "auth/users.h"
#include "catalog/oauth_tokens.h"
#include "catalog/open_catalog.h"
#include "catalog/rest_catalog.h"
#include "catalog/rest_server.h"
#include "io/test_folder.h"
#include "net/http_client.h"

namespace floe::catalog {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

class RestViewTest : public ::testing::Test {
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
    ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }

  net::HttpResponse Raw(std::string method, std::string path, std::string body = "") {
    net::HttpClientRequest request;
    request.method = std::move(method);
    request.url = url_ + path;
    request.body = std::move(body);
    auto response = http_.Send(request);
    EXPECT_TRUE(response) << response.error().ToString();
    return response.value_or(net::HttpResponse{});
  }

  static ViewCreation Creation(std::string sql, std::string column = "n") {
    ViewCreation creation;
    creation.schema = iceberg::Schema(
        0, {iceberg::NestedField{1, std::move(column), false, iceberg::Type::Primitive(iceberg::TypeId::kLong)}});
    creation.version.version_id = 1;
    creation.version.timestamp_ms = 1700000000000;
    creation.version.summary = {{"engine-name", "floe"}};
    creation.version.representations.push_back({"sql", std::move(sql), "trino"});
    creation.version.default_namespace = {"db"};
    return creation;
  }

  std::string folder_;
  std::unique_ptr<Catalog> backend_;
  std::unique_ptr<RestCatalogServer> server_;
  std::string url_;
  std::unique_ptr<RestCatalog> client_;
  net::HttpClient http_;
};

TEST_F(RestViewTest, CreateLoadReplaceRenameDropThroughTheClient) {
  TableIdentifier v{{"db"}, "v"};
  auto created = client_->CreateView(v, Creation("SELECT 1 AS n"));
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_THAT(created->metadata_location,
              ::testing::StartsWith("file://" + folder_ + "/warehouse/db/v/metadata/00000-"));
  EXPECT_THAT(created->metadata_location, ::testing::EndsWith(".metadata.json"));
  ASSERT_TRUE(std::filesystem::exists(created->metadata_location.substr(7)));
  auto on_disk = iceberg::ViewMetadataFromJson([&] {
    std::ifstream in(created->metadata_location.substr(7));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  ASSERT_TRUE(on_disk) << on_disk.error().ToString();
  EXPECT_EQ(on_disk->CurrentVersion().SqlFor("trino")->sql, "SELECT 1 AS n");
  EXPECT_EQ(on_disk->location, "file://" + folder_ + "/warehouse/db/v");

  EXPECT_THAT(*client_->ListViews({"db"}), ::testing::ElementsAre(v));
  EXPECT_TRUE(client_->ListTables({"db"})->empty());
  EXPECT_TRUE(*client_->ViewExists(v));
  EXPECT_FALSE(*client_->TableExists(v));
  EXPECT_EQ(client_->CreateView(v, Creation("SELECT 2 AS n")).error().kind(), ErrorKind::kAlreadyExists);

  // Replace: a commit guarded by the view's uuid, as CREATE OR REPLACE VIEW sends it.
  std::string uuid = created->metadata["view-uuid"];
  ViewCreation next = Creation("SELECT 2 AS m", "m");
  ViewCommit replace{v, {{uuid}}, iceberg::ViewReplaceUpdates(next.schema, next.version)};
  auto replaced = client_->CommitView(replace);
  ASSERT_TRUE(replaced) << replaced.error().ToString();
  EXPECT_THAT(replaced->metadata_location, HasSubstr("/metadata/00001-"));
  EXPECT_EQ(replaced->metadata["current-version-id"], 2);
  EXPECT_EQ(replaced->metadata["version-log"].size(), 2u);
  auto loaded = client_->LoadView(v);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata_location, replaced->metadata_location);
  auto stale = client_->CommitView({v, {{"00000000-0000-0000-0000-000000000000"}}, replace.updates});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind(), ErrorKind::kConflict) << stale.error().ToString();

  ASSERT_TRUE(client_->CreateNamespace({"other"}, {}));
  TableIdentifier moved{{"other"}, "w"};
  ASSERT_TRUE(client_->RenameView(v, moved));
  EXPECT_FALSE(*client_->ViewExists(v));
  EXPECT_EQ(client_->LoadView(moved)->metadata_location, replaced->metadata_location);
  ASSERT_TRUE(client_->DropView(moved));
  auto gone = client_->LoadView(moved);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code(), ErrorCode::kNoSuchView) << gone.error().ToString();
  EXPECT_EQ(client_->DropView(moved).error().code(), ErrorCode::kNoSuchView);
}

TEST_F(RestViewTest, TablesAndViewsShareNamesButNotOperations) {
  TableCreation table;
  table.schema =
      Json::parse(R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"}]})");
  ASSERT_TRUE(client_->CreateTable({{"db"}, "t"}, table, false));
  ASSERT_TRUE(client_->CreateView({{"db"}, "v"}, Creation("SELECT 1 AS n")));

  auto view_on_table = client_->CreateView({{"db"}, "t"}, Creation("SELECT 1 AS n"));
  ASSERT_FALSE(view_on_table);
  EXPECT_EQ(view_on_table.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(client_->CreateTable({{"db"}, "v"}, table, false).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(client_->LoadView({{"db"}, "t"}).error().code(), ErrorCode::kNoSuchView);
  EXPECT_EQ(client_->LoadTable({{"db"}, "v"}).error().code(), ErrorCode::kNoSuchTable);
  EXPECT_EQ(client_->DropTable({{"db"}, "v"}, false).error().code(), ErrorCode::kNoSuchTable);
  EXPECT_EQ(client_->DropView({{"db"}, "t"}).error().code(), ErrorCode::kNoSuchView);
  EXPECT_EQ(client_->RenameView({{"db"}, "v"}, {{"db"}, "t"}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(client_->RenameTable({{"db"}, "t"}, {{"db"}, "v"}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_THAT(*client_->ListTables({"db"}), ::testing::ElementsAre(TableIdentifier{{"db"}, "t"}));
  EXPECT_THAT(*client_->ListViews({"db"}), ::testing::ElementsAre(TableIdentifier{{"db"}, "v"}));

  // Folders do not overlap either way: a purge of the table would delete the view's files.
  ViewCreation inside = Creation("SELECT 1 AS n");
  inside.location = "file://" + folder_ + "/warehouse/db/t/views/w";
  auto view_in_table = client_->CreateView({{"db"}, "w"}, inside);
  ASSERT_FALSE(view_in_table);
  EXPECT_EQ(view_in_table.error().kind(), ErrorKind::kPermissionDenied) << view_in_table.error().ToString();
  TableCreation over_view = table;
  over_view.location = "file://" + folder_ + "/warehouse/db/v";
  auto table_on_view = client_->CreateTable({{"db"}, "u"}, over_view, false);
  ASSERT_FALSE(table_on_view);
  EXPECT_EQ(table_on_view.error().kind(), ErrorKind::kPermissionDenied) << table_on_view.error().ToString();
}

// Bodies as the OpenAPI spec writes them, sent raw as a foreign client would.
TEST_F(RestViewTest, SpecBodiesStatusesAndEndpoints) {
  Json create = Json::parse(R"({
    "name": "daily",
    "schema": {"type": "struct", "schema-id": 0,
               "fields": [{"id": 1, "name": "day", "required": false, "type": "date"}]},
    "view-version": {"version-id": 1, "timestamp-ms": 1700000000000, "schema-id": 0,
                     "summary": {"engine-name": "spark"},
                     "representations": [{"type": "sql", "sql": "SELECT day FROM t", "dialect": "spark"}],
                     "default-namespace": ["db"]},
    "properties": {"comment": "days"}})");
  auto created = Raw("POST", "/v1/namespaces/db/views", create.dump());
  ASSERT_EQ(created.status, 200) << created.body;
  Json result = Json::parse(created.body);
  EXPECT_TRUE(result["metadata-location"].is_string());
  EXPECT_EQ(result["metadata"]["format-version"], 1);
  EXPECT_EQ(result["metadata"]["properties"]["comment"], "days");
  std::string uuid = result["metadata"]["view-uuid"];
  // floe's own client reads what a foreign client created.
  auto read = client_->LoadView({{"db"}, "daily"});
  ASSERT_TRUE(read) << read.error().ToString();
  auto model = iceberg::ViewMetadataFromJsonValue(read->metadata);
  ASSERT_TRUE(model) << model.error().ToString();
  EXPECT_EQ(model->CurrentVersion().SqlFor("spark")->sql, "SELECT day FROM t");
  EXPECT_EQ(model->CurrentVersion().default_namespace, std::vector<std::string>{"db"});
  EXPECT_EQ(model->CurrentSchema().fields()[0].name, "day");

  auto expect_error = [&](const net::HttpResponse& response, int status, const char* type) {
    EXPECT_EQ(response.status, status) << response.body;
    Json body = Json::parse(response.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << response.body;
    EXPECT_EQ(body["error"]["code"], status);
    EXPECT_EQ(body["error"]["type"], type) << response.body;
  };
  expect_error(Raw("POST", "/v1/namespaces/db/views", create.dump()), 409, "AlreadyExistsException");
  expect_error(Raw("POST", "/v1/namespaces/nope/views", create.dump()), 404, "NoSuchNamespaceException");
  expect_error(Raw("GET", "/v1/namespaces/db/views/nope"), 404, "NoSuchViewException");
  expect_error(Raw("DELETE", "/v1/namespaces/db/views/nope"), 404, "NoSuchViewException");
  expect_error(Raw("POST", "/v1/namespaces/db/views", "{\"name\": \"x\", "), 400, "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces/db/views", R"({"name":"x","schema":{"type":"struct","fields":[]}})"), 400,
               "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces/db/views/daily", R"({"updates":[{"action":"add-snapshot"}]})"), 400,
               "BadRequestException");
  expect_error(Raw("POST", "/v1/namespaces/db/views/daily",
                   R"({"requirements":[{"type":"assert-view-uuid","uuid":"other"}],"updates":[]})"),
               409, "CommitFailedException");
  expect_error(Raw("POST", "/v1/namespaces/db/views/daily",
                   R"({"updates":[{"action":"set-current-view-version","view-version-id":9}]})"),
               400, "BadRequestException");
  EXPECT_EQ(Raw("HEAD", "/v1/namespaces/db/views/daily").status, 204);
  EXPECT_EQ(Raw("HEAD", "/v1/namespaces/db/views/nope").status, 404);

  Json commit = {{"requirements", {{{"type", "assert-view-uuid"}, {"uuid", uuid}}}},
                 {"updates",
                  {{{"action", "set-properties"}, {"updates", {{"owner", "ana"}}}},
                   {{"action", "remove-properties"}, {"removals", {"comment"}}}}}};
  auto committed = Raw("POST", "/v1/namespaces/db/views/daily", commit.dump());
  ASSERT_EQ(committed.status, 200) << committed.body;
  EXPECT_EQ(Json::parse(committed.body)["metadata"]["properties"], (Json{{"owner", "ana"}}));

  auto listed = Raw("GET", "/v1/namespaces/db/views");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(Json::parse(listed.body)["identifiers"], Json::parse(R"([{"namespace":["db"],"name":"daily"}])"));
  auto renamed =
      Raw("POST", "/v1/views/rename",
          R"({"source":{"namespace":["db"],"name":"daily"},"destination":{"namespace":["db"],"name":"d2"}})");
  EXPECT_EQ(renamed.status, 204) << renamed.body;
  EXPECT_EQ(Raw("GET", "/v1/warehouse1/namespaces/db/views/d2").status, 200);  // With a prefix.
  EXPECT_EQ(Raw("DELETE", "/v1/namespaces/db/views/d2").status, 204);

  Json endpoints = Json::parse(Raw("GET", "/v1/config").body)["endpoints"];
  for (const char* endpoint :
       {"GET /v1/{prefix}/namespaces/{namespace}/views", "POST /v1/{prefix}/namespaces/{namespace}/views",
        "GET /v1/{prefix}/namespaces/{namespace}/views/{view}", "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}", "POST /v1/{prefix}/views/rename"}) {
    EXPECT_NE(std::find(endpoints.begin(), endpoints.end(), endpoint), endpoints.end()) << endpoint;
  }
}

// A view whose metadata file was damaged is a clear error naming the file, not a crash or a
// half-read view.
TEST_F(RestViewTest, DamagedMetadataFilesAreClearErrors) {
  auto created = client_->CreateView({{"db"}, "v"}, Creation("SELECT 1 AS n"));
  ASSERT_TRUE(created) << created.error().ToString();
  std::string path = created->metadata_location.substr(7);
  std::string good = [&] {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  auto damage = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::trunc) << bytes;
    auto loaded = client_->LoadView({{"db"}, "v"});
    EXPECT_FALSE(loaded);
    return loaded ? std::string() : loaded.error().message();
  };
  EXPECT_THAT(damage("garbage"), HasSubstr("invalid JSON"));
  EXPECT_THAT(damage(good.substr(0, good.size() / 2)), HasSubstr("invalid JSON"));
  EXPECT_THAT(damage(std::string(5000, '[') + std::string(5000, ']')), HasSubstr("nest"));
  Json no_versions = Json::parse(good);
  no_versions.erase("versions");
  EXPECT_THAT(damage(no_versions.dump()), HasSubstr("'versions'"));
  std::ofstream(path, std::ios::trunc) << good;
  EXPECT_TRUE(client_->LoadView({{"db"}, "v"}));
}

// Replaces racing through the REST server: each is a compare-and-swap on the metadata location,
// redone on the winner's metadata when it loses, so none is lost: every file is one above the
// last, and each replace added a version (ids go one above the highest, so the last is 1 + all).
TEST_F(RestViewTest, ConcurrentReplacesLoseNothing) {
  TableIdentifier v{{"db"}, "v"};
  ViewCreation first = Creation("SELECT 0 AS n");
  auto created = client_->CreateView(v, first);
  ASSERT_TRUE(created) << created.error().ToString();
  std::string uuid = created->metadata["view-uuid"];
  constexpr int kWriters = 3;
  constexpr int kEach = 5;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto client = RestCatalog::Open(url_);
      if (!client) {
        ++failures;
        return;
      }
      for (int i = 0; i < kEach; ++i) {
        ViewCreation next = Creation(fmt::format("SELECT {} AS n", 100 * (w + 1) + i));
        auto replaced = (*client)->CommitView({v, {{uuid}}, iceberg::ViewReplaceUpdates(next.schema, next.version)});
        if (!replaced) ++failures;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(failures.load(), 0);
  auto loaded = client_->LoadView(v);
  ASSERT_TRUE(loaded);
  EXPECT_THAT(loaded->metadata_location, HasSubstr(fmt::format("/metadata/{:05d}-", kWriters * kEach)));
  EXPECT_EQ(loaded->metadata["current-version-id"], 1 + kWriters * kEach);
  // version.history.num-entries' default keeps 10 versions, and the log of those.
  EXPECT_EQ(loaded->metadata["versions"].size(), 10u);
  EXPECT_EQ(loaded->metadata["version-log"].size(), 10u);
}

// Views are authorized as tables are: everyone who may read lists and loads them; a reader or
// writer may not create, replace, rename or drop one (the admin may); refusals change nothing.
TEST(RestViewAuthTest, RolesDecideWhatEachUserMayDoToViews) {
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
  ASSERT_TRUE(admin->CreateNamespace({"db"}, {}));
  TableIdentifier v{{"db"}, "v"};
  ViewCreation creation;
  creation.schema =
      iceberg::Schema(0, {iceberg::NestedField{1, "n", false, iceberg::Type::Primitive(iceberg::TypeId::kInt)}});
  creation.version.representations.push_back({"sql", "SELECT 1 AS n", "trino"});
  creation.version.default_namespace = {"db"};
  EXPECT_TRUE(forbidden(reader->CreateView(v, creation)));
  EXPECT_TRUE(forbidden(writer->CreateView(v, creation)));
  auto created = admin->CreateView(v, creation);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_TRUE(reader->LoadView(v));
  EXPECT_TRUE(*reader->ViewExists(v));
  EXPECT_THAT(*reader->ListViews({"db"}), ::testing::ElementsAre(v));
  ViewCommit properties{
      v, {}, {*iceberg::ViewUpdateFromJson(Json{{"action", "set-properties"}, {"updates", {{"a", "b"}}}})}};
  EXPECT_TRUE(forbidden(writer->CommitView(properties)));
  EXPECT_TRUE(forbidden(writer->RenameView(v, {{"db"}, "w"})));
  EXPECT_TRUE(forbidden(writer->DropView(v)));
  EXPECT_TRUE(forbidden(reader->DropView(v)));
  EXPECT_EQ(admin->LoadView(v)->metadata_location, created->metadata_location);  // Nothing changed.
  ASSERT_TRUE(admin->CommitView(properties));
  ASSERT_TRUE(admin->DropView(v));
  server.Stop();
}

}  // namespace
}  // namespace floe::catalog
