#include "iceberg/puffin.h"

#include <cstring>

#include "base/bytes.h"
#include "base/json_depth.h"
#include "iceberg/json_fields.h"

namespace floe::iceberg {
namespace {

constexpr char kPuffinMagic[] = {'P', 'F', 'A', '1'};
constexpr size_t kMagicSize = 4;
// Magic, then after the payload: its length, the flags and the magic.
constexpr size_t kFooterFixed = kMagicSize + 4 + 4 + kMagicSize;
// A footer past this is not one floe would write nor one worth allocating for.
constexpr size_t kMaxFooterPayload = size_t{16} << 20;
constexpr int kMaxFooterDepth = 16;


}  // namespace

PuffinFile WritePuffin(std::vector<PuffinBlob>& blobs, std::string_view created_by) {
  PuffinFile file;
  file.bytes.append(kPuffinMagic, kMagicSize);
  json::Json described = json::Json::array();
  for (PuffinBlob& blob : blobs) {
    blob.offset = static_cast<int64_t>(file.bytes.size());
    blob.length = static_cast<int64_t>(blob.data.size());
    file.bytes += blob.data;
    json::Json entry = {{"type", blob.type},
                        {"fields", blob.fields},
                        {"snapshot-id", blob.snapshot_id},
                        {"sequence-number", blob.sequence_number},
                        {"offset", blob.offset},
                        {"length", blob.length}};
    if (!blob.properties.empty()) entry["properties"] = blob.properties;
    described.push_back(std::move(entry));
  }
  json::Json footer = {{"blobs", std::move(described)}, {"properties", {{"created-by", std::string(created_by)}}}};
  std::string payload = footer.dump();
  size_t footer_start = file.bytes.size();
  file.bytes.append(kPuffinMagic, kMagicSize);
  file.bytes += payload;
  ByteWriter writer(&file.bytes);
  writer.AppendLittle<uint32_t>(static_cast<uint32_t>(payload.size()));
  writer.AppendLittle<uint32_t>(0);  // Flags: the payload is not compressed.
  file.bytes.append(kPuffinMagic, kMagicSize);
  file.footer_size = static_cast<int64_t>(file.bytes.size() - footer_start);
  return file;
}

Result<std::vector<PuffinBlob>> ReadPuffin(std::string_view file, std::string_view where) {
  if (file.size() < kMagicSize + kFooterFixed) return Corruption("Puffin file {}: {} bytes, too short", where, file.size());
  if (std::memcmp(file.data(), kPuffinMagic, kMagicSize) != 0 ||
      std::memcmp(file.data() + file.size() - kMagicSize, kPuffinMagic, kMagicSize) != 0) {
    return Corruption("Puffin file {}: no PFA1 magic at its start and end", where);
  }
  const char* tail = file.data() + file.size() - kMagicSize - 8;
  uint32_t payload_size = 0;
  for (int i = 3; i >= 0; --i) payload_size = (payload_size << 8) | static_cast<uint8_t>(tail[i]);
  if ((static_cast<uint8_t>(tail[4]) & 1) != 0) return Corruption("Puffin file {}: a compressed footer (not supported)", where);
  if (payload_size > kMaxFooterPayload || payload_size + kFooterFixed + kMagicSize > file.size()) {
    return Corruption("Puffin file {}: footer payload of {} bytes does not fit the file", where, payload_size);
  }
  size_t footer_start = file.size() - kFooterFixed - payload_size;
  if (std::memcmp(file.data() + footer_start, kPuffinMagic, kMagicSize) != 0)
    return Corruption("Puffin file {}: no magic before its footer", where);
  std::string what = fmt::format("Puffin footer of {}", where);
  std::string_view payload = file.substr(footer_start + kMagicSize, payload_size);
  // Checked on the text, before a parser could recurse or allocate for it.
  if (auto depth = CheckJsonDepth(payload, kMaxFooterDepth); !depth) return Corruption("{}: {}", what, depth.error().message());
  auto parsed = json::Parse(payload, what);
  if (!parsed) return Corruption("{}", parsed.error().message());
  const json::Json* list = json::OptionalMember(*parsed, "blobs");
  if (list == nullptr || !list->is_array()) return Corruption("{}: no blobs list", what);
  std::vector<PuffinBlob> blobs;
  for (const json::Json& entry : *list) {
    auto read = [&]() -> Result<PuffinBlob> {
      FLOE_RETURN_IF_ERROR(json::ExpectObject(entry, what));
      PuffinBlob blob;
      FLOE_ASSIGN_OR_RETURN(blob.type, json::RequiredString(entry, "type", what));
      FLOE_ASSIGN_OR_RETURN(blob.fields, json::OptionalIntList(entry, "fields", what));
      FLOE_ASSIGN_OR_RETURN(blob.snapshot_id, json::RequiredLong(entry, "snapshot-id", what));
      FLOE_ASSIGN_OR_RETURN(blob.sequence_number, json::RequiredLong(entry, "sequence-number", what));
      FLOE_ASSIGN_OR_RETURN(blob.offset, json::RequiredLong(entry, "offset", what));
      FLOE_ASSIGN_OR_RETURN(blob.length, json::RequiredLong(entry, "length", what));
      FLOE_ASSIGN_OR_RETURN(blob.properties, json::OptionalStringMap(entry, "properties", what));
      FLOE_ASSIGN_OR_RETURN(auto codec, json::OptionalString(entry, "compression-codec", what));
      if (codec) return Corruption("{}: blob compressed with {} (not supported)", what, *codec);
      return blob;
    };
    auto blob = read();
    if (!blob) return Corruption("{}", blob.error().message());
    if (blob->offset < static_cast<int64_t>(kMagicSize) || blob->length < 0 ||
        blob->offset > static_cast<int64_t>(footer_start) || blob->length > static_cast<int64_t>(footer_start) - blob->offset) {
      return Corruption("{}: blob at {}+{} lies outside the file's blobs", what, blob->offset, blob->length);
    }
    blob->data = std::string(file.substr(static_cast<size_t>(blob->offset), static_cast<size_t>(blob->length)));
    blobs.push_back(std::move(*blob));
  }
  return blobs;
}

}  // namespace floe::iceberg
