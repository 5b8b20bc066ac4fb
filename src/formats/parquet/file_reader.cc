#include "formats/parquet/file_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

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

Result<std::string> FileReader::ReadChunk(int row_group, size_t l, std::string* where) const {
  const LeafColumn& leaf = schema_.leaves()[l];
  const ColumnMetaData& m = *metadata_.row_groups[static_cast<size_t>(row_group)].columns[l].meta_data;
  *where = fmt::format("{}: column '{}': row group {}", location(), fmt::join(leaf.path, "."), row_group);
  int64_t start = m.data_page_offset;
  if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < start) {
    start = *m.dictionary_page_offset;
  }
  if (static_cast<uint64_t>(start) > file_->Size() ||
      static_cast<uint64_t>(m.total_compressed_size) > file_->Size() - static_cast<uint64_t>(start)) {
    return Corruption("{}: chunk at {} of {} bytes runs past the file", *where, start, m.total_compressed_size);
  }
  FLOE_ASSIGN_OR_RETURN_CTX(std::string bytes, file_->ReadAt(static_cast<uint64_t>(start), static_cast<uint64_t>(m.total_compressed_size)),
                            *where);
  return bytes;
}

formats::Field FileReader::BatchField(int f) const {
  const SchemaNode& node = schema_.fields()[static_cast<size_t>(f)];
  formats::Field field;
  field.name = node.name;
  field.id = node.field_id;
  field.nullable = node.nullable;
  field.type = node.type;
  return field;
}

Result<std::unique_ptr<RowGroupReader>> FileReader::OpenRowGroup(int row_group, const std::vector<int>& fields) const {
  if (row_group < 0 || row_group >= num_row_groups()) return InvalidArgument("row group {} of {}", row_group, num_row_groups());
  int64_t rows = metadata_.row_groups[static_cast<size_t>(row_group)].num_rows;
  return OpenRowGroup(row_group, fields, rows > 0 ? std::vector<RowRange>{RowRange{0, rows}} : std::vector<RowRange>{});
}

Result<std::unique_ptr<RowGroupReader>> FileReader::OpenRowGroup(int row_group, const std::vector<int>& fields,
                                                                 std::vector<RowRange> ranges) const {
  if (row_group < 0 || row_group >= num_row_groups()) return InvalidArgument("row group {} of {}", row_group, num_row_groups());
  std::unique_ptr<RowGroupReader> r(new RowGroupReader());
  r->file_ = this;
  r->row_group_ = row_group;
  r->rows_ = metadata_.row_groups[static_cast<size_t>(row_group)].num_rows;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (ranges[i].begin < 0 || ranges[i].end > r->rows_ || ranges[i].begin >= ranges[i].end ||
        (i > 0 && ranges[i].begin < ranges[i - 1].end)) {
      return InvalidArgument("row ranges must be sorted, disjoint, non-empty and inside the row group's {} rows", r->rows_);
    }
  }
  r->ranges_ = std::move(ranges);
  r->fields_ = fields;
  if (r->fields_.empty()) {
    for (size_t i = 0; i < schema_.fields().size(); ++i) r->fields_.push_back(static_cast<int>(i));
  }
  for (int f : r->fields_) {
    if (f < 0 || static_cast<size_t>(f) >= schema_.fields().size()) return InvalidArgument("no field {}", f);
    if (schema_.fields()[static_cast<size_t>(f)].kind != SchemaNode::Kind::kPrimitive) r->whole_ = true;
  }
  if (r->whole_) return r;
  r->streams_.resize(schema_.leaves().size());
  for (int f : r->fields_) {
    size_t l = static_cast<size_t>(schema_.fields()[static_cast<size_t>(f)].leaf);
    const ColumnMetaData& m = *metadata_.row_groups[static_cast<size_t>(row_group)].columns[l].meta_data;
    if (m.num_values != r->rows_) return Corruption("{}: column {}: {} values for {} rows", location(), l, m.num_values, r->rows_);
    std::string where;
    FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadChunk(row_group, l, &where));
    r->streams_[l] = std::make_unique<ColumnChunkStream>(schema_.leaves()[l], m, std::move(bytes), options_);
  }
  return r;
}

