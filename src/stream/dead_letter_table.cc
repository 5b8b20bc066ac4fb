#include "stream/dead_letter_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/clock.h"
#include "formats/json/iceberg_fields.h"
#include "iceberg/data_files.h"
#include "stream/offsets_commit.h"

namespace floe::stream {
namespace {

// Standard base64 (RFC 4648) of raw record bytes, for the dead-letter table's binary column.
std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t n = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out += {kAlphabet[n >> 18], kAlphabet[(n >> 12) & 63], kAlphabet[(n >> 6) & 63], kAlphabet[n & 63]};
  }
  if (i + 1 == bytes.size()) {
    uint32_t n = uint8_t(bytes[i]) << 16;
    out += {kAlphabet[n >> 18], kAlphabet[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    uint32_t n = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8);
    out += {kAlphabet[n >> 18], kAlphabet[(n >> 12) & 63], kAlphabet[(n >> 6) & 63], '='};
  }
  return out;
}

void AppendJsonString(std::string* out, std::string_view text) {
  *out += '"';
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += static_cast<char>(c);
    } else if (c < 0x20) {
      *out += fmt::format("\\u{:04x}", c);
    } else {
      *out += static_cast<char>(c);
    }
  }
  *out += '"';
}

}  // namespace

std::string_view DeadLetterSchemaJson() {
  return R"({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"topic","required":true,"type":"string"},
  {"id":2,"name":"partition","required":true,"type":"int"},
  {"id":3,"name":"offset","required":true,"type":"long"},
  {"id":4,"name":"timestamp","required":false,"type":"timestamptz"},
  {"id":5,"name":"error","required":true,"type":"string"},
  {"id":6,"name":"raw","required":false,"type":"binary"},
  {"id":7,"name":"ingested_at","required":true,"type":"timestamptz"}]})";
}

Result<std::unique_ptr<DeadLetterTable>> DeadLetterTable::Open(std::unique_ptr<iceberg::Table> table,
                                                               std::shared_ptr<TopicPartitionIds> ids,
                                                               int64_t target_file_size_bytes) {
  std::unique_ptr<DeadLetterTable> dead(new DeadLetterTable());
  FLOE_ASSIGN_OR_RETURN(auto fields, formats::BatchFieldsFromSchema(table->metadata().CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(dead->decoder_,
                        formats::JsonEventDecoder::Make(std::move(fields), formats::EpochUnit::kMillis));
  dead->table_ = std::move(table);
  dead->ids_ = std::move(ids);
  dead->target_file_size_bytes_ = target_file_size_bytes;
  return dead;
}

Result<uint64_t> DeadLetterTable::Commit(const MicroBatch& batch, const DeadLetters& bad, const SourceOffsets& next) {
  FLOE_RETURN_IF_ERROR(table_->Refresh());
  FLOE_ASSIGN_OR_RETURN(SourceOffsets done, CurrentOffsets(table_->metadata(), *ids_));
  std::string lines;
  int64_t now = Clock::System().NowMillis();
  uint64_t count = 0;
  for (const auto& [index, reason] : bad) {
    const SourceRecord& r = batch.records()[index];
    if (auto it = done.find(r.partition); it != done.end() && r.offset < it->second) continue;  // Already there.
    const TopicPartition where = ids_->Lookup(r.partition);
    lines += "{\"topic\":";
    AppendJsonString(&lines, where.topic);
    lines += fmt::format(",\"partition\":{},\"offset\":{},\"timestamp\":{},\"error\":", where.partition, r.offset,
                         r.timestamp_millis);
    AppendJsonString(&lines, reason);
    lines += r.value_null ? std::string(",\"raw\":null") : ",\"raw\":\"" + Base64(batch.value(r)) + "\"";
    lines += fmt::format(",\"ingested_at\":{}}}\n", now);
    ++count;
  }
  if (count == 0) return 0;
  size_t size = lines.size();
  lines.append(formats::JsonEventDecoder::kPadding, '\0');
  decoder_->DecodeLines(std::string_view(lines.data(), size), 1);
  if (!decoder_->errors().empty()) {
    std::string first = decoder_->errors().front().message;
    decoder_->ClearErrors();
    (void)decoder_->TakeBatch();
    return Internal("encoding dead letters: {}", first);
  }
  std::vector<formats::ColumnBatch> batches;
  batches.push_back(decoder_->TakeBatch());
  FLOE_ASSIGN_OR_RETURN(auto files,
                        iceberg::WriteDataFiles(*table_, batches, {.target_file_size_bytes = target_file_size_bytes_}));
  // The table's offsets only move forward. A batch read again after a crash between this commit
  // and the main table's may end before what this table already reached; moving its offset back
  // would let the next batch add the dead letters in between a second time.
  SourceOffsets expected, reached = next;
  for (const auto& [partition, end] : next) {
    if (auto it = done.find(partition); it != done.end()) {
      expected[partition] = it->second;
      reached[partition] = std::max(end, it->second);
    }
  }
  FLOE_RETURN_IF_ERROR_CTX(AppendWithOffsets(*table_, files, *ids_, expected, reached), "committing dead letters");
  return count;
}

}  // namespace floe::stream
