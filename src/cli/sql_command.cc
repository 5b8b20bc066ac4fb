// `floe sql`: run SQL from the command line (src/sql). Without --catalog the tables live in an
// in-memory catalog for the run; --threads sets the executor's worker threads.
#include <editline/readline.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "sql/catalog/memory_catalog.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/sql_session.h"
#include "sql/types/value_cast.h"

namespace floe::cli {
namespace {

constexpr int kHistoryEntries = 1000;

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

void Print(const sql::StatementResult& result, const std::string& format, const TimeZone* zone) {
  auto text = [zone](const sql::Value& value) { return sql::ValueText(value, zone); };
  if (result.column_names.empty()) {
    if (!result.message.empty()) std::cout << result.message << "\n";
    return;
  }
  if (format == "csv") {
    for (size_t i = 0; i < result.column_names.size(); ++i) std::cout << (i ? "," : "") << CsvField(result.column_names[i]);
    std::cout << "\n";
    for (const auto& row : result.rows) {
      for (size_t i = 0; i < row.size(); ++i)
        std::cout << (i ? "," : "") << (row[i].is_null() ? "" : CsvField(text(row[i])));
      std::cout << "\n";
    }
    return;
  }
  if (format == "json") {
    for (const auto& row : result.rows) {
      std::cout << "{";
      for (size_t i = 0; i < row.size(); ++i) {
        std::cout << (i ? "," : "") << JsonString(result.column_names[i]) << ":";
        const sql::SqlType& type = result.column_types[i];
        if (row[i].is_null()) {
          std::cout << "null";
        } else if (type.IsInteger() || type.kind() == sql::TypeKind::kDouble || type.kind() == sql::TypeKind::kReal ||
                   type.kind() == sql::TypeKind::kBoolean) {
          std::cout << row[i].ToText();
        } else {
          std::cout << JsonString(text(row[i]));
        }
      }
      std::cout << "}\n";
    }
    return;
  }
  // Aligned table; a single multi-line text column (EXPLAIN) prints as plain lines.
  if (result.column_names.size() == 1 && result.rows.size() == 1 && result.rows[0][0].ToText().find('\n') != std::string::npos) {
    std::cout << result.rows[0][0].ToText() << "\n";
    return;
  }
  std::vector<size_t> widths;
  for (const auto& name : result.column_names) widths.push_back(name.size());
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : result.rows) {
    std::vector<std::string> line;
    for (size_t i = 0; i < row.size(); ++i) {
      line.push_back(row[i].is_null() ? "NULL" : text(row[i]));
      widths[i] = std::max(widths[i], line.back().size());
    }
    cells.push_back(std::move(line));
  }
  auto print_line = [&](const std::vector<std::string>& line) {
    for (size_t i = 0; i < line.size(); ++i) {
      std::cout << (i ? " | " : " ") << line[i] << std::string(widths[i] - line[i].size(), ' ');
    }
    std::cout << "\n";
  };
  print_line(result.column_names);
  for (size_t i = 0; i < widths.size(); ++i) std::cout << (i ? "-+-" : "-") << std::string(widths[i], '-');
  std::cout << "\n";
  for (const auto& line : cells) print_line(line);
  std::cout << "(" << result.rows.size() << " row" << (result.rows.size() == 1 ? "" : "s") << ")\n";
}

// Runs `text`, printing each statement's result as it finishes (as psql does, so the statements
// before a failing one still show); returns the exit code. Errors print one line on stderr.
int RunText(sql::SqlSession& session, const std::string& text, const std::string& format, const sql::QueryOptions& options) {
  auto results = session.Run(text, options, [&](const sql::StatementResult& result) {
    for (const std::string& warning : result.warnings) std::cerr << "WARNING: " << warning << "\n";
    Print(result, format, session.options().time_zone.get());
    std::cout.flush();
  });
  if (!results.has_value()) {
    std::cerr << "floe sql: " << results.error().message() << "\n";
    return results.error().kind() == ErrorKind::kNotImplemented ? kExitNotBuilt : kExitFailure;
  }
  return kExitOk;
}

bool IsQuit(std::string_view line) {
  size_t b = line.find_first_not_of(" \t");
  size_t e = line.find_last_not_of(" \t;");
  if (b == std::string_view::npos || e == std::string_view::npos || e < b) return false;
  std::string_view word = line.substr(b, e - b + 1);
  return word == "\\q" || word == "quit" || word == "exit";
}

// The shell reads statements ending with ';' (several lines each) until end of input or \q.
// At a terminal it edits lines and keeps a history across runs in ~/.floe_sql_history (as
// psql keeps ~/.psql_history); piped input is read as it comes.
int RunShell(sql::SqlSession& session, const std::string& format, const sql::QueryOptions& options) {
  const bool interactive = isatty(0) && isatty(1);
  std::string history;
  if (interactive) {
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') history = std::string(home) + "/.floe_sql_history";
    using_history();
    stifle_history(kHistoryEntries);
    if (!history.empty()) read_history(history.c_str());
  }
  std::string buffer;
  int status = kExitOk;
  while (true) {
    std::string line;
    if (interactive) {
      char* read = readline(buffer.empty() ? "floe> " : "   -> ");
      if (read == nullptr) break;
      line = read;
      std::free(read);
    } else if (!std::getline(std::cin, line)) {
      break;
    }
    if (buffer.empty() && IsQuit(line)) break;
    if (buffer.empty() && line.find_first_not_of(" \t") == std::string::npos) continue;
    buffer += line + "\n";
    if (line.find(';') == std::string::npos) continue;
    if (interactive) {
      std::string entry = buffer.substr(0, buffer.size() - 1);
      add_history(entry.c_str());
      if (!history.empty()) write_history(history.c_str());
    }
    status = RunText(session, buffer, format, options);
    buffer.clear();
  }
  if (buffer.find_first_not_of(" \t\n") != std::string::npos) status = RunText(session, buffer, format, options);
  if (interactive) std::cout << "\n";
  return status;
}

}  // namespace

void RegisterSqlCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string catalog, warehouse, execute, file, format = "table", freshness = "live", spill_dir;
    int threads = 0;
    int64_t query_memory_mb = 1024;
    bool no_spill = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "sql", "Run SQL: -e SQL, -f FILE, or an interactive shell", "sql", [flags] {
    // Tables come from a catalog service or a warehouse folder (src/sql/iceberg); without
    // either, statements plan against an empty in-memory catalog.
    std::unique_ptr<sql::SqlCatalog> owned;
    if (!flags->catalog.empty() || !flags->warehouse.empty()) {
      auto opened = flags->catalog.empty() ? sql::iceberg_sql::IcebergSqlCatalog::OpenWarehouse(flags->warehouse)
                                           : sql::iceberg_sql::IcebergSqlCatalog::OpenService(flags->catalog, flags->warehouse);
      if (!opened) {
        std::cerr << "floe sql: " << opened.error().message() << "\n";
        return kExitFailure;
      }
      owned = std::move(*opened);
    } else {
      auto memory = std::make_unique<sql::MemoryCatalog>();
      memory->AddSchema("default");
      owned = std::move(memory);
    }
    sql::SqlCatalog& catalog = *owned;
    sql::SqlSession session(catalog);
    sql::QueryOptions options;
    options.threads = flags->threads;
    options.memory_limit_bytes = flags->query_memory_mb << 20;
    options.spill_dir = flags->spill_dir;
    options.spill = !flags->no_spill;
    options.freshness = *sql::ParseFreshness(flags->freshness);  // Checked by CLI11.
    if (!flags->execute.empty()) return RunText(session, flags->execute, flags->format, options);
    if (!flags->file.empty()) {
      std::ifstream in(flags->file);
      if (!in) {
        std::cerr << "floe sql: cannot read " << flags->file << "\n";
        return kExitFailure;
      }
      std::stringstream text;
      text << in.rdbuf();
      return RunText(session, text.str(), flags->format, options);
    }
    return RunShell(session, flags->format, options);
  });
  app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
  app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
  app->add_option("-e,--execute", flags->execute, "SQL to run");
  app->add_option("-f,--file", flags->file, "File of SQL statements to run");
  app->add_option("--format", flags->format, "Output: table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  app->add_option("--threads", flags->threads, "Worker threads (default: all cores)");
  app->add_option("--query-memory-mb", flags->query_memory_mb, "Memory for a query's hash tables, sorts and results")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  app->add_option("--spill-dir", flags->spill_dir,
                  "Where joins and aggregations past the memory limit spill (default: the temporary folder)");
  app->add_flag("--no-spill", flags->no_spill, "Fail a query at the memory limit instead of spilling");
  app->add_option("--freshness", flags->freshness,
                  "live: stream-fed tables include the log tail past their snapshot; snapshot: committed data only")
      ->check(CLI::IsMember({"live", "snapshot"}))
      ->capture_default_str();
}

}  // namespace floe::cli
