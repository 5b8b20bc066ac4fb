#include "formats/parquet/file_writer.h"

#include <algorithm>

namespace floe::parquet {
namespace {

constexpr int64_t kSliceRows = 16384;
constexpr std::string_view kMagic = "PAR1";

BoundaryOrder Order(const ColumnIndex& ci, PhysicalType physical, ByteOrder order) {
  bool asc = true, desc = true;
  std::string_view prev_min, prev_max;
  bool have = false;
  for (size_t i = 0; i < ci.null_pages.size(); ++i) {
    if (ci.null_pages[i]) continue;
    if (have) {
      if (ComparePlain(physical, order, ci.min_values[i], prev_min) < 0 || ComparePlain(physical, order, ci.max_values[i], prev_max) < 0) asc = false;
      if (ComparePlain(physical, order, ci.min_values[i], prev_min) > 0 || ComparePlain(physical, order, ci.max_values[i], prev_max) > 0) desc = false;
    }
    prev_min = ci.min_values[i];
    prev_max = ci.max_values[i];
    have = true;
  }
  return asc ? BoundaryOrder::kAscending : desc ? BoundaryOrder::kDescending : BoundaryOrder::kUnordered;
}

ByteOrder OrderOf(const LeafColumn& leaf) {
  return leaf.node->type.id == formats::TypeId::kDecimal ? ByteOrder::kSignedBigEndian : ByteOrder::kUnsigned;
}

}  // namespace

Result<std::unique_ptr<FileWriter>> FileWriter::Open(std::unique_ptr<io::OutputStream> out,
                                                     const std::vector<formats::Field>& fields, WriterOptions options) {
  if (fields.empty()) return InvalidArgument("a Parquet file needs at least one column");
  FLOE_ASSIGN_OR_RETURN(Schema schema, Schema::FromFields(fields));
  if (options.page_bytes <= 0 || options.page_values <= 0 || options.row_group_bytes <= 0 || options.row_group_rows <= 0) {
    return InvalidArgument("page and row group sizes must be positive");
  }
  std::unique_ptr<FileWriter> w(new FileWriter(std::move(out), std::move(schema), std::move(options)));
  FLOE_RETURN_IF_ERROR(w->Append(kMagic));
  return w;
}

FileWriter::FileWriter(std::unique_ptr<io::OutputStream> out, Schema schema, WriterOptions options)
    : out_(std::move(out)), schema_(std::move(schema)), options_(std::move(options)) {
  size_t leaves = schema_.leaves().size();
  file_stats_.resize(leaves);
  leaf_metrics_.resize(leaves);
  bloom_.resize(leaves);
  for (size_t i = 0; i < leaves; ++i) {
    int32_t id = schema_.leaves()[i].node->field_id;
    bloom_[i] = id >= 0 && std::find(options_.bloom_filter_field_ids.begin(), options_.bloom_filter_field_ids.end(), id) !=
                               options_.bloom_filter_field_ids.end();
  }
  StartRowGroup();
}

FileWriter::~FileWriter() {
  if (!closed_ && out_) out_->Abort();
}

void FileWriter::StartRowGroup() {
  writers_.clear();
  for (size_t i = 0; i < schema_.leaves().size(); ++i) {
    writers_.push_back(MakeColumnWriter(schema_.leaves()[i], options_, bloom_[i], &page_buffers_));
  }
  row_group_rows_ = 0;
}

namespace {
constexpr size_t kWriteBytes = size_t{1} << 20;
}  // namespace

Status FileWriter::Append(std::string_view bytes) {
  position_ += static_cast<int64_t>(bytes.size());
  if (pending_.empty() && bytes.size() >= kWriteBytes) return out_->Append(bytes);
  pending_.append(bytes);
  return pending_.size() >= kWriteBytes ? FlushPending() : OkStatus();
}

Status FileWriter::FlushPending() {
  if (pending_.empty()) return OkStatus();
  Status status = out_->Append(pending_);
  pending_.clear();
  return status;
}

Status FileWriter::Write(const formats::ColumnBatch& batch) { return WriteRows(batch, 0, batch.num_rows); }

Status FileWriter::WriteRows(const formats::ColumnBatch& batch, int64_t first, int64_t count) {
  if (closed_) return InvalidArgument("write to a closed Parquet writer");
  if (first < 0 || count < 0 || first + count > batch.num_rows) {
    return InvalidArgument("rows [{}, {}) are outside the batch's {}", first, first + count, batch.num_rows);
  }
  const auto& fields = schema_.fields();
  if (batch.columns.size() != fields.size()) {
    return InvalidArgument("batch has {} columns, the file {}", batch.columns.size(), fields.size());
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (batch.columns[i].length != batch.num_rows) {
      return InvalidArgument("column '{}' has {} rows, the batch {}", fields[i].name, batch.columns[i].length, batch.num_rows);
    }
    FLOE_RETURN_IF_ERROR(ValidateColumn(fields[i], batch.columns[i]));
  }
  const auto& leaves = schema_.leaves();
  // Pages close between slices, so small pages need small slices.
  const int64_t slice_rows = std::clamp<int64_t>(std::min(options_.page_bytes / 16, options_.page_values), 64, kSliceRows);
  for (int64_t begin = first, end = first; begin < first + count; begin = end) {
    end = std::min({first + count, begin + slice_rows, begin + (options_.row_group_rows - row_group_rows_)});
    int64_t buffered = 0;
    for (size_t l = 0; l < leaves.size(); ++l) {
      ShredLeaf(leaves[l], batch.columns[static_cast<size_t>(leaves[l].top_field)], begin, end, &shredded_);
      FLOE_RETURN_IF_ERROR_CTX(writers_[l]->Write(shredded_), fmt::format("column '{}'", fmt::join(leaves[l].path, ".")));
      buffered += writers_[l]->BufferedBytes();
    }
    row_group_rows_ += end - begin;
    rows_ += end - begin;
    if (buffered >= options_.row_group_bytes || row_group_rows_ >= options_.row_group_rows) FLOE_RETURN_IF_ERROR(FlushRowGroup());
  }
  return OkStatus();
}

Status FileWriter::FlushRowGroup() {
  if (row_group_rows_ == 0) return OkStatus();
  const auto& leaves = schema_.leaves();
  RowGroup group;
  group.num_rows = row_group_rows_;
  group.file_offset = position_;
  group.ordinal = static_cast<int16_t>(metadata_.row_groups.size());
  std::vector<PendingIndex> indexes;
  std::vector<std::string> blooms(leaves.size());
  int64_t compressed = 0, uncompressed = 0;
  for (size_t l = 0; l < leaves.size(); ++l) {
    FLOE_ASSIGN_OR_RETURN(ChunkResult chunk, writers_[l]->Finish());
    int64_t start = position_;
    for (const std::string& page : chunk.pages) FLOE_RETURN_IF_ERROR(Append(page));
    ColumnChunk cc;
    cc.file_offset = start;
    cc.meta_data = std::move(chunk.meta);
    ColumnMetaData& meta = *cc.meta_data;
    meta.data_page_offset += start;
    if (meta.dictionary_page_offset) *meta.dictionary_page_offset += start;
    compressed += meta.total_compressed_size;
    uncompressed += meta.total_uncompressed_size;
    for (PageLocation& loc : chunk.offset_index.page_locations) loc.offset += start;
    chunk.column_index.boundary_order = Order(chunk.column_index, leaves[l].physical, OrderOf(leaves[l]));
    indexes.push_back({std::move(chunk.column_index), std::move(chunk.offset_index), chunk.has_column_index});
    blooms[l] = std::move(chunk.bloom_filter);
    MergeStats(leaves[l].physical, OrderOf(leaves[l]), chunk.stats, &file_stats_[l]);
    leaf_metrics_[l].column_size += meta.total_compressed_size;
    group.columns.push_back(std::move(cc));
  }
  for (size_t l = 0; l < leaves.size(); ++l) {
    if (blooms[l].empty()) continue;
    ColumnMetaData& meta = *group.columns[l].meta_data;
    std::string header;
    BloomFilterHeader bh;
    bh.num_bytes = static_cast<int32_t>(blooms[l].size());
    EncodeBloomFilterHeader(bh, &header);
    meta.bloom_filter_offset = position_;
    meta.bloom_filter_length = static_cast<int32_t>(header.size() + blooms[l].size());
    FLOE_RETURN_IF_ERROR(Append(header));
    FLOE_RETURN_IF_ERROR(Append(blooms[l]));
  }
  group.total_byte_size = uncompressed;
  group.total_compressed_size = compressed;
  metadata_.row_groups.push_back(std::move(group));
  indexes_.push_back(std::move(indexes));
  StartRowGroup();
  return OkStatus();
}

Result<FileMetrics> FileWriter::Close() {
  if (closed_) return InvalidArgument("Parquet writer closed twice");
  FLOE_RETURN_IF_ERROR(FlushRowGroup());
  closed_ = true;
  // Page index: every column index, then every offset index.
  for (size_t g = 0; g < indexes_.size(); ++g) {
    for (size_t l = 0; l < indexes_[g].size(); ++l) {
      if (!indexes_[g][l].has_column_index) continue;
      std::string bytes;
      EncodeColumnIndex(indexes_[g][l].column_index, &bytes);
      ColumnChunk& cc = metadata_.row_groups[g].columns[l];
      cc.column_index_offset = position_;
      cc.column_index_length = static_cast<int32_t>(bytes.size());
      FLOE_RETURN_IF_ERROR(Append(bytes));
    }
  }
  for (size_t g = 0; g < indexes_.size(); ++g) {
    for (size_t l = 0; l < indexes_[g].size(); ++l) {
      if (!indexes_[g][l].has_column_index) continue;
      std::string bytes;
      EncodeOffsetIndex(indexes_[g][l].offset_index, &bytes);
      ColumnChunk& cc = metadata_.row_groups[g].columns[l];
      cc.offset_index_offset = position_;
      cc.offset_index_length = static_cast<int32_t>(bytes.size());
      FLOE_RETURN_IF_ERROR(Append(bytes));
    }
  }
  metadata_.version = options_.data_page_v2 ? 2 : 1;
  metadata_.schema = schema_.elements();
  metadata_.num_rows = rows_;
  metadata_.key_value_metadata = options_.key_value_metadata;
  metadata_.created_by = options_.created_by;
  metadata_.column_orders = static_cast<int32_t>(schema_.leaves().size());
  std::string footer;
  EncodeFileMetaData(metadata_, &footer);
  auto len = static_cast<uint32_t>(footer.size());
  footer.append(reinterpret_cast<const char*>(&len), 4);
  footer.append(kMagic);
  FLOE_RETURN_IF_ERROR(Append(footer));
  FLOE_RETURN_IF_ERROR(FlushPending());
  FLOE_RETURN_IF_ERROR(out_->Close());

  FileMetrics metrics;
  metrics.record_count = rows_;
  metrics.file_size = position_;
  for (const RowGroup& g : metadata_.row_groups) metrics.split_offsets.push_back(*g.file_offset);
  const auto& leaves = schema_.leaves();
  for (size_t l = 0; l < leaves.size(); ++l) {
    const LeafColumn& leaf = leaves[l];
    int32_t id = leaf.node->field_id;
    if (id < 0) continue;
    ColumnMetrics m = leaf_metrics_[l];
    const EncodedStats& s = file_stats_[l];
    m.value_count = s.num_values;
    m.null_value_count = s.null_count;
    if (leaf.physical == PhysicalType::kFloat || leaf.physical == PhysicalType::kDouble) m.nan_value_count = s.nan_count;
    if (s.has_min_max && leaf.max_rep == 0) {
      m.lower_bound = IcebergBound(leaf.node->type, leaf.physical, s.min, false, options_.iceberg_bound_truncate);
      m.upper_bound = IcebergBound(leaf.node->type, leaf.physical, s.max, true, options_.iceberg_bound_truncate);
    }
    metrics.columns[id] = std::move(m);
  }
  return metrics;
}

}  // namespace floe::parquet