RowGroupReader::~RowGroupReader() = default;

int64_t RowGroupReader::pages_decoded() const {
  int64_t n = 0;
  for (const auto& s : streams_) n += s ? s->pages_decoded() : 0;
  return n;
}

int64_t RowGroupReader::pages_skipped() const {
  int64_t n = 0;
  for (const auto& s : streams_) n += s ? s->pages_skipped() : 0;
  return n;
}

std::string RowGroupReader::Where(size_t leaf) const {
  return fmt::format("{}: column '{}': row group {}", file_->location(), fmt::join(file_->schema().leaves()[leaf].path, "."), row_group_);
}

// Skips are deferred until a column is read again, so runs of skipped batches become one skip
// that can step over whole pages.
Status RowGroupReader::SkipColumn(size_t leaf, int64_t rows) {
  if (pending_skip_.size() < streams_.size()) pending_skip_.resize(streams_.size(), 0);
  pending_skip_[leaf] += rows;
  return OkStatus();
}

Status RowGroupReader::FlushSkip(size_t leaf) {
  if (leaf >= pending_skip_.size() || pending_skip_[leaf] == 0) return OkStatus();
  int64_t rows = std::exchange(pending_skip_[leaf], 0);
  FLOE_RETURN_IF_ERROR_CTX(streams_[leaf]->Skip(rows), Where(leaf));
  return OkStatus();
}

Status RowGroupReader::SkipAll(int64_t rows) {
  const Schema& schema = file_->schema();
  for (int f : fields_) FLOE_RETURN_IF_ERROR(SkipColumn(static_cast<size_t>(schema.fields()[static_cast<size_t>(f)].leaf), rows));
  done_ += rows;
  return OkStatus();
}

void RowGroupReader::SetFilter(std::vector<ColumnPredicate> predicates) {
  filter_.clear();
  if (whole_) return;
  const Schema& schema = file_->schema();
  for (ColumnPredicate& p : predicates) {
    int f = schema.FindField(p.column);
    if (f < 0) continue;
    for (size_t k = 0; k < fields_.size(); ++k) {
      if (fields_[k] == f) filter_.push_back(Filter{k, p});
    }
  }
}

