#include "sql/binder/system_tables.h"

#include <algorithm>
#include <limits>

namespace floe::sql {
namespace {

// java.sql.Types.
constexpr int kTinyint = -6, kSmallint = 5, kInteger = 4, kBigint = -5, kReal = 7, kDouble = 8, kDecimal = 3,
              kVarchar = 12, kDate = 91, kTime = 92, kTimestamp = 93, kVarbinary = -3, kBoolean = 16, kArray = 2003,
              kJavaObject = 2000, kTimestampTz = 2014;
// java.sql.DatabaseMetaData.
constexpr int64_t kColumnNoNulls = 0, kColumnNullable = 1, kTypeNullable = 1, kTypePredNone = 0, kTypeSearchable = 3;
// The longest IANA zone name ("America/Argentina/ComodRivadavia"), as Trino sizes timestamps with a zone.
constexpr int64_t kMaxZoneNameLength = 32;

Value Text(std::string_view s) { return Value::String(SqlType::Varchar(), std::string(s)); }
Value Int(int64_t v) { return Value::Int(SqlType::Bigint(), v); }
Value Bool(bool v) { return Value::Boolean(v); }
Value NullText() { return Value::Null(SqlType::Varchar()); }
Value NullInt() { return Value::Null(SqlType::Bigint()); }
Value OrNull(std::optional<int64_t> v) { return v ? Int(*v) : NullInt(); }

// Column lists: a name ending in '#' is a bigint, '?' a boolean, anything else a varchar.
std::vector<TableColumn> Columns(std::initializer_list<std::string_view> names) {
  std::vector<TableColumn> out;
  for (std::string_view name : names) {
    SqlType type = SqlType::Varchar();
    if (name.ends_with('#')) type = SqlType::Bigint();
    if (name.ends_with('?')) type = SqlType::Boolean();
    if (name.ends_with('#') || name.ends_with('?')) name.remove_suffix(1);
    out.push_back(TableColumn{std::string(name), type});
  }
  return out;
}

// COLUMN_SIZE: digits of exact numbers, bits of binary floats, characters of text and times.
std::optional<int64_t> ColumnSize(const SqlType& type) {
  int64_t fraction = 6;  // floe's times and timestamps carry microseconds.
  switch (type.kind()) {
    case TypeKind::kTinyint: return 3;
    case TypeKind::kSmallint: return 5;
    case TypeKind::kInteger: return 10;
    case TypeKind::kBigint: return 19;
    case TypeKind::kReal: return 24;
    case TypeKind::kDouble: return 53;
    case TypeKind::kDecimal: return type.precision();
    case TypeKind::kVarchar:
    case TypeKind::kVarbinary: return std::numeric_limits<int32_t>::max();
    case TypeKind::kDate: return 14;  // +5881580-07-11
    case TypeKind::kTime: return 8 + 1 + fraction;
    case TypeKind::kTimestamp: return 1 + 5 + 15 + 1 + fraction;
    case TypeKind::kTimestampTz: return 1 + 6 + 15 + 1 + fraction + 1 + kMaxZoneNameLength;
    default: return std::nullopt;
  }
}

std::optional<int64_t> DecimalDigits(const SqlType& type) {
  if (type.kind() == TypeKind::kDecimal) return type.scale();
  if (type.kind() == TypeKind::kTime || type.kind() == TypeKind::kTimestamp || type.kind() == TypeKind::kTimestampTz) {
    return 6;
  }
  return std::nullopt;
}

std::optional<int64_t> Radix(const SqlType& type) {
  if (type.IsExactNumeric()) return 10;
  if (type.kind() == TypeKind::kReal || type.kind() == TypeKind::kDouble) return 2;
  return std::nullopt;
}

std::optional<int64_t> OctetLength(const SqlType& type) {
  if (type.kind() == TypeKind::kVarchar || type.kind() == TypeKind::kVarbinary) return std::numeric_limits<int32_t>::max();
  return std::nullopt;
}

// Every (schema, table) of `catalog`, schemas and tables in name order.
Result<std::vector<std::pair<std::string, std::string>>> ListTables(const SqlCatalog& catalog, const std::string& name) {
  std::vector<std::pair<std::string, std::string>> out;
  FLOE_ASSIGN_OR_RETURN(auto schemas, catalog.SchemaNames(name));
  std::sort(schemas.begin(), schemas.end());
  for (const auto& schema : schemas) {
    FLOE_ASSIGN_OR_RETURN(auto tables, catalog.TableNames(name, schema));
    std::sort(tables.begin(), tables.end());
    for (const auto& table : tables) out.emplace_back(schema, table);
  }
  return out;
}

Result<SystemTable> JdbcColumns(const SqlCatalog& catalog) {
  SystemTable out;
  out.columns = Columns({"table_cat", "table_schem", "table_name", "column_name", "data_type#", "type_name",
                         "column_size#", "buffer_length#", "decimal_digits#", "num_prec_radix#", "nullable#", "remarks",
                         "column_def", "sql_data_type#", "sql_datetime_sub#", "char_octet_length#", "ordinal_position#",
                         "is_nullable", "scope_catalog", "scope_schema", "scope_table", "source_data_type#",
                         "is_autoincrement", "is_generatedcolumn"});
  for (const std::string& name : catalog.CatalogNames()) {
    FLOE_ASSIGN_OR_RETURN(auto tables, ListTables(catalog, name));
    for (const auto& [schema, table] : tables) {
      auto info = catalog.GetTable(QualifiedTableName{name, schema, table}, TableVersion{});
      if (!info) continue;  // Dropped meanwhile, or unreadable: listing goes on, as Trino's does.
      int64_t position = 1;
      for (const TableColumn& c : (*info)->columns) {
        out.rows.push_back({Text(name), Text(schema), Text(table), Text(c.name), Int(JdbcTypeCode(c.type)),
                            Text(c.type.ToString()), OrNull(ColumnSize(c.type)), Int(0), OrNull(DecimalDigits(c.type)),
                            OrNull(Radix(c.type)), Int(c.nullable ? kColumnNullable : kColumnNoNulls), NullText(),
                            NullText(), NullInt(), NullInt(), OrNull(OctetLength(c.type)), Int(position++),
                            Text(c.nullable ? "YES" : "NO"), NullText(), NullText(), NullText(), NullInt(), Text("NO"),
                            Text("NO")});
      }
    }
  }
  return out;
}

SystemTable JdbcTypes() {
  SystemTable out;
  out.columns = Columns({"type_name", "data_type#", "precision#", "literal_prefix", "literal_suffix", "create_params",
                         "nullable#", "case_sensitive?", "searchable#", "unsigned_attribute?", "fixed_prec_scale?",
                         "auto_increment?", "local_type_name", "minimum_scale#", "maximum_scale#", "sql_data_type#",
                         "sql_datetime_sub#", "num_prec_radix#"});
  std::vector<SqlType> types = {SqlType::Boolean(),         SqlType(TypeKind::kTinyint), SqlType(TypeKind::kSmallint),
                                SqlType::Integer(),         SqlType::Bigint(),           SqlType(TypeKind::kReal),
                                SqlType::Double(),          SqlType::Decimal(38, 0),     SqlType::Varchar(),
                                SqlType(TypeKind::kVarbinary), SqlType::Date(),          SqlType(TypeKind::kTime),
                                SqlType::Timestamp(),       SqlType::TimestampTz(),      SqlType(TypeKind::kUuid)};
  for (const SqlType& type : types) {
    std::string name = type.ToString();
    if (type.kind() == TypeKind::kDecimal) name = "decimal";  // Parametric: listed by its base name.
    bool searchable = !type.IsNested() || type.kind() == TypeKind::kBoolean || type.kind() == TypeKind::kVarbinary ||
                      type.kind() == TypeKind::kUuid;
    out.rows.push_back({Text(name), Int(JdbcTypeCode(type)), OrNull(ColumnSize(type)), NullText(), NullText(),
                        NullText(), Int(kTypeNullable), Bool(false), Int(searchable ? kTypeSearchable : kTypePredNone),
                        Value::Null(SqlType::Boolean()), Bool(false), Value::Null(SqlType::Boolean()), NullText(),
                        Int(0), Int(0), NullInt(), NullInt(), OrNull(Radix(type))});
  }
  for (std::string_view parametric : {"array", "map", "row"}) {
    out.rows.push_back({Text(parametric), Int(parametric == "array" ? kArray : kJavaObject), NullInt(), NullText(),
                        NullText(), NullText(), Int(kTypeNullable), Bool(false), Int(kTypePredNone),
                        Value::Null(SqlType::Boolean()), Bool(false), Value::Null(SqlType::Boolean()), NullText(),
                        Int(0), Int(0), NullInt(), NullInt(), NullInt()});
  }
  return out;
}

}  // namespace

int JdbcTypeCode(const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBoolean: return kBoolean;
    case TypeKind::kTinyint: return kTinyint;
    case TypeKind::kSmallint: return kSmallint;
    case TypeKind::kInteger: return kInteger;
    case TypeKind::kBigint: return kBigint;
    case TypeKind::kReal: return kReal;
    case TypeKind::kDouble: return kDouble;
    case TypeKind::kDecimal: return kDecimal;
    case TypeKind::kVarchar: return kVarchar;
    case TypeKind::kVarbinary: return kVarbinary;
    case TypeKind::kDate: return kDate;
    case TypeKind::kTime: return kTime;
    case TypeKind::kTimestamp: return kTimestamp;
    case TypeKind::kTimestampTz: return kTimestampTz;
    case TypeKind::kArray: return kArray;
    default: return kJavaObject;
  }
}

