#include "sql/planner/scan_predicate.h"

#include <fmt/format.h>

namespace floe::sql {

std::string ColumnPredicate::ToString() const {
  auto value = [&](size_t i) { return i < values.size() ? values[i].ToSql() : std::string("?"); };
  switch (op) {
    case Op::kEq: return fmt::format("{} = {}", column, value(0));
    case Op::kNotEq: return fmt::format("{} <> {}", column, value(0));
    case Op::kLt: return fmt::format("{} < {}", column, value(0));
    case Op::kLtEq: return fmt::format("{} <= {}", column, value(0));
    case Op::kGt: return fmt::format("{} > {}", column, value(0));
    case Op::kGtEq: return fmt::format("{} >= {}", column, value(0));
    case Op::kIsNull: return fmt::format("{} IS NULL", column);
    case Op::kIsNotNull: return fmt::format("{} IS NOT NULL", column);
    case Op::kStartsWith: return fmt::format("{} STARTS WITH {}", column, value(0));
    case Op::kIn: {
      std::string list;
      for (size_t i = 0; i < values.size(); ++i) list += (i > 0 ? ", " : "") + values[i].ToSql();
      return fmt::format("{} IN ({})", column, list);
    }
  }
  return "?";
}

std::string ScanPredicate::ToString() const {
  std::string out;
  for (const auto& term : terms) out += (out.empty() ? "" : " AND ") + term.ToString();
  for (const auto& term : residual) out += (out.empty() ? "" : " AND ") + term->ToString();
  return out;
}

}  // namespace floe::sql
