#include "formats/avro/container_file.h"

#include <random>

#include "base/bytes.h"
#include "formats/avro/binary_encoding.h"

namespace floe::avro {
namespace {

constexpr std::string_view kMagic("Obj\x01", 4);
constexpr size_t kSyncSize = 16;
constexpr size_t kMaxHeaderEntries = 1 << 16;

}  // namespace

Result<ContainerReader> ContainerReader::Open(std::string bytes, std::string location) {
  ContainerReader r;
  r.location_ = std::move(location);
  r.file_ = std::make_unique<std::string>(std::move(bytes));
  ByteReader in(*r.file_);
  auto fail = [&](Error e) { return std::unexpected(std::move(e).WithContext(r.location_)); };

  auto magic = in.ReadBytes(4, "avro magic");
  if (!magic || *magic != kMagic) return fail(Error(ErrorKind::kCorruption, "not an Avro object container file (bad magic)"));
  // The metadata is an Avro map<bytes>.
  size_t entries = 0;
  while (true) {
    auto count = in.ReadSignedVarint("avro header map count");
    if (!count) return fail(count.error());
    if (*count == 0) break;
    int64_t n = *count;
    if (n < 0) {
      if (n == INT64_MIN) return fail(Error(ErrorKind::kCorruption, "avro header: bad block count"));
      n = -n;
      if (auto size = in.ReadSignedVarint("avro header block size"); !size) return fail(size.error());
    }
    entries += static_cast<size_t>(n);
    if (static_cast<uint64_t>(n) > in.remaining() / 2 || entries > kMaxHeaderEntries) {
      return fail(Error(ErrorKind::kCorruption, fmt::format("avro header: {} metadata entries cannot fit", n)));
    }
    for (int64_t i = 0; i < n; ++i) {
      std::string kv[2];
      for (auto& part : kv) {
        auto len = in.ReadSignedVarint("avro header string length");
        if (!len) return fail(len.error());
        if (*len < 0 || static_cast<uint64_t>(*len) > in.remaining()) {
          return fail(Error(ErrorKind::kCorruption, fmt::format("avro header: length {} exceeds the file", *len)));
        }
        part = std::string(*in.ReadBytes(static_cast<size_t>(*len), "avro header bytes"));
      }
      r.metadata_[kv[0]] = std::move(kv[1]);
    }
  }
  auto sync = in.ReadBytes(kSyncSize, "avro sync marker");
  if (!sync) return fail(sync.error());
  r.sync_ = std::string(*sync);
  r.file_position_ = in.position();

  auto schema_it = r.metadata_.find("avro.schema");
  if (schema_it == r.metadata_.end()) return fail(Error(ErrorKind::kCorruption, "avro header has no avro.schema"));
  auto schema = AvroSchema::Parse(schema_it->second);
  if (!schema) return fail(schema.error());
  r.schema_ = std::make_unique<AvroSchema>(std::move(*schema));
  auto codec_it = r.metadata_.find("avro.codec");
  auto codec = ParseCodec(codec_it == r.metadata_.end() ? "null" : codec_it->second);
  if (!codec) return fail(codec.error());
  r.codec_ = *codec;
  return r;
}

Status ContainerReader::LoadBlock() {
  ByteReader in(std::string_view(*file_).substr(file_position_));
  size_t base = file_position_;
  FLOE_ASSIGN_OR_RETURN(int64_t count, in.ReadSignedVarint("avro block count"));
  FLOE_ASSIGN_OR_RETURN(int64_t size, in.ReadSignedVarint("avro block size"));
  if (count < 0 || size < 0 || static_cast<uint64_t>(size) > in.remaining()) {
    return Corruption("avro block at byte {}: count {} size {} with {} bytes left", base, count, size, in.remaining());
  }
  FLOE_ASSIGN_OR_RETURN(std::string_view data, in.ReadBytes(static_cast<size_t>(size), "avro block"));
  FLOE_ASSIGN_OR_RETURN(std::string_view sync, in.ReadBytes(kSyncSize, "avro block sync marker"));
  if (sync != sync_) return Corruption("avro block at byte {}: sync marker mismatch", base);
  FLOE_ASSIGN_OR_RETURN(block_, Decompress(codec_, data, kMaxBlockBytes));
  // A count that the block cannot hold is corrupt; records of zero bytes get a fixed cap.
  size_t min_record = MinEncodedSize(schema_->root());
  if (min_record > 0 ? static_cast<uint64_t>(count) > block_.size() / min_record : count > (1 << 20)) {
    return Corruption("avro block at byte {}: {} records in {} bytes", base, count, block_.size());
  }
  block_position_ = 0;
  block_remaining_ = count;
  file_position_ = base + in.position();
  return OkStatus();
}

Result<std::optional<AvroValue>> ContainerReader::Next() {
  while (block_remaining_ == 0) {
    if (file_position_ >= file_->size()) return std::optional<AvroValue>();
    FLOE_RETURN_IF_ERROR_CTX(LoadBlock(), location_);
  }
  ByteReader in(std::string_view(block_).substr(block_position_));
  auto value = DecodeDatum(schema_->root(), in);
  if (!value) return std::unexpected(std::move(value).error().WithContext(location_));
  block_position_ += in.position();
  --block_remaining_;
  if (block_remaining_ == 0 && block_position_ != block_.size()) {
    return Corruption("{}: {} bytes left over after the last record of a block", location_,
                      block_.size() - block_position_);
  }
  return std::optional<AvroValue>(std::move(*value));
}

Result<std::vector<AvroValue>> ContainerReader::ReadAll() {
  std::vector<AvroValue> out;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto record, Next());
    if (!record) return out;
    out.push_back(std::move(*record));
  }
}

ContainerWriter::ContainerWriter(AvroSchema schema, Codec codec, std::map<std::string, std::string> metadata)
    : schema_(std::move(schema)), codec_(codec) {
  std::random_device rd;
  for (size_t i = 0; i < kSyncSize; ++i) sync_.push_back(static_cast<char>(rd() & 0xFF));
  metadata["avro.schema"] = schema_.ToJson();
  metadata["avro.codec"] = std::string(CodecName(codec_));
  file_.append(kMagic);
  varint::AppendSigned(&file_, static_cast<int64_t>(metadata.size()));
  for (const auto& [k, v] : metadata) {
    varint::AppendSigned(&file_, static_cast<int64_t>(k.size()));
    file_.append(k);
    varint::AppendSigned(&file_, static_cast<int64_t>(v.size()));
    file_.append(v);
  }
  file_.push_back(0);
  file_.append(sync_);
}

Status ContainerWriter::Append(const AvroValue& record) {
  FLOE_RETURN_IF_ERROR(EncodeDatum(schema_.root(), record, &block_));
  ++block_records_;
  ++record_count_;
  if (block_.size() >= kTargetBlockBytes) return FlushBlock();
  return OkStatus();
}

Status ContainerWriter::FlushBlock() {
  if (block_records_ == 0) return OkStatus();
  FLOE_ASSIGN_OR_RETURN(std::string compressed, Compress(codec_, block_));
  varint::AppendSigned(&file_, block_records_);
  varint::AppendSigned(&file_, static_cast<int64_t>(compressed.size()));
  file_.append(compressed);
  file_.append(sync_);
  block_.clear();
  block_records_ = 0;
  return OkStatus();
}

Result<std::string> ContainerWriter::Finish() {
  FLOE_RETURN_IF_ERROR(FlushBlock());
  return std::move(file_);
}

}  // namespace floe::avro
