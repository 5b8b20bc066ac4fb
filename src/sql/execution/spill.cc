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
  std::vector<std::vector<uint32_t>> rows(parts_.size());
  for (int64_t i = 0; i < chunk.rows; ++i) rows[static_cast<size_t>(PartitionOf(hashes[static_cast<size_t>(i)]))].push_back(static_cast<uint32_t>(i));
  for (size_t p = 0; p < parts_.size(); ++p) {
    if (rows[p].empty()) continue;
    DataChunk part = GatherChunk(chunk, rows[p]);
    formats::ColumnBatch batch;
    batch.num_rows = part.rows;
    batch.fields = fields_;
    for (const auto& column : part.columns) batch.columns.push_back(*column);
    Part& target = *parts_[p];
    std::lock_guard lock(target.mutex);
    FLOE_RETURN_IF_ERROR_CTX(target.writer->Write(batch), fmt::format("spilling to {}", target.path));
    target.rows += part.rows;
  }
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
  const Part& part = *parts_[static_cast<size_t>(partition)];
  std::vector<DataChunk> out;
  if (part.rows == 0) return out;
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::LocalInputFile::Open(part.path));
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(std::move(file)));
  std::vector<int> fields;
  for (size_t i = 0; i < types_.size(); ++i) fields.push_back(static_cast<int>(i));
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    int64_t rows = reader->metadata().row_groups[static_cast<size_t>(g)].num_rows;
    FLOE_ASSIGN_OR_RETURN(auto group, reader->OpenRowGroup(g, fields, {parquet::RowRange{0, rows}}));
    while (true) {
      FLOE_ASSIGN_OR_RETURN(auto batch, group->Next(kChunkRows));
      if (!batch) break;
      DataChunk chunk;
      chunk.rows = batch->num_rows;
      for (size_t c = 0; c < types_.size(); ++c) {
        FLOE_ASSIGN_OR_RETURN(VectorPtr v, FromStorage(std::move(batch->columns[c]), types_[c]));
        chunk.columns.push_back(std::move(v));
      }
      out.push_back(std::move(chunk));
    }
  }
  return out;
}

}  // namespace floe::sql
