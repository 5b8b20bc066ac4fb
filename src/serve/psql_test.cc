// Debian's psql (nobody's code here) against the PostgreSQL port of an in-process QueryServer
// over a catalog with tables: connect-time queries, several statements, errors with their
// position, and the pg_catalog queries behind \dt, \d NAME and \dn.
#include <unistd.h>

#include <gtest/gtest.h>

#include "serve/query_server.h"
#include "sql/catalog/memory_catalog.h"
#include "support/run_process.h"

namespace floe::serve {
namespace {

using floe::testing::RunProcess;

class PsqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/usr/bin/psql", X_OK) != 0) GTEST_SKIP() << "psql (Debian postgresql-client) is not installed";
    catalog_.AddSchema("default");
    sql::CatalogTable orders;
    orders.name = {"floe", "shop", "orders"};
    orders.columns = {{"order_id", sql::SqlType::Bigint(), false, 1},
                      {"amount", sql::SqlType::Decimal(10, 2), true, 2},
                      {"ts", sql::SqlType::TimestampTz(), true, 3},
                      {"region", sql::SqlType::Varchar(), true, 4}};
    catalog_.AddTable(orders);
    sql::CatalogTable customers;
    customers.name = {"floe", "shop", "customers"};
    customers.columns = {{"id", sql::SqlType::Integer(), false, 1}, {"name", sql::SqlType::Varchar(), true, 2}};
    catalog_.AddTable(customers);
    QueryServerOptions options;
    options.http_port = 0;
    options.pg_port = 0;
    server_ = std::make_unique<QueryServer>(catalog_, options);
    ASSERT_TRUE(server_->Start().has_value());
  }

  // psql's output for `commands` (-c each), unaligned with '|' between fields.
  testing::ProcessOutput Psql(const std::vector<std::string>& commands) {
    std::vector<std::string> argv = {"/usr/bin/psql", "-X", "-A", "-h", "127.0.0.1", "-p",
                                     std::to_string(server_->pg_port()), "-U", "tester", "-d", "floe"};
    for (const auto& c : commands) {
      argv.push_back("-c");
      argv.push_back(c);
    }
    return RunProcess(argv, {"PGCONNECT_TIMEOUT=10"});
  }

  sql::MemoryCatalog catalog_;
  std::unique_ptr<QueryServer> server_;
};

TEST_F(PsqlTest, RunsQueriesAndReportsErrorsWithTheirPosition) {
  auto out = Psql({"SELECT 1 AS a, 'x' AS b; SELECT 2 AS c", "SHOW server_version", "SELECT current_schema()"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("a|b\n1|x\n(1 row)"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("c\n2\n(1 row)"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("server_version\n15.0"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("current_schema\ndefault"), std::string::npos) << out.out;
  auto error = Psql({"SELECT amount_x FROM shop.orders"});
  EXPECT_NE(error.exit_code, 0);
  EXPECT_NE(error.err.find("ERROR:"), std::string::npos) << error.err;
  EXPECT_NE(error.err.find("cannot be resolved"), std::string::npos) << error.err;
  // psql draws the caret under the position the server reported.
  EXPECT_NE(error.err.find("LINE 1: SELECT amount_x FROM shop.orders\n               ^"), std::string::npos) << error.err;
}

TEST_F(PsqlTest, ListsTablesAndDescribesOne) {
  auto list = Psql({"\\dt shop.*"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("Schema|Name|Type|Owner\n"), std::string::npos) << list.out << list.err;
  EXPECT_NE(list.out.find("shop|customers|table|tester"), std::string::npos) << list.out << list.err;
  EXPECT_NE(list.out.find("shop|orders|table|tester"), std::string::npos) << list.out;
  auto described = Psql({"\\d shop.orders"});
  EXPECT_EQ(described.exit_code, 0) << described.err;
  EXPECT_NE(described.out.find("order_id|bigint"), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("amount|numeric"), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("ts|timestamp with time zone"), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("region|text"), std::string::npos) << described.out;
  auto schemas = Psql({"\\dn"});
  EXPECT_EQ(schemas.exit_code, 0) << schemas.err;
  EXPECT_NE(schemas.out.find("shop|tester"), std::string::npos) << schemas.out;
}

}  // namespace
}  // namespace floe::serve
