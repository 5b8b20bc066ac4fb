#include "iceberg/deletion_vector_file.h"

#include <algorithm>
#include <map>
#include <string>

#include "iceberg/data_files.h"
#include "iceberg/deletion_vector.h"
#include "iceberg/puffin.h"

namespace floe::iceberg {

Result<std::vector<int64_t>> ReadDeletionVector(Table& table, const DataFile& dv, const DataFile& data) {
  std::string where = fmt::format("{} blob at {}+{}", dv.file_path, dv.content_offset.value_or(-1),
                                  dv.content_size_in_bytes.value_or(-1));
  if (!dv.content_offset || !dv.content_size_in_bytes || *dv.content_offset < 0 || *dv.content_size_in_bytes < 12) {
    return Corruption("deletion vector {}: the manifest entry needs content_offset and content_size_in_bytes", where);
  }
  FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(dv.file_path));
  FLOE_ASSIGN_OR_RETURN(auto input, table.ops().store().OpenInput(key));
  uint64_t end = static_cast<uint64_t>(*dv.content_offset) + static_cast<uint64_t>(*dv.content_size_in_bytes);
  if (end > input->Size()) {
    return Corruption("deletion vector {}: the blob ends at byte {} but the Puffin file has {}", where, end, input->Size());
  }
  FLOE_ASSIGN_OR_RETURN(std::string blob, input->ReadAt(static_cast<uint64_t>(*dv.content_offset),
                                                        static_cast<uint64_t>(*dv.content_size_in_bytes)));
  FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, DecodeDeletionVector(blob, data.record_count, where));
  // The spec makes a DV's record_count its cardinality; a mismatch means the wrong blob.
  if (dv.record_count > 0 && static_cast<int64_t>(positions.size()) != dv.record_count) {
    return Corruption("deletion vector {}: holds {} positions, its manifest entry says {}", where, positions.size(),
                      dv.record_count);
  }
  return positions;
}

Result<std::vector<DataFile>> WriteDeletionVectors(Table& table, const std::vector<DeletionVectorUpdate>& updates) {
  std::vector<DataFile> out(updates.size());
  // Updates by partition (spec id and tuple, as text).
  std::map<std::string, std::vector<size_t>> partitions;
  for (size_t i = 0; i < updates.size(); ++i) {
    const DataFile& data = updates[i].data_file;
    std::string key = std::to_string(data.spec_id) + ":";
    for (const Literal& l : data.partition) key += l.ToString() + "\x1f";
    partitions[key].push_back(i);
  }
  std::vector<std::string> written;
  auto discard = [&] {
    for (const std::string& location : written) {
      if (auto key = table.ops().KeyForLocation(location)) (void)table.ops().store().Delete(*key);
    }
  };
  for (const auto& [partition, members] : partitions) {
    std::vector<PuffinBlob> blobs;
    std::vector<int64_t> cardinalities;
    for (size_t i : members) {
      std::vector<int64_t> positions = updates[i].positions;
      std::sort(positions.begin(), positions.end());
      positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
      const DataFile& data = updates[i].data_file;
      if (!positions.empty() && (positions.front() < 0 || positions.back() >= data.record_count)) {
        discard();
        return InvalidArgument("deletion vector for {}: position {} is outside its {} rows", data.file_path,
                               positions.front() < 0 ? positions.front() : positions.back(), data.record_count);
      }
      PuffinBlob blob;
      blob.type = std::string(kDeletionVectorBlobType);
      blob.fields = {kDeletePosId};  // The row position column: what the vector's bits stand for.
      blob.properties = {{"referenced-data-file", data.file_path},
                         {"cardinality", std::to_string(positions.size())}};
      cardinalities.push_back(static_cast<int64_t>(positions.size()));
      blob.data = EncodeDeletionVector(std::move(positions));
      blobs.push_back(std::move(blob));
    }
    PuffinFile file = WritePuffin(blobs, "floe");
    std::string location = table.ops().NewLocation(fmt::format("data/{}-dv.puffin", NewUuid()));
    if (Status st = table.WriteLocation(location, file.bytes); !st) {
      discard();
      return std::unexpected(st.error());
    }
    written.push_back(location);
    for (size_t b = 0; b < members.size(); ++b) {
      const DataFile& data = updates[members[b]].data_file;
      DataFile& dv = out[members[b]];
      dv.content = FileContent::kPositionDeletes;
      dv.file_path = location;
      dv.file_format = "PUFFIN";
      dv.spec_id = data.spec_id;
      dv.partition = data.partition;
      dv.record_count = cardinalities[b];
      dv.file_size_in_bytes = static_cast<int64_t>(file.bytes.size());
      dv.referenced_data_file = data.file_path;
      dv.content_offset = blobs[b].offset;
      dv.content_size_in_bytes = blobs[b].length;
    }
  }
  return out;
}

Result<std::vector<int64_t>> PositionDeletesForVector(Table& table, const DataFile& data,
                                                      const std::vector<DataFile>& files,
                                                      std::vector<DataFile>* replaced) {
  std::vector<int64_t> out;
  for (const DataFile& f : files) {
    if (f.content != FileContent::kPositionDeletes || f.is_deletion_vector()) continue;
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, ReadPositionDeletes(table, f, data.file_path));
    out.insert(out.end(), positions.begin(), positions.end());
    if (f.referenced_data_file && *f.referenced_data_file == data.file_path) replaced->push_back(f);
  }
  return out;
}

}  // namespace floe::iceberg
