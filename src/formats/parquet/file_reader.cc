#include "formats/parquet/file_reader.h"

#include <cmath>
#include <cstring>

#include "formats/parquet/record_assembler.h"
#include "formats/parquet/statistics.h"

namespace floe::parquet {
namespace {

constexpr uint64_t kFooterTail = 8;
constexpr uint64_t kMaxFooterBytes = 256 << 20;
// Most footers fit in this much, saving a second ranged read.
constexpr uint64_t kFooterGuess = 64 << 10;

}  // namespace

Result<std::unique_ptr<FileReader>> FileReader::Open(std::unique_ptr<io::InputFile> file, ReaderOptions options) {
  std::unique_ptr<FileReader> reader(new FileReader(std::move(file), options));
  FLOE_RETURN_IF_ERROR_CTX(reader->Init(), reader->file_->location());
  return reader;
}

Status FileReader::Init() {
  uint64_t size = file_->Size();
  if (size < 12) return Corruption("{} bytes is too small for a Parquet file", size);
  uint64_t guess = std::min(size, kFooterGuess);
  FLOE_ASSIGN_OR_RETURN(std::string tail, file_->ReadAt(size - guess, guess));
  if (tail.compare(tail.size() - 4, 4, "PAR1") != 0) {
    if (tail.compare(tail.size() - 4, 4, "PARE") == 0) return NotImplemented("encrypted Parquet footers are not supported");
    return Corruption("no PAR1 magic at the end of the file");
  }
  uint32_t footer_len;
  std::memcpy(&footer_len, tail.data() + tail.size() - 8, 4);
  if (footer_len > size - kFooterTail - 4 || footer_len > kMaxFooterBytes) {
    return Corruption("footer length {} does not fit a {} byte file", footer_len, size);
  }
  std::string footer;
  if (footer_len + kFooterTail <= guess) {
    footer = tail.substr(tail.size() - kFooterTail - footer_len, footer_len);
  } else {
    FLOE_ASSIGN_OR_RETURN(footer, file_->ReadAt(size - kFooterTail - footer_len, footer_len));
  }
  FLOE_ASSIGN_OR_RETURN_CTX(metadata_, DecodeFileMetaData(footer), "footer");
  FLOE_ASSIGN_OR_RETURN_CTX(schema_, Schema::FromParquet(metadata_.schema), "schema");
  size_t leaves = schema_.leaves().size();
  int64_t total = 0;
  for (size_t g = 0; g < metadata_.row_groups.size(); ++g) {
    const RowGroup& rg = metadata_.row_groups[g];
    if (rg.num_rows < 0) return Corruption("row group {}: negative row count", g);
    total += rg.num_rows;
    if (rg.columns.size() != leaves) return Corruption("row group {}: {} column chunks for {} columns", g, rg.columns.size(), leaves);
    for (size_t c = 0; c < leaves; ++c) {
      const ColumnChunk& cc = rg.columns[c];
      if (!cc.meta_data) return Corruption("row group {}: column {} has no metadata", g, c);
      if (!cc.file_path.empty()) return NotImplemented("column chunks in other files ({})", cc.file_path);
      const ColumnMetaData& m = *cc.meta_data;
      if (m.type != schema_.leaves()[c].physical) {
        return Corruption("row group {}: column {} is {} in its chunk, {} in the schema", g, c, PhysicalTypeName(m.type),
                          PhysicalTypeName(schema_.leaves()[c].physical));
      }
      if (m.total_compressed_size < 0 || m.data_page_offset < 0 || static_cast<uint64_t>(m.total_compressed_size) > size) {
        return Corruption("row group {}: column {}: bad chunk extent", g, c);
      }
    }
  }
  if (total != metadata_.num_rows) {
    // Some writers leave num_rows inconsistent; trust the row groups.
    metadata_.num_rows = total;
  }
  return OkStatus();
}

Result<std::vector<int>> FileReader::ResolveColumns(const std::vector<std::string>& names) const {
  std::vector<int> out;
  for (const auto& name : names) {
    int i = schema_.FindField(name);
    if (i < 0) return NotFound("{}: no column '{}'", location(), name);
    out.push_back(i);
  }
  return out;
}

Result<formats::ColumnBatch> FileReader::ReadRowGroup(int row_group, const std::vector<int>& fields_in) const {
  if (row_group < 0 || row_group >= num_row_groups()) return InvalidArgument("row group {} of {}", row_group, num_row_groups());
  std::vector<int> fields = fields_in;
  if (fields.empty()) {
    for (size_t i = 0; i < schema_.fields().size(); ++i) fields.push_back(static_cast<int>(i));
  }
  const RowGroup& rg = metadata_.row_groups[static_cast<size_t>(row_group)];
  formats::ColumnBatch batch;
  batch.num_rows = rg.num_rows;
  std::vector<DecodedChunk> chunks(schema_.leaves().size());
  for (int f : fields) {
    if (f < 0 || static_cast<size_t>(f) >= schema_.fields().size()) return InvalidArgument("no field {}", f);
    for (size_t l = 0; l < schema_.leaves().size(); ++l) {
      const LeafColumn& leaf = schema_.leaves()[l];
      if (leaf.top_field != f) continue;
      const ColumnMetaData& m = *rg.columns[l].meta_data;
      std::string where = fmt::format("{}: column '{}': row group {}", location(), fmt::join(leaf.path, "."), row_group);
      int64_t start = m.data_page_offset;
      if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < start) {
        start = *m.dictionary_page_offset;
      }
      if (static_cast<uint64_t>(start) > file_->Size() ||
          static_cast<uint64_t>(m.total_compressed_size) > file_->Size() - static_cast<uint64_t>(start)) {
        return Corruption("{}: chunk at {} of {} bytes runs past the file", where, start, m.total_compressed_size);
      }
      FLOE_ASSIGN_OR_RETURN_CTX(std::string bytes, file_->ReadAt(static_cast<uint64_t>(start), static_cast<uint64_t>(m.total_compressed_size)),
                                where);
      FLOE_RETURN_IF_ERROR_CTX(DecodeColumnChunk(leaf, m, bytes, rg.num_rows, options_, &chunks[l]), where);
    }
    FLOE_ASSIGN_OR_RETURN_CTX(formats::ColumnVector column, AssembleField(schema_, f, chunks, rg.num_rows),
                              fmt::format("{}: row group {}", location(), row_group));
    const SchemaNode& node = schema_.fields()[static_cast<size_t>(f)];
    formats::Field field;
    field.name = node.name;
    field.id = node.field_id;
    field.nullable = node.nullable;
    field.type = node.type;
    batch.fields.push_back(std::move(field));
    batch.columns.push_back(std::move(column));
  }
  return batch;
}

