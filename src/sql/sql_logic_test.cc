// Runs the SQL logic test files in tests/sql/*.slt (format: tests/sql/README.md) against an
// in-memory catalog. Every failure names its file and line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sql/catalog/memory_catalog.h"
#include "sql/parser/parser.h"
#include "sql/sql_session.h"
#include "sql/types/type_rules.h"
#include "sql/types/value_cast.h"

namespace floe::sql {
namespace {

std::string Render(const std::vector<StatementResult>& results, const TimeZone* zone) {
  std::string out;
  for (const auto& result : results) {
    for (const auto& row : result.rows) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) line += (i > 0 ? " | " : "") + ValueText(row[i], zone);
      out += line + "\n";
    }
    if (result.rows.empty() && !result.message.empty()) out += result.message + "\n";
  }
  return out;
}

// Whether rendered results match, comparing numbers that differ only in the last bits of a
// double as equal: parallel aggregation adds in a different order from run to run.
bool SameRendering(const std::string& actual, const std::string& expected) {
  if (actual == expected) return true;
  auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    size_t at = 0;
    while (at <= text.size()) {
      size_t bar = text.find(" | ", at);
      size_t newline = text.find('\n', at);
      size_t end = std::min(bar, newline);
      if (end == std::string::npos) {
        fields.push_back(text.substr(at));
        break;
      }
      fields.push_back(text.substr(at, end - at));
      fields.push_back(end == bar ? " | " : "\n");
      at = end + (end == bar ? 3 : 1);
    }
    return fields;
  };
  auto a = split(actual), e = split(expected);
  if (a.size() != e.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == e[i]) continue;
    char* a_end = nullptr;
    char* e_end = nullptr;
    double x = std::strtod(a[i].c_str(), &a_end);
    double y = std::strtod(e[i].c_str(), &e_end);
    // Only doubles as the engine renders them ("1.8888888888888886"), never "1" against "1.0".
    auto floating = [](const std::string& f) { return f.find_first_of(".e") != std::string::npos; };
    if (a[i].empty() || e[i].empty() || *a_end != '\0' || *e_end != '\0' || !floating(a[i]) || !floating(e[i])) {
      return false;
    }
    if (std::fabs(x - y) > 1e-12 * std::max(std::fabs(x), std::fabs(y))) return false;
  }
  return true;
}

// `table NAME (column type, ...) [rows N] [partitioned COLUMN,...]`: registers a table.
Status AddTable(MemoryCatalog& catalog, const std::string& spec) {
  size_t rows_at = spec.rfind(" rows ");
  size_t partitioned_at = spec.rfind(" partitioned ");
  std::string definition = spec.substr(0, std::min(rows_at, partitioned_at));
  FLOE_ASSIGN_OR_RETURN(auto statement, ParseStatement("CREATE TABLE " + definition));
  CatalogTable table;
  const auto& name = statement->name;
  table.name.schema = name.size() >= 2 ? name[name.size() - 2] : "default";
  table.name.table = name.back();
  int32_t field_id = 1;
  for (const auto& column : statement->columns) {
    FLOE_ASSIGN_OR_RETURN(SqlType type, TypeFromName(column.type));
    table.columns.push_back(TableColumn{column.name, type, !column.not_null, field_id++});
  }
  if (rows_at != std::string::npos) table.estimated_rows = std::stoll(spec.substr(rows_at + 6));
  if (partitioned_at != std::string::npos) {
    std::stringstream list(spec.substr(partitioned_at + 13));
    std::string column;
    while (std::getline(list, column, ',')) table.partition_columns.push_back(column);
  }
  table.location = "s3://warehouse/" + table.name.schema + "/" + table.name.table;
  catalog.AddTable(std::move(table));
  return OkStatus();
}

void RunFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  MemoryCatalog catalog;
  catalog.AddSchema("default");
  // Small splits and several threads, so the parallel paths run on small tables too.
  catalog.set_split_rows(3);
  SqlSession session(catalog);
  QueryOptions options;
  options.threads = 4;
  size_t i = 0;
  int checked = 0;
  auto where = [&](size_t line) { return fmt::format("{}:{}", path.filename().string(), line + 1); };
  while (i < lines.size()) {
    const std::string& head = lines[i];
    if (head.empty() || head[0] == '#') {
      ++i;
      continue;
    }
    size_t head_line = i++;
    if (head.starts_with("table ")) {
      auto added = AddTable(catalog, head.substr(6));
      EXPECT_TRUE(added.has_value()) << where(head_line) << ": " << added.error().ToString();
      continue;
    }
    std::string sql;
    while (i < lines.size() && !lines[i].empty() && lines[i] != "----") sql += lines[i++] + "\n";
    std::string expected;
    bool has_expected = false;
    if (i < lines.size() && lines[i] == "----") {
      has_expected = true;
      ++i;
      while (i < lines.size() && !lines[i].empty()) expected += lines[i++] + "\n";
    }
    ++checked;
    auto results = session.Run(sql, options);
    if (head == "statement ok") {
      EXPECT_TRUE(results.has_value()) << where(head_line) << ": " << results.error().ToString() << "\n" << sql;
    } else if (head.starts_with("statement error")) {
      std::string fragment = head.size() > 16 ? head.substr(16) : "";
      if (results.has_value()) {
        ADD_FAILURE() << where(head_line) << ": expected an error containing '" << fragment << "'\n" << sql;
      } else {
        EXPECT_NE(results.error().message().find(fragment), std::string::npos)
            << where(head_line) << ": error was: " << results.error().message() << "\nexpected to contain: " << fragment;
      }
    } else if (head.starts_with("statement notbuilt")) {
      EXPECT_FALSE(results.has_value()) << where(head_line);
      if (!results.has_value()) {
        EXPECT_EQ(results.error().kind(), ErrorKind::kNotImplemented) << where(head_line) << ": " << results.error().ToString();
      }
    } else if (head == "query") {
      if (std::getenv("FLOE_SLT_PRINT") != nullptr && results.has_value()) {
        std::cout << "query\n"
                  << sql << "----\n"
                  << Render(*results, session.options().time_zone.get()) << "\n";  // For writing expectations.
      }
      if (!results.has_value()) {
        ADD_FAILURE() << where(head_line) << ": " << results.error().ToString() << "\n" << sql;
      } else {
        EXPECT_TRUE(has_expected) << where(head_line) << ": query without ----";
        std::string rendered = Render(*results, session.options().time_zone.get());
        EXPECT_TRUE(SameRendering(rendered, expected))
            << where(head_line) << "\n" << sql << "\nactual:\n" << rendered << "expected:\n" << expected;
      }
    } else {
      ADD_FAILURE() << where(head_line) << ": unknown directive '" << head << "'";
    }
  }
  EXPECT_GT(checked, 0) << path << " has no statements";
}

TEST(SqlLogicTest, AllFiles) {
  const char* source = std::getenv("FLOE_SOURCE_DIR");
  std::filesystem::path dir = std::filesystem::path(source != nullptr ? source : ".") / "tests" / "sql";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".slt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    RunFile(file);
  }
}

}  // namespace
}  // namespace floe::sql
