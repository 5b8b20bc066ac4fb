#include "sql/iceberg/metadata_columns.h"

#include <algorithm>
#include <string_view>

#include "iceberg/row_lineage.h"

namespace floe::sql::iceberg_sql {
namespace {

// Reserved field ids of the spec.
constexpr int32_t kFileFieldId = 2147483646;
constexpr int32_t kPositionFieldId = 2147483645;
constexpr int32_t kSpecIdFieldId = 2147483641;

struct Definition {
  std::string_view name;
  int32_t field_id;
  SqlType type;
  int min_format_version;
};

const std::vector<Definition>& Definitions() {
  static const std::vector<Definition> kDefinitions = {
      {"$path", kFileFieldId, SqlType::Varchar(), 1},
      {"_file", kFileFieldId, SqlType::Varchar(), 1},
      {"_pos", kPositionFieldId, SqlType::Bigint(), 1},
      {"_spec_id", kSpecIdFieldId, SqlType::Integer(), 1},
      {iceberg::kRowIdColumn, iceberg::kRowIdFieldId, SqlType::Bigint(), 3},
      {iceberg::kLastUpdatedSequenceNumberColumn, iceberg::kLastUpdatedSequenceNumberFieldId, SqlType::Bigint(), 3},
  };
  return kDefinitions;
}

}  // namespace

std::vector<TableColumn> MetadataColumnsFor(const std::vector<TableColumn>& columns, int format_version) {
  std::vector<TableColumn> out;
  for (const Definition& d : Definitions()) {
    if (format_version < d.min_format_version) continue;
    if (std::any_of(columns.begin(), columns.end(), [&](const TableColumn& c) { return c.name == d.name; })) continue;
    // `_row_id` is null for rows written before the table became v3 (they have no lineage).
    out.push_back(TableColumn{std::string(d.name), d.type, d.field_id == iceberg::kRowIdFieldId, d.field_id});
  }
  return out;
}

std::optional<MetadataColumn> MetadataColumnOf(int32_t field_id) {
  switch (field_id) {
    case kFileFieldId:
      return MetadataColumn::kFilePath;
    case kPositionFieldId:
      return MetadataColumn::kPosition;
    case kSpecIdFieldId:
      return MetadataColumn::kSpecId;
    case iceberg::kRowIdFieldId:
      return MetadataColumn::kRowId;
    case iceberg::kLastUpdatedSequenceNumberFieldId:
      return MetadataColumn::kLastUpdatedSequenceNumber;
    default:
      return std::nullopt;
  }
}

bool DependsOnPosition(MetadataColumn column) {
  return column == MetadataColumn::kPosition || column == MetadataColumn::kRowId ||
         column == MetadataColumn::kLastUpdatedSequenceNumber;
}

}  // namespace floe::sql::iceberg_sql
