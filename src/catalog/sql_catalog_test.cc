#include "catalog/sql_catalog.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalog/postgres_test_server.h"
#include "io/test_folder.h"

namespace floe::catalog {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// One PostgreSQL server for the whole binary, started on first use.
PostgresTestServer* SharedPostgres(std::string* why_not) {
  static PostgresTestServer::Slot slot;
  return PostgresTestServer::StartOnce(slot, why_not);
}

// Runs every test on SQLite and on PostgreSQL, each in a fresh catalog.
class SqlCatalogTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    static int counter = 0;
    // A fresh catalog name isolates PostgreSQL tests sharing one database, as it would two
    // catalogs sharing one server.
    catalog_name_ = fmt::format("test{}", ++counter);
    connect_ = Connector();
    if (!connect_) {
      if (!skipped_.empty()) {
        GTEST_SKIP() << skipped_;
      }
      return;
    }
    auto catalog = SqlCatalog::Open(connect_, catalog_name_);
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
  }

  SqlConnectionPool::Connect Connector() {
    if (GetParam() == "sqlite") {
      std::string path = io::testing::FreshFolder() + "/catalog.db";
      return [path] { return OpenSqlite(path); };
    }
    std::string why_not;
    PostgresTestServer* server = SharedPostgres(&why_not);
    if (server == nullptr) {
      // Missing binaries (not installed) skip visibly; a server that fails to start is a failure.
      if (why_not.find("no PostgreSQL initdb") != std::string::npos) {
        skipped_ = why_not;
      } else {
        ADD_FAILURE() << "PostgreSQL could not start: " << why_not;
      }
      return nullptr;
    }
    std::string uri = server->uri();
    return [uri] { return OpenPostgres(uri); };
  }

  std::string catalog_name_;
  std::string skipped_;
  SqlConnectionPool::Connect connect_;
  std::unique_ptr<SqlCatalog> catalog_;
};

TEST_P(SqlCatalogTest, NamespacesCreateListNestDrop) {
  ASSERT_TRUE(catalog_);
  ASSERT_TRUE(catalog_->CreateNamespace({"sales"}, {{"owner", "ana"}}));
  ASSERT_TRUE(catalog_->CreateNamespace({"sales", "eu"}, {}));
  ASSERT_TRUE(catalog_->CreateNamespace({"ops", "raw", "deep"}, {}));
  auto again = catalog_->CreateNamespace({"sales"}, {});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);

  EXPECT_THAT(*catalog_->ListNamespaces({}), ElementsAre(Namespace{"ops"}, Namespace{"sales"}));
  EXPECT_THAT(*catalog_->ListNamespaces({"sales"}), ElementsAre(Namespace{"sales", "eu"}));
  EXPECT_THAT(*catalog_->ListNamespaces({"ops"}), ElementsAre(Namespace{"ops", "raw"}));
  EXPECT_TRUE(*catalog_->NamespaceExists({"ops", "raw"}));  // Implied by its child.
  EXPECT_FALSE(*catalog_->NamespaceExists({"op"}));
  EXPECT_FALSE(*catalog_->NamespaceExists({"sales", "e"}));
  EXPECT_EQ(catalog_->ListNamespaces({"nope"}).error().kind(), ErrorKind::kNotFound);

  EXPECT_EQ(*catalog_->LoadNamespaceProperties({"sales"}), (Properties{{"owner", "ana"}}));
  EXPECT_EQ(*catalog_->LoadNamespaceProperties({"sales", "eu"}), (Properties{{"exists", "true"}}));
  auto change = catalog_->UpdateNamespaceProperties({"sales"}, {"owner", "ghost"}, {{"tier", "gold"}});
  ASSERT_TRUE(change) << change.error().ToString();
  EXPECT_THAT(change->removed, ElementsAre("owner"));
  EXPECT_THAT(change->missing, ElementsAre("ghost"));
  EXPECT_THAT(change->updated, ElementsAre("tier"));
  EXPECT_EQ(*catalog_->LoadNamespaceProperties({"sales"}), (Properties{{"tier", "gold"}}));
  EXPECT_EQ(catalog_->UpdateNamespaceProperties({"sales"}, {"a"}, {{"a", "1"}}).error().kind(),
            ErrorKind::kInvalidArgument);

  auto not_empty = catalog_->DropNamespace({"sales"});
  ASSERT_FALSE(not_empty);
  EXPECT_EQ(not_empty.error().kind(), ErrorKind::kConflict);
  EXPECT_THAT(not_empty.error().message(), ::testing::StartsWith("namespace not empty"));
  ASSERT_TRUE(catalog_->DropNamespace({"sales", "eu"}));
  ASSERT_TRUE(catalog_->DropNamespace({"sales"}));
  EXPECT_FALSE(*catalog_->NamespaceExists({"sales"}));
  EXPECT_EQ(catalog_->DropNamespace({"sales"}).error().kind(), ErrorKind::kNotFound);
}

