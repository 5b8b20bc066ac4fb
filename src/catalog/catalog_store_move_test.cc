#include "catalog/catalog_store_move.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/open_catalog.h"
#include "catalog/postgres_test_server.h"
#include "io/test_folder.h"

namespace floe::catalog {
namespace {

// One PostgreSQL server for these tests, started on first use; null (and the reason) when the
// binaries are not installed.
PostgresTestServer* MovePostgres(std::string* why_not) {
  static PostgresTestServer::Slot slot;
  return PostgresTestServer::StartOnce(slot, why_not);
}

// A PostgreSQL database of its own for each test (catalog rows of one name would otherwise
// meet across tests).
std::string FreshPostgresDatabase(PostgresTestServer& server) {
  static int counter = 0;
  std::string name = fmt::format("move{}", ++counter);
  auto admin = OpenPostgres(server.uri());
  EXPECT_TRUE(admin) << admin.error().ToString();
  if (!admin) return "";
  EXPECT_TRUE((*admin)->Execute("CREATE DATABASE " + name));
  std::string uri = server.uri();
  return uri.substr(0, uri.rfind('/') + 1) + name;
}

class CatalogStoreMoveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    server_ = MovePostgres(&why_not);
    if (server_ == nullptr) {
      if (why_not.find("no PostgreSQL initdb") != std::string::npos) GTEST_SKIP() << why_not;
      FAIL() << "PostgreSQL could not start: " << why_not;
    }
    sqlite_uri_ = "sqlite:" + io::testing::FreshFolder() + "/catalog.db";
    postgres_uri_ = FreshPostgresDatabase(*server_);
  }

  std::unique_ptr<SqlCatalog> Open(const std::string& uri) {
    auto opened = OpenSqlCatalog(uri);
    EXPECT_TRUE(opened) << opened.error().ToString();
    return opened ? std::move(*opened) : nullptr;
  }

  PostgresTestServer* server_ = nullptr;
  std::string sqlite_uri_;
  std::string postgres_uri_;
};

const TableIdentifier kOrders{{"shop"}, "orders"};
const TableIdentifier kRecent{{"shop"}, "recent"};

TEST_F(CatalogStoreMoveTest, MovesEveryRowToPostgresAndBack) {
  auto sqlite = Open(sqlite_uri_);
  ASSERT_NE(sqlite, nullptr);
  ASSERT_TRUE(sqlite->CreateNamespace({"shop"}, {{"owner", "floe"}}));
  ASSERT_TRUE(sqlite->CreateNamespace({"empty"}, {}));
  ASSERT_TRUE(sqlite->SwapPointers({{kOrders, std::nullopt, "file:///w/shop/orders/metadata/1.json"}}));
  ASSERT_TRUE(sqlite->SwapPointers(
      {{kOrders, "file:///w/shop/orders/metadata/1.json", "file:///w/shop/orders/metadata/2.json"}}));
  ASSERT_TRUE(sqlite->SwapViewPointer({kRecent, std::nullopt, "file:///w/shop/recent/metadata/1.json"}));

  auto postgres = Open(postgres_uri_);
  ASSERT_NE(postgres, nullptr);
  auto moved = MoveCatalogStore(*sqlite, *postgres);
  ASSERT_TRUE(moved) << moved.error().ToString();
  EXPECT_EQ(moved->tables, 1);
  EXPECT_EQ(moved->views, 1);
  EXPECT_EQ(moved->namespace_properties, 2);  // shop's owner, empty's "exists".
  EXPECT_EQ(moved->added, 4);
  EXPECT_FALSE(moved->same_database);

  // PostgreSQL holds everything, SQLite nothing.
  EXPECT_EQ(*postgres->GetPointer(kOrders), "file:///w/shop/orders/metadata/2.json");
  EXPECT_EQ(*postgres->GetViewPointer(kRecent), "file:///w/shop/recent/metadata/1.json");
  EXPECT_EQ(postgres->LoadNamespaceProperties({"shop"})->at("owner"), "floe");
  EXPECT_TRUE(*postgres->NamespaceExists({"empty"}));
  EXPECT_EQ(*sqlite->GetPointer(kOrders), std::nullopt);
  EXPECT_FALSE(*sqlite->NamespaceExists({"shop"}));
  EXPECT_TRUE(sqlite->ExportRows()->pointers.empty());

  // Commits go on in PostgreSQL, then everything moves back.
  ASSERT_TRUE(postgres->SwapPointers(
      {{kOrders, "file:///w/shop/orders/metadata/2.json", "file:///w/shop/orders/metadata/3.json"}}));
  auto back = MoveCatalogStore(*postgres, *sqlite);
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(*sqlite->GetPointer(kOrders), "file:///w/shop/orders/metadata/3.json");
  EXPECT_EQ(*sqlite->GetViewPointer(kRecent), "file:///w/shop/recent/metadata/1.json");
  EXPECT_TRUE(postgres->ExportRows()->pointers.empty());
  // The previous location came along: the swap history is the table's, not the store's.
  EXPECT_EQ(sqlite->ExportRows()->pointers[0].previous, "file:///w/shop/orders/metadata/2.json");
}

