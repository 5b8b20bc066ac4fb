#include "sql/execution/spill.h"

#include <unistd.h>

#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/local_file.h"

namespace floe::sql {
namespace {

// Small row groups and pages: every partition's writer buffers one row group, and a partition
// is read back a row group at a time.
parquet::WriterOptions SpillWriterOptions() {
  parquet::WriterOptions o;
  o.codec = parquet::Codec::kLz4Raw;
  o.row_group_bytes = 1 << 20;
  o.row_group_rows = 64 * 1024;
  o.page_bytes = 256 << 10;
  o.dictionary = false;
  o.page_index = false;
  return o;
}

}  // namespace

SpillFolder::~SpillFolder() {
  std::lock_guard lock(mutex_);
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string SpillFolder::path() const {
  std::lock_guard lock(mutex_);
  return path_;
}

Result<std::string> SpillFolder::NewFile(std::string_view what) {
  std::lock_guard lock(mutex_);
  if (path_.empty()) {
    std::error_code error;
    std::string parent = parent_.empty() ? std::filesystem::temp_directory_path(error).string() : parent_;
    if (error) return Unavailable("no folder to spill to: {}", error.message());
    std::random_device random;
    std::string path = fmt::format("{}/floe-spill-{}-{:08x}", parent, ::getpid(), random());
    std::filesystem::create_directories(path, error);
    if (error) return Unavailable("cannot create the spill folder {}: {}", path, error.message());
    path_ = std::move(path);
  }
  return fmt::format("{}/{}-{}.parquet", path_, what, next_++);
}

Result<std::unique_ptr<SpillPartitions>> SpillPartitions::Create(SpillFolder& folder, std::string_view what,
                                                                 std::vector<SqlType> types, int partitions) {
  std::unique_ptr<SpillPartitions> out(new SpillPartitions());
  out->types_ = std::move(types);
  for (size_t i = 0; i < out->types_.size(); ++i) out->fields_.push_back({fmt::format("c{}", i), -1, true, ExecDataType(out->types_[i])});
  for (int p = 0; p < partitions; ++p) {
    auto part = std::make_unique<Part>();
    FLOE_ASSIGN_OR_RETURN(part->path, folder.NewFile(what));
    FLOE_ASSIGN_OR_RETURN_CTX(auto stream, parquet::LocalOutputStream::Open(part->path), "spilling");
    FLOE_ASSIGN_OR_RETURN_CTX(part->writer, parquet::FileWriter::Open(std::move(stream), out->fields_, SpillWriterOptions()), "spilling");
    out->parts_.push_back(std::move(part));
  }
  return out;
}

SpillPartitions::~SpillPartitions() = default;

Status SpillPartitions::Add(const DataChunk& chunk, const std::vector<uint64_t>& hashes) {
  if (parts_.size() == 1) return Write(*parts_[0], chunk);
  std::vector<std::vector<uint32_t>> rows(parts_.size());
  for (int64_t i = 0; i < chunk.rows; ++i) rows[static_cast<size_t>(PartitionOf(hashes[static_cast<size_t>(i)]))].push_back(static_cast<uint32_t>(i));
  for (size_t p = 0; p < parts_.size(); ++p) {
    if (rows[p].empty()) continue;
    FLOE_RETURN_IF_ERROR(Write(*parts_[p], GatherChunk(chunk, rows[p])));
  }
  return OkStatus();
}

Status SpillPartitions::Write(Part& target, const DataChunk& rows) {
  formats::ColumnBatch batch;
  batch.num_rows = rows.rows;
  batch.fields = fields_;
  for (const auto& column : rows.columns) batch.columns.push_back(*column);
  std::lock_guard lock(target.mutex);
  FLOE_RETURN_IF_ERROR_CTX(target.writer->Write(batch), fmt::format("spilling to {}", target.path));
  target.rows += rows.rows;
  return OkStatus();
}

Status SpillPartitions::Finish() {
  for (auto& part : parts_) {
    std::lock_guard lock(part->mutex);
    if (!part->writer) continue;
    auto closed = part->writer->Close();
    if (!closed.has_value()) return std::unexpected(closed.error().WithContext(fmt::format("spilling to {}", part->path)));
    part->writer.reset();
  }
  return OkStatus();
}

Result<std::vector<DataChunk>> SpillPartitions::Read(int partition) const {
  std::vector<DataChunk> out;
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenReader(partition));
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<DataChunk> chunk, reader->Next());
    if (!chunk) break;
    out.push_back(std::move(*chunk));
  }
  return out;
}

Result<std::unique_ptr<SpillPartitions::Reader>> SpillPartitions::OpenReader(int partition) const {
  const Part& part = *parts_[static_cast<size_t>(partition)];
  std::unique_ptr<Reader> reader(new Reader());
  reader->types_ = types_;
  if (part.rows == 0) return reader;
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::LocalInputFile::Open(part.path));
  FLOE_ASSIGN_OR_RETURN(reader->file_, parquet::FileReader::Open(std::move(file)));
  return reader;
}

SpillPartitions::Reader::~Reader() = default;

Result<std::optional<DataChunk>> SpillPartitions::Reader::Next() {
  while (file_) {
    if (!group_) {
      if (next_group_ == file_->num_row_groups()) return std::nullopt;
      int g = next_group_++;
      int64_t rows = file_->metadata().row_groups[static_cast<size_t>(g)].num_rows;
      std::vector<int> fields;
      for (size_t i = 0; i < types_.size(); ++i) fields.push_back(static_cast<int>(i));
      FLOE_ASSIGN_OR_RETURN(group_, file_->OpenRowGroup(g, fields, {parquet::RowRange{0, rows}}));
    }
    FLOE_ASSIGN_OR_RETURN(auto batch, group_->Next(kChunkRows));
    if (!batch) {
      group_.reset();
      continue;
    }
    DataChunk chunk;
    chunk.rows = batch->num_rows;
    for (size_t c = 0; c < types_.size(); ++c) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, FromStorage(std::move(batch->columns[c]), types_[c]));
      chunk.columns.push_back(std::move(v));
    }
    return chunk;
  }
  return std::nullopt;
}

}  // namespace floe::sql