Result<std::optional<formats::ColumnBatch>> RowGroupReader::Next(int64_t max_rows) {
  if (done_ >= rows_ && !(rows_ == 0 && done_ == 0 && whole_)) return std::optional<formats::ColumnBatch>();
  if (whole_) {
    done_ = rows_ + 1;
    FLOE_ASSIGN_OR_RETURN(formats::ColumnBatch b, file_->ReadRowGroup(row_group_, fields_));
    return std::optional<formats::ColumnBatch>(std::move(b));
  }
  const Schema& schema = file_->schema();
  while (true) {
    // Move to the next selected range, stepping every column over the rows before it.
    while (next_range_ < ranges_.size() && ranges_[next_range_].end <= done_) ++next_range_;
    if (next_range_ == ranges_.size()) {
      // Step over the pages after the last range (headers only) so the page counts are whole.
      FLOE_RETURN_IF_ERROR(SkipAll(rows_ - done_));
      for (int f : fields_) FLOE_RETURN_IF_ERROR(FlushSkip(static_cast<size_t>(schema.fields()[static_cast<size_t>(f)].leaf)));
      return std::optional<formats::ColumnBatch>();
    }
    const RowRange& range = ranges_[next_range_];
    if (done_ < range.begin) FLOE_RETURN_IF_ERROR(SkipAll(range.begin - done_));
    int64_t n = std::min(std::max<int64_t>(max_rows, 1), range.end - done_);
    std::vector<DecodedChunk> chunks(schema.leaves().size());
    std::vector<std::optional<formats::ColumnVector>> columns(fields_.size());
    auto read = [&](size_t k) -> Status {
      int f = fields_[k];
      size_t l = static_cast<size_t>(schema.fields()[static_cast<size_t>(f)].leaf);
      FLOE_RETURN_IF_ERROR(FlushSkip(l));
      FLOE_RETURN_IF_ERROR_CTX(streams_[l]->Read(n, &chunks[l]), Where(l));
      FLOE_ASSIGN_OR_RETURN_CTX(formats::ColumnVector column, AssembleField(schema, f, chunks, n), Where(l));
      columns[k] = std::move(column);
      return OkStatus();
    };
    // Filter columns first: when no row of the batch can match, the other columns step over
    // it instead of decoding it.
    // A filter that every batch so far has passed will not skip anything; stop paying for it.
    bool any = true;
    if (!filter_.empty() && batches_passed_ < kBatchesBeforeGivingUp) {
      for (const Filter& filter : filter_) {
        if (!columns[filter.field]) FLOE_RETURN_IF_ERROR(read(filter.field));
      }
      std::vector<uint8_t> match(static_cast<size_t>(n), 1);
      for (const Filter& filter : filter_) NarrowMatches(*columns[filter.field], filter.predicate, match.data());
      any = std::find(match.begin(), match.end(), 1) != match.end();
      batches_passed_ = any ? batches_passed_ + 1 : 0;
    }
    if (!any) {
      for (size_t k = 0; k < fields_.size(); ++k) {
        if (columns[k]) continue;
        FLOE_RETURN_IF_ERROR(SkipColumn(static_cast<size_t>(schema.fields()[static_cast<size_t>(fields_[k])].leaf), n));
      }
      done_ += n;
      rows_filtered_ += n;
      continue;
    }
    formats::ColumnBatch batch;
    batch.num_rows = n;
    for (size_t k = 0; k < fields_.size(); ++k) {
      if (!columns[k]) FLOE_RETURN_IF_ERROR(read(k));
      batch.fields.push_back(file_->BatchField(fields_[k]));
      batch.columns.push_back(std::move(*columns[k]));
    }
    done_ += n;
    return std::optional<formats::ColumnBatch>(std::move(batch));
  }
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
      std::string where;
      FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadChunk(row_group, l, &where));
      FLOE_RETURN_IF_ERROR_CTX(DecodeColumnChunk(leaf, m, bytes, rg.num_rows, options_, &chunks[l]), where);
    }
    FLOE_ASSIGN_OR_RETURN_CTX(formats::ColumnVector column, AssembleField(schema_, f, chunks, rg.num_rows),
                              fmt::format("{}: row group {}", location(), row_group));
    batch.fields.push_back(BatchField(f));
    batch.columns.push_back(std::move(column));
  }
  return batch;
}