TEST_F(CatalogStoreMoveTest, ADifferentPointerInTheTargetIsRefusedAndNothingChanges) {
  auto sqlite = Open(sqlite_uri_);
  auto postgres = Open(postgres_uri_);
  ASSERT_NE(sqlite, nullptr);
  ASSERT_NE(postgres, nullptr);
  ASSERT_TRUE(sqlite->SwapPointers({{kOrders, std::nullopt, "file:///w/orders/metadata/5.json"}}));
  ASSERT_TRUE(sqlite->SwapPointers({{{{"shop"}, "payments"}, std::nullopt, "file:///w/payments/metadata/1.json"}}));
  ASSERT_TRUE(postgres->SwapPointers({{kOrders, std::nullopt, "file:///elsewhere/orders/metadata/9.json"}}));

  auto moved = MoveCatalogStore(*sqlite, *postgres);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().code(), ErrorCode::kCatalogStoreConflict);
  EXPECT_EQ(moved.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(moved.error().message().find("shop.orders"), std::string::npos) << moved.error().message();
  // One transaction: payments was not copied either, and the old store still has both.
  EXPECT_EQ(*postgres->GetPointer({{"shop"}, "payments"}), std::nullopt);
  EXPECT_EQ(*postgres->GetPointer(kOrders), "file:///elsewhere/orders/metadata/9.json");
  EXPECT_EQ(*sqlite->GetPointer(kOrders), "file:///w/orders/metadata/5.json");
  EXPECT_EQ(*sqlite->GetPointer({{"shop"}, "payments"}), "file:///w/payments/metadata/1.json");
}

TEST_F(CatalogStoreMoveTest, AnIdenticalCopyInTheTargetLetsARetryThrough) {
  auto sqlite = Open(sqlite_uri_);
  auto postgres = Open(postgres_uri_);
  ASSERT_NE(sqlite, nullptr);
  ASSERT_NE(postgres, nullptr);
  ASSERT_TRUE(sqlite->CreateNamespace({"shop"}, {}));
  ASSERT_TRUE(sqlite->SwapPointers({{kOrders, std::nullopt, "file:///w/orders/metadata/5.json"}}));
  // A move that copied and then failed before deleting leaves both stores alike.
  auto rows = sqlite->ExportRows();
  ASSERT_TRUE(rows);
  ASSERT_TRUE(postgres->ImportRows(*rows));
  auto moved = MoveCatalogStore(*sqlite, *postgres);
  ASSERT_TRUE(moved) << moved.error().ToString();
  EXPECT_EQ(moved->added, 0);
  EXPECT_EQ(*postgres->GetPointer(kOrders), "file:///w/orders/metadata/5.json");
  EXPECT_EQ(*sqlite->GetPointer(kOrders), std::nullopt);
}

TEST_F(CatalogStoreMoveTest, TwoUrisOfOneDatabaseMoveNothing) {
  auto first = Open(postgres_uri_);
  // The same database by another URI.
  std::string other = postgres_uri_ + "?application_name=second";
  auto second = Open(other);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_TRUE(first->SwapPointers({{kOrders, std::nullopt, "file:///w/orders/metadata/1.json"}}));
  auto moved = MoveCatalogStore(*first, *second);
  ASSERT_TRUE(moved) << moved.error().ToString();
  EXPECT_TRUE(moved->same_database);
  // Deleting "from the old store" would have deleted the only copy.
  EXPECT_EQ(*second->GetPointer(kOrders), "file:///w/orders/metadata/1.json");
}

TEST(OpenSqlCatalogTest, RefusesWhatIsNotAStoreAndSaysWhenOneDoesNotAnswer) {
  auto http = OpenSqlCatalog("http://127.0.0.1:8181");
  ASSERT_FALSE(http);
  EXPECT_EQ(http.error().code(), ErrorCode::kInvalidCatalogBackend);
  auto malformed = OpenSqlCatalog("postgresql://u@h:notaport:/db?nonsense=1");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().code(), ErrorCode::kInvalidCatalogBackend);
  EXPECT_EQ(malformed.error().kind(), ErrorKind::kInvalidArgument);
  // Port 1 on loopback: nothing listens there.
  auto unreachable = OpenSqlCatalog("postgresql://floe:hunter2@127.0.0.1:1/db");
  ASSERT_FALSE(unreachable);
  EXPECT_EQ(unreachable.error().code(), ErrorCode::kCatalogStoreUnreachable);
  EXPECT_EQ(unreachable.error().kind(), ErrorKind::kUnavailable);
  EXPECT_EQ(unreachable.error().message().find("hunter2"), std::string::npos) << unreachable.error().message();
}

TEST(RedactCatalogUriTest, HidesPasswordsOnly) {
  EXPECT_EQ(RedactCatalogUri("postgresql://floe:s3cret@db:5432/cat"), "postgresql://floe:****@db:5432/cat");
  EXPECT_EQ(RedactCatalogUri("postgresql://floe@db/cat?password=s3cret&sslmode=require"),
            "postgresql://floe@db/cat?password=****&sslmode=require");
  EXPECT_EQ(RedactCatalogUri("postgresql://floe@db/cat"), "postgresql://floe@db/cat");
  EXPECT_EQ(RedactCatalogUri("sqlite:/data/catalog.db"), "sqlite:/data/catalog.db");
}

}  // namespace
}  // namespace floe::catalog