std::vector<std::string> SystemSchemaNames() { return {"jdbc", "metadata"}; }

Result<std::optional<SystemTable>> ReadSystemTable(const SqlCatalog& catalog, std::string_view schema,
                                                   std::string_view table) {
  SystemTable out;
  if (schema == "metadata" && table == "catalogs") {
    out.columns = Columns({"catalog_name", "connector_id", "connector_name"});
    for (const std::string& name : catalog.CatalogNames()) out.rows.push_back({Text(name), Text(name), Text("iceberg")});
    return out;
  }
  if (schema != "jdbc") return std::nullopt;
  if (table == "catalogs") {
    out.columns = Columns({"table_cat"});
    for (const std::string& name : catalog.CatalogNames()) out.rows.push_back({Text(name)});
    return out;
  }
  if (table == "schemas") {
    out.columns = Columns({"table_schem", "table_catalog"});
    for (const std::string& name : catalog.CatalogNames()) {
      FLOE_ASSIGN_OR_RETURN(auto schemas, catalog.SchemaNames(name));
      schemas.push_back("information_schema");
      std::sort(schemas.begin(), schemas.end());
      for (const auto& s : schemas) out.rows.push_back({Text(s), Text(name)});
    }
    return out;
  }
  if (table == "tables") {
    out.columns = Columns({"table_cat", "table_schem", "table_name", "table_type", "remarks", "type_cat", "type_schem",
                           "type_name", "self_referencing_col_name", "ref_generation"});
    for (const std::string& name : catalog.CatalogNames()) {
      FLOE_ASSIGN_OR_RETURN(auto tables, ListTables(catalog, name));
      for (const auto& [s, t] : tables) {
        out.rows.push_back({Text(name), Text(s), Text(t), Text("TABLE"), NullText(), NullText(), NullText(), NullText(),
                            NullText(), NullText()});
      }
    }
    return out;
  }
  if (table == "columns") return JdbcColumns(catalog);
  if (table == "table_types") {
    out.columns = Columns({"table_type"});
    out.rows = {{Text("TABLE")}, {Text("VIEW")}};
    return out;
  }
  if (table == "types") return JdbcTypes();
  // What the driver reads only to hand an empty result set of the right shape to the caller.
  if (table == "procedures") {
    out.columns = Columns({"procedure_cat", "procedure_schem", "procedure_name", "remarks", "procedure_type#",
                           "specific_name"});
  } else if (table == "procedure_columns") {
    out.columns = Columns({"procedure_cat", "procedure_schem", "procedure_name", "column_name", "column_type#",
                           "data_type#", "type_name", "precision#", "length#", "scale#", "radix#", "nullable#",
                           "remarks", "column_def", "sql_data_type#", "sql_datetime_sub#", "char_octet_length#",
                           "ordinal_position#", "is_nullable", "specific_name"});
  } else if (table == "udts") {
    out.columns = Columns({"type_cat", "type_schem", "type_name", "class_name", "data_type#", "remarks", "base_type#"});
  } else if (table == "super_types") {
    out.columns = Columns({"type_cat", "type_schem", "type_name", "supertype_cat", "supertype_schem", "supertype_name"});
  } else if (table == "super_tables") {
    out.columns = Columns({"table_cat", "table_schem", "table_name", "supertable_name"});
  } else if (table == "attributes") {
    out.columns = Columns({"type_cat", "type_schem", "type_name", "attr_name", "data_type#", "attr_type_name",
                           "attr_size#", "decimal_digits#", "num_prec_radix#", "nullable#", "remarks", "attr_def",
                           "sql_data_type#", "sql_datetime_sub#", "char_octet_length#", "ordinal_position#",
                           "is_nullable", "scope_catalog", "scope_schema", "scope_table", "source_data_type#"});
  } else if (table == "pseudo_columns") {
    out.columns = Columns({"table_cat", "table_schem", "table_name", "column_name", "data_type#", "column_size#",
                           "decimal_digits#", "num_prec_radix#", "column_usage", "remarks", "char_octet_length#",
                           "is_nullable"});
  } else {
    return std::nullopt;
  }
  return out;
}

}  // namespace floe::sql
