// Routing: which table each record of a many-topic stream job goes to (`floe stream --topics
// REGEX --table-from topic|field:NAME [--route FILE]`), as the Iceberg Kafka Connect sink routes
// one connector's records by a route field (`iceberg.tables.route-field`), either to the table the
// value names (`iceberg.tables.dynamic-enabled`) or to every table whose `route-regex` matches it.
//
// The route value of a record is its topic's name (`--table-from topic`) or the string in a
// top-level field of its JSON value (`--table-from field:NAME`). Without a route file the value
// is the table's name: `--table NS` puts it in namespace NS, `--table NS.PREFIX*` in NS with the
// prefix. With a route file (docs/stream.md, "Routing"), each line `REGEX -> TABLE` sends the
// records whose whole value matches REGEX to TABLE (`NS.NAME`, or a bare NAME in --table's
// namespace); a record goes to every table whose line matches, as in Connect. A value that names
// no valid table, or that no line matches, is not a route: the record is a dead letter saying why.
//
// Plain values once built; Router is immutable and may be used from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "catalog/table_identifier.h"

namespace floe::stream {

// Where a record's route value comes from.
struct RouteValueSource {
  enum class Kind { kTopic, kField };
  Kind kind = Kind::kTopic;
  std::string field;  // kField: the top-level JSON field.
};

// "topic" or "field:NAME" (NAME non-empty, printable, at most 255 bytes).
Result<RouteValueSource> ParseTableFrom(std::string_view text);

// Where tables named by route values go: `--table NS` or `--table NS.PREFIX*`.
struct RoutedTableName {
  catalog::Namespace ns;
  std::string prefix;
};
Result<RoutedTableName> ParseRoutedTable(std::string_view text);

struct RouteRule {
  std::string pattern;  // As written.
  std::regex regex;     // ECMAScript, matched against the whole value.
  catalog::TableIdentifier table;
  int line = 0;
};

// The route file's text: lines `REGEX -> TABLE`; blank lines and lines starting with '#' are
// skipped; ` -> ` (the last one on the line) separates the two. Errors name the file, line and
// column. At most 64 KiB, 1000 rules, patterns of 1000 bytes.
Result<std::vector<RouteRule>> ParseRouteFile(std::string_view text, std::string_view file_name,
                                              const RoutedTableName& defaults);

// The tables of one route value, or why it has none.
struct RouteResult {
  std::vector<catalog::TableIdentifier> tables;  // Empty: unroutable, see `reason`.
  std::string reason;
};

// Reads route values. Owns a JSON parser: one per thread.
class RouteValueReader {
 public:
  explicit RouteValueReader(RouteValueSource source);
  ~RouteValueReader();
  RouteValueReader(const RouteValueReader&) = delete;
  RouteValueReader& operator=(const RouteValueReader&) = delete;

  // The route value of a record: its topic, or the string of the field in its JSON value (a
  // number's text is taken too). An error's message is the dead letter's reason.
  Result<std::string> Read(std::string_view topic, std::string_view value, bool value_null);

 private:
  struct JsonParser;
  RouteValueSource source_;
  std::unique_ptr<JsonParser> json_;
};

class Router {
 public:
  // Route values longer than this are refused before any regex sees them.
  static constexpr size_t kMaxValueBytes = 255;

  Router(RouteValueSource source, RoutedTableName names, std::vector<RouteRule> rules,
         catalog::TableIdentifier dead_letters)
      : source_(std::move(source)),
        names_(std::move(names)),
        rules_(std::move(rules)),
        dead_letters_(std::move(dead_letters)) {}

  const RouteValueSource& source() const { return source_; }
  const RoutedTableName& names() const { return names_; }
  bool routes_by_topic() const { return source_.kind == RouteValueSource::Kind::kTopic; }
  const std::vector<RouteRule>& rules() const { return rules_; }

  RouteResult Resolve(std::string_view route_value) const;

 private:
  RouteValueSource source_;
  RoutedTableName names_;
  std::vector<RouteRule> rules_;
  catalog::TableIdentifier dead_letters_;
};

}  // namespace floe::stream