namespace {

// Whether a range of `rows` values of a column whose bounds (plain-encoded, in the column's
// order; either may be absent) and null count (when known) are given may hold a value that
// satisfies `p`. Row group statistics and page index entries are both judged by it.
bool BoundsMayMatch(const SchemaNode& node, const LeafColumn& leaf, const ColumnPredicate& p, const std::string* min,
                    const std::string* max, std::optional<int64_t> null_count, int64_t rows) {
  if (p.op == ColumnPredicate::Op::kIsNull) return !null_count || *null_count > 0;
  if (p.op == ColumnPredicate::Op::kNotNull) return !null_count || *null_count < rows;
  if (null_count && *null_count == rows) return false;  // Comparisons never match nulls.
  if (min == nullptr || max == nullptr) return true;
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
               (id == TypeId::kInt64 ||
                ((id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTime) && leaf.logical.unit == TimeUnit::kMicros) ||
                ((id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs) && leaf.logical.unit == TimeUnit::kNanos))) {
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
  int vs_min = ComparePlain(leaf.physical, order, c, *min);
  int vs_max = ComparePlain(leaf.physical, order, c, *max);
  switch (p.op) {
    case ColumnPredicate::Op::kEq: return vs_min >= 0 && vs_max <= 0;
    case ColumnPredicate::Op::kLt: return vs_min > 0;   // some value < c needs min < c
    case ColumnPredicate::Op::kLe: return vs_min >= 0;
    case ColumnPredicate::Op::kGt: return vs_max < 0;   // some value > c needs max > c
    case ColumnPredicate::Op::kGe: return vs_max <= 0;
    default: return true;
  }
}

// The rows in both sorted, disjoint range lists.
std::vector<RowRange> Intersect(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> out;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    int64_t begin = std::max(a[i].begin, b[j].begin), end = std::min(a[i].end, b[j].end);
    if (begin < end) out.push_back(RowRange{begin, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

}  // namespace

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
  // Only the well-ordered fields (min_value, max_value) are trusted.
  return BoundsMayMatch(node, leaf, p, s.min_value ? &*s.min_value : nullptr, s.max_value ? &*s.max_value : nullptr, s.null_count,
                        rg.num_rows);
}

Result<std::vector<RowRange>> FileReader::SelectRows(int row_group, const std::vector<ColumnPredicate>& predicates) const {
  if (row_group < 0 || row_group >= num_row_groups()) return InvalidArgument("row group {} of {}", row_group, num_row_groups());
  const RowGroup& rg = metadata_.row_groups[static_cast<size_t>(row_group)];
  std::vector<RowRange> selected{RowRange{0, rg.num_rows}};
  for (const ColumnPredicate& p : predicates) {
    int f = schema_.FindField(p.column);
    if (f < 0) continue;
    const SchemaNode& node = schema_.fields()[static_cast<size_t>(f)];
    if (node.kind != SchemaNode::Kind::kPrimitive) continue;
    const LeafColumn& leaf = schema_.leaves()[static_cast<size_t>(node.leaf)];
    const ColumnChunk& chunk = rg.columns[static_cast<size_t>(node.leaf)];
    if (!chunk.column_index_offset || !chunk.column_index_length || !chunk.offset_index_offset || !chunk.offset_index_length) continue;
    std::string where = fmt::format("{}: column '{}': row group {}", location(), fmt::join(leaf.path, "."), row_group);
    auto read = [&](int64_t offset, int32_t length) -> Result<std::string> {
      if (offset < 0 || length < 0 || static_cast<uint64_t>(offset) > file_->Size() ||
          static_cast<uint64_t>(length) > file_->Size() - static_cast<uint64_t>(offset)) {
        return Corruption("page index at {} of {} bytes runs past the file", offset, length);
      }
      return file_->ReadAt(static_cast<uint64_t>(offset), static_cast<uint64_t>(length));
    };
    FLOE_ASSIGN_OR_RETURN_CTX(std::string column_bytes, read(*chunk.column_index_offset, *chunk.column_index_length), where);
    FLOE_ASSIGN_OR_RETURN_CTX(std::string offset_bytes, read(*chunk.offset_index_offset, *chunk.offset_index_length), where);
    FLOE_ASSIGN_OR_RETURN_CTX(ColumnIndex column_index, DecodeColumnIndex(column_bytes), where + ": column index");
    FLOE_ASSIGN_OR_RETURN_CTX(OffsetIndex offset_index, DecodeOffsetIndex(offset_bytes), where + ": offset index");
    const auto& pages = offset_index.page_locations;
    size_t n = pages.size();
    if (column_index.null_pages.size() != n || column_index.min_values.size() != n || column_index.max_values.size() != n ||
        (!column_index.null_counts.empty() && column_index.null_counts.size() != n)) {
      return Corruption("{}: the column index describes {} pages, the offset index {}", where, column_index.null_pages.size(), n);
    }
    std::vector<RowRange> matching;
    for (size_t k = 0; k < n; ++k) {
      int64_t begin = pages[k].first_row_index;
      int64_t end = k + 1 < n ? pages[k + 1].first_row_index : rg.num_rows;
      if (begin < 0 || end < begin || end > rg.num_rows || (k == 0 && begin != 0)) {
        return Corruption("{}: offset index page {} covers rows {} to {} of {}", where, k, begin, end, rg.num_rows);
      }
      std::optional<int64_t> nulls;
      if (!column_index.null_counts.empty()) nulls = column_index.null_counts[k];
      if (column_index.null_pages[k]) nulls = end - begin;
      bool may = BoundsMayMatch(node, leaf, p, column_index.null_pages[k] ? nullptr : &column_index.min_values[k],
                                column_index.null_pages[k] ? nullptr : &column_index.max_values[k], nulls, end - begin);
      if (!may || begin == end) continue;
      if (!matching.empty() && matching.back().end == begin) {
        matching.back().end = end;
      } else {
        matching.push_back(RowRange{begin, end});
      }
    }
    selected = Intersect(selected, matching);
    if (selected.empty()) break;
  }
  return selected;
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