TEST_P(SqlCatalogTest, TablePointersSwapOnlyFromTheExpectedLocation) {
  ASSERT_TRUE(catalog_);
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
  TableIdentifier t{{"db"}, "t"};
  EXPECT_FALSE(catalog_->GetPointer(t)->has_value());
  ASSERT_TRUE(catalog_->SwapPointers({{t, std::nullopt, "file:///w/db/t/metadata/v1.json"}}));
  EXPECT_EQ(catalog_->SwapPointers({{t, std::nullopt, "x"}}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(**catalog_->GetPointer(t), "file:///w/db/t/metadata/v1.json");

  auto stale = catalog_->SwapPointers({{t, "file:///w/db/t/metadata/v0.json", "v2"}});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind(), ErrorKind::kConflict);
  ASSERT_TRUE(catalog_->SwapPointers({{t, "file:///w/db/t/metadata/v1.json", "v2"}}));
  EXPECT_EQ(**catalog_->GetPointer(t), "v2");

  // Several tables swap together or not at all.
  TableIdentifier u{{"db"}, "u"};
  ASSERT_TRUE(catalog_->SwapPointers({{u, std::nullopt, "u1"}}));
  auto partial = catalog_->SwapPointers({{t, "v2", "v3"}, {u, "wrong", "u2"}});
  ASSERT_FALSE(partial);
  EXPECT_EQ(partial.error().kind(), ErrorKind::kConflict);
  EXPECT_EQ(**catalog_->GetPointer(t), "v2");
  ASSERT_TRUE(catalog_->SwapPointers({{t, "v2", "v3"}, {u, "u1", "u2"}}));
  EXPECT_EQ(**catalog_->GetPointer(t), "v3");
  EXPECT_EQ(**catalog_->GetPointer(u), "u2");

  EXPECT_THAT(*catalog_->ListTables({"db"}), ElementsAre(t, u));
  ASSERT_TRUE(catalog_->CreateNamespace({"other"}, {}));
  EXPECT_EQ(catalog_->RenameTable(t, u).error().kind(), ErrorKind::kAlreadyExists);
  ASSERT_TRUE(catalog_->RenameTable(t, {{"other"}, "t2"}));
  EXPECT_FALSE(catalog_->GetPointer(t)->has_value());
  EXPECT_EQ(**catalog_->GetPointer({{"other"}, "t2"}), "v3");
  EXPECT_EQ(catalog_->RenameTable(t, {{"other"}, "t3"}).error().kind(), ErrorKind::kNotFound);
  ASSERT_TRUE(catalog_->DeletePointer(u));
  EXPECT_EQ(catalog_->DeletePointer(u).error().kind(), ErrorKind::kNotFound);
  EXPECT_THAT(*catalog_->ListTables({"db"}), ::testing::IsEmpty());
}

TEST_P(SqlCatalogTest, ConcurrentCommittersNeverLoseAnUpdate) {
  ASSERT_TRUE(catalog_);
  TableIdentifier t{{"db"}, "hot"};
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
  ASSERT_TRUE(catalog_->SwapPointers({{t, std::nullopt, "start"}}));
  constexpr int kThreads = 8;
  constexpr int kCommitsEach = 25;
  std::mutex mu;
  std::map<std::string, std::string> successor;  // expected → new, for every successful swap.
  int duplicate_parents = 0;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kCommitsEach; ++i) {
        std::string mine = fmt::format("w{}-c{}", w, i);
        while (true) {
          auto current = catalog_->GetPointer(t);
          if (!current || !current->has_value()) {
            std::lock_guard lock(mu);
            failures.push_back(current ? "vanished" : current.error().ToString());
            return;
          }
          auto swapped = catalog_->SwapPointers({{t, **current, mine}});
          if (swapped) {
            std::lock_guard lock(mu);
            duplicate_parents += successor.contains(**current) ? 1 : 0;
            successor[**current] = mine;
            break;
          }
          if (swapped.error().kind() != ErrorKind::kConflict && swapped.error().kind() != ErrorKind::kUnavailable) {
            std::lock_guard lock(mu);
            failures.push_back(swapped.error().ToString());
            return;
          }
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  ASSERT_THAT(failures, ::testing::IsEmpty());
  EXPECT_EQ(duplicate_parents, 0);
  // Following the chain from the start visits every commit once and ends at the pointer.
  std::set<std::string> seen;
  std::string at = "start";
  while (successor.contains(at)) {
    at = successor[at];
    EXPECT_TRUE(seen.insert(at).second) << at;
  }
  EXPECT_EQ(seen.size(), size_t{kThreads * kCommitsEach});
  EXPECT_EQ(**catalog_->GetPointer(t), at);
}

TEST_P(SqlCatalogTest, TwoCatalogObjectsOnOneDatabaseSeeEachOther) {
  ASSERT_TRUE(catalog_);
  auto second = SqlCatalog::Open(connect_, catalog_name_);
  ASSERT_TRUE(second);
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
  TableIdentifier t{{"db"}, "t"};
  ASSERT_TRUE((*second)->SwapPointers({{t, std::nullopt, "a"}}));
  ASSERT_TRUE(catalog_->SwapPointers({{t, "a", "b"}}));
  EXPECT_EQ((*second)->SwapPointers({{t, "a", "c"}}).error().kind(), ErrorKind::kConflict);
  // Another catalog name in the same database is another catalog.
  auto other = SqlCatalog::Open(connect_, catalog_name_ + "x");
  ASSERT_TRUE(other);
  EXPECT_FALSE(*(*other)->NamespaceExists({"db"}));
}

// Views are the JDBC catalog's iceberg_type = 'VIEW' rows: beside the tables, never mixed up
// with them, sharing their names.
TEST_P(SqlCatalogTest, ViewsAreRowsOfTheirOwnKind) {
  ASSERT_TRUE(catalog_);
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
  TableIdentifier table{{"db"}, "t"};
  TableIdentifier view{{"db"}, "v"};
  ASSERT_TRUE(catalog_->SwapPointers({{table, std::nullopt, "file:///w/db/t/metadata/1.json"}}));
  ASSERT_TRUE(catalog_->SwapViewPointer({view, std::nullopt, "file:///w/db/v/metadata/1.json"}));

  EXPECT_THAT(*catalog_->ListTables({"db"}), ElementsAre(table));
  EXPECT_THAT(*catalog_->ListViews({"db"}), ElementsAre(view));
  EXPECT_EQ(**catalog_->GetViewPointer(view), "file:///w/db/v/metadata/1.json");
  EXPECT_FALSE(catalog_->GetViewPointer(table)->has_value());
  EXPECT_FALSE(catalog_->GetPointer(view)->has_value());

  // A name is a table or a view: creating either kind over the other is AlreadyExists, naming
  // what is there.
  auto view_over_table = catalog_->SwapViewPointer({table, std::nullopt, "file:///x"});
  ASSERT_FALSE(view_over_table);
  EXPECT_EQ(view_over_table.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_THAT(view_over_table.error().message(), ::testing::HasSubstr("table already exists: db.t"));
  auto table_over_view = catalog_->SwapPointers({{view, std::nullopt, "file:///x"}});
  ASSERT_FALSE(table_over_view);
  EXPECT_THAT(table_over_view.error().message(), ::testing::HasSubstr("view already exists: db.v"));

  // Replace is a compare-and-swap on the location; a table's pointer is not a view's.
  ASSERT_TRUE(catalog_->SwapViewPointer({view, "file:///w/db/v/metadata/1.json", "file:///w/db/v/metadata/2.json"}));
  auto stale = catalog_->SwapViewPointer({view, "file:///w/db/v/metadata/1.json", "file:///w/db/v/metadata/3.json"});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind(), ErrorKind::kConflict);
  EXPECT_FALSE(catalog_->SwapPointers({{view, "file:///w/db/v/metadata/2.json", "file:///y"}}));
  EXPECT_FALSE(catalog_->SwapViewPointer({table, "file:///w/db/t/metadata/1.json", "file:///y"}));

  // Rename: within the kind only, never onto a name of either kind.
  EXPECT_EQ(catalog_->RenameView(table, {{"db"}, "t2"}).error().code(), ErrorCode::kNoSuchView);
  EXPECT_EQ(catalog_->RenameTable(view, {{"db"}, "v2"}).error().code(), ErrorCode::kNoSuchTable);
  EXPECT_EQ(catalog_->RenameView(view, table).error().kind(), ErrorKind::kAlreadyExists);
  ASSERT_TRUE(catalog_->CreateNamespace({"other"}, {}));
  ASSERT_TRUE(catalog_->RenameView(view, {{"other"}, "w"}));
  EXPECT_TRUE(catalog_->ListViews({"db"})->empty());
  EXPECT_THAT(*catalog_->ListViews({"other"}), ElementsAre(TableIdentifier{{"other"}, "w"}));

  // A namespace holding a view is not empty; drop is per kind.
  EXPECT_EQ(catalog_->DropNamespace({"other"}).error().code(), ErrorCode::kNamespaceNotEmpty);
  EXPECT_EQ(catalog_->DeletePointer({{"other"}, "w"}).error().code(), ErrorCode::kNoSuchTable);
  EXPECT_EQ(catalog_->DeleteViewPointer(table).error().code(), ErrorCode::kNoSuchView);
  ASSERT_TRUE(catalog_->DeleteViewPointer({{"other"}, "w"}));
  EXPECT_EQ(catalog_->DeleteViewPointer({{"other"}, "w"}).error().code(), ErrorCode::kNoSuchView);
  EXPECT_THAT(*catalog_->ListTables({"db"}), ElementsAre(table));
}

INSTANTIATE_TEST_SUITE_P(Backends, SqlCatalogTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

// The catalog file PyIceberg's SqlCatalog wrote (tests/data/corpus) opens and lists its table.
TEST(SqlCatalogCorpusTest, OpensPyIcebergCatalog) {
  std::filesystem::path source = std::filesystem::path(io::testing::CorpusDir()) / "iceberg/partition_timestamp";
  ASSERT_TRUE(std::filesystem::exists(source / "pyiceberg_catalog.db")) << "corpus not found at " << source;
  // A copy: opening switches the file to WAL mode, and the corpus stays untouched.
  std::string folder = io::testing::FreshFolder();
  std::filesystem::copy_file(source / "pyiceberg_catalog.db", folder + "/catalog.db");
  auto catalog = SqlCatalog::Open([folder] { return OpenSqlite(folder + "/catalog.db"); });
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  EXPECT_THAT(*(*catalog)->ListNamespaces({}), ElementsAre(Namespace{"default"}));
  EXPECT_THAT(*(*catalog)->ListTables({"default"}), ElementsAre(TableIdentifier{{"default"}, "partition_timestamp"}));
  auto pointer = (*catalog)->GetPointer({{"default"}, "partition_timestamp"});
  ASSERT_TRUE(pointer && pointer->has_value());
  EXPECT_THAT(**pointer, ::testing::EndsWith("metadata/00001-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json"));
  EXPECT_THAT(*(*catalog)->LoadNamespaceProperties({"default"}), UnorderedElementsAre(std::pair{"exists", "true"}));
  // PyIceberg's table has no iceberg_type column: opening added it, the old row is a table, and
  // views live beside it.
  EXPECT_TRUE((*catalog)->ListViews({"default"})->empty());
  ASSERT_TRUE((*catalog)->SwapViewPointer({{{"default"}, "v"}, std::nullopt, "file:///v.json"}));
  EXPECT_THAT(*(*catalog)->ListTables({"default"}), ElementsAre(TableIdentifier{{"default"}, "partition_timestamp"}));
  EXPECT_THAT(*(*catalog)->ListViews({"default"}), ElementsAre(TableIdentifier{{"default"}, "v"}));
}

}  // namespace
}  // namespace floe::catalog