bool FileReader::MayMatch(int row_group, const ColumnPredicate& p) const {
  int f = schema_.FindField(p.column);
  if (f < 0) return true;
  const SchemaNode& node = schema_.fields()[static_cast<size_t>(f)];
  if (node.kind != SchemaNode::Kind::kPrimitive) return true;
  const LeafColumn& leaf = schema_.leaves()[static_cast<size_t>(node.leaf)];
  const RowGroup& rg = metadata_.row_groups[static_cast<size_t>(row_group)];
  const ColumnMetaData& m = *rg.columns[static_cast<size_t>(node.leaf)].meta_data;
  if (!m.statistics) return true;
  const Statistics& s = *m.statistics;
  if (p.op == ColumnPredicate::Op::kIsNull) return !s.null_count || *s.null_count > 0;
  if (p.op == ColumnPredicate::Op::kNotNull) return !s.null_count || *s.null_count < rg.num_rows;
  if (!s.min_value || !s.max_value) return true;  // Only the well-ordered fields are trusted.
  if (s.null_count && *s.null_count == rg.num_rows) return false;  // Comparisons never match nulls.
  // Encode the constant in the column's physical type, then compare in its order.
  std::string c;
  using formats::TypeId;
  TypeId id = node.type.id;
  if (const auto* i = std::get_if<int64_t>(&p.value)) {
    if (leaf.physical == PhysicalType::kInt32 && (id == TypeId::kInt32 || id == TypeId::kDate)) {
      if (*i < INT32_MIN) return p.op != ColumnPredicate::Op::kEq && p.op != ColumnPredicate::Op::kLt && p.op != ColumnPredicate::Op::kLe;
      if (*i > INT32_MAX) return p.op != ColumnPredicate::Op::kEq && p.op != ColumnPredicate::Op::kGt && p.op != ColumnPredicate::Op::kGe;
      c = PlainBytes(static_cast<int32_t>(*i));
    } else if (leaf.physical == PhysicalType::kInt64 &&
               (id == TypeId::kInt64 || ((id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTime) &&
                                         leaf.logical.unit == TimeUnit::kMicros))) {
      c = PlainBytes(*i);
    } else if (leaf.physical == PhysicalType::kBoolean) {
      c = std::string(1, static_cast<char>(*i != 0));
    } else {
      return true;
    }
  } else if (const auto* d = std::get_if<double>(&p.value)) {
    if (std::isnan(*d)) return true;
    if (leaf.physical == PhysicalType::kDouble) {
      c = PlainBytes(*d);
    } else if (leaf.physical == PhysicalType::kFloat) {
      c = PlainBytes(static_cast<float>(*d));
    } else {
      return true;
    }
  } else {
    if (leaf.physical != PhysicalType::kByteArray || id == TypeId::kDecimal) return true;
    c = std::get<std::string>(p.value);
  }
  ByteOrder order = ByteOrder::kUnsigned;
  int vs_min = ComparePlain(leaf.physical, order, c, *s.min_value);
  int vs_max = ComparePlain(leaf.physical, order, c, *s.max_value);
  switch (p.op) {
    case ColumnPredicate::Op::kEq: return vs_min >= 0 && vs_max <= 0;
    case ColumnPredicate::Op::kLt: return vs_min > 0;   // some value < c needs min < c
    case ColumnPredicate::Op::kLe: return vs_min >= 0;
    case ColumnPredicate::Op::kGt: return vs_max < 0;   // some value > c needs max > c
    case ColumnPredicate::Op::kGe: return vs_max <= 0;
    default: return true;
  }
}

std::vector<int> FileReader::SelectRowGroups(const std::vector<ColumnPredicate>& predicates) const {
  std::vector<int> out;
  for (int g = 0; g < num_row_groups(); ++g) {
    bool keep = true;
    for (const auto& p : predicates) keep = keep && MayMatch(g, p);
    if (keep) out.push_back(g);
  }
  return out;
}

}  // namespace floe::parquet
