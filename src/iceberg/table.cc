#include "iceberg/table.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <set>
#include <thread>

#include "iceberg/data_files.h"
#include "iceberg/evaluators.h"
#include "iceberg/schema_json.h"
#include "iceberg/sort_order.h"

namespace floe::iceberg {
namespace {

int64_t SummaryLong(const std::map<std::string, std::string>& summary, const std::string& key) {
  auto it = summary.find(key);
  if (it == summary.end()) return 0;
  return std::strtoll(it->second.c_str(), nullptr, 10);
}

void Backoff(const RetryPolicy& policy, int attempt) {
  int64_t cap = std::min(policy.max_backoff_ms, policy.min_backoff_ms << std::min(attempt, 16));
  thread_local std::mt19937 rng(std::random_device{}());
  int64_t ms = std::uniform_int_distribution<int64_t>(policy.min_backoff_ms, std::max(policy.min_backoff_ms, cap))(rng);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Assigns fresh ids (from *next) to every nested field of a type being added.
TypePtr AssignIds(const TypePtr& type, int32_t* next) {
  if (type->is_primitive()) return type;
  std::vector<NestedField> fields = type->fields();
  for (NestedField& f : fields) f.id = (*next)++;
  for (NestedField& f : fields) f.type = AssignIds(f.type, next);
  switch (type->id()) {
    case TypeId::kStruct: return Type::Struct(std::move(fields));
    case TypeId::kList: return Type::List(std::move(fields[0]));
    default: return Type::Map(std::move(fields[0]), std::move(fields[1]));
  }
}

std::vector<std::string> SplitName(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

// Applies `fn` to the field list of the struct that holds the column `path` (all but its last
// part), rebuilding the types above it.
Result<std::vector<NestedField>> EditStruct(const std::vector<NestedField>& fields, const std::vector<std::string>& path,
                                            size_t depth,
                                            const std::function<Status(std::vector<NestedField>&, const std::string&)>& fn) {
  std::vector<NestedField> out = fields;
  if (depth + 1 == path.size()) {
    FLOE_RETURN_IF_ERROR(fn(out, path[depth]));
    return out;
  }
  for (NestedField& f : out) {
    if (f.name != path[depth]) continue;
    if (f.type->id() != TypeId::kStruct) return InvalidArgument("column '{}' is not a struct", f.name);
    FLOE_ASSIGN_OR_RETURN(auto inner, EditStruct(f.type->fields(), path, depth + 1, fn));
    f.type = Type::Struct(std::move(inner));
    return out;
  }
  return InvalidArgument("no column '{}'", path[depth]);
}

RefRetention RetentionOf(const SnapshotRef& ref) {
  return RefRetention{ref.min_snapshots_to_keep, ref.max_snapshot_age_ms, ref.max_ref_age_ms};
}

Result<Schema> ApplySchemaChanges(const TableMetadata& base, const std::vector<SchemaChange>& changes,
                                  int32_t* last_column_id) {
  const Schema& current = base.CurrentSchema();
  std::vector<NestedField> fields = current.fields();
  std::vector<int32_t> identifiers = current.identifier_field_ids();
  int32_t next_id = std::max(base.last_column_id, current.HighestFieldId()) + 1;
  for (const SchemaChange& c : changes) {
    std::vector<std::string> path = SplitName(c.column);
    Schema view(current.schema_id(), fields, identifiers);
    std::function<Status(std::vector<NestedField>&, const std::string&)> fn;
    switch (c.kind) {
      case SchemaChange::Kind::kAddColumn:
        if (view.FindFieldByName(c.column)) return InvalidArgument("column '{}' already exists", c.column);
        if (!c.type) return InvalidArgument("add column '{}': no type", c.column);
        fn = [&](std::vector<NestedField>& fs, const std::string& name) {
          NestedField f;
          f.id = next_id++;
          f.name = name;
          f.required = false;  // A required column needs a default for existing rows.
          f.type = AssignIds(c.type, &next_id);
          f.doc = c.doc;
          fs.push_back(std::move(f));
          return OkStatus();
        };
        break;
      case SchemaChange::Kind::kDropColumn: {
        const NestedField* f = view.FindFieldByName(c.column);
        if (!f) return InvalidArgument("no column '{}'", c.column);
        if (std::find(identifiers.begin(), identifiers.end(), f->id) != identifiers.end()) {
          return InvalidArgument("cannot drop identifier column '{}'", c.column);
        }
        for (const PartitionField& pf : base.DefaultSpec().fields()) {
          if (pf.source_id == f->id && pf.transform.kind() != Transform::Kind::kVoid) {
            return InvalidArgument("cannot drop '{}': the current partition spec uses it", c.column);
          }
        }
        fn = [&](std::vector<NestedField>& fs, const std::string& name) {
          fs.erase(std::remove_if(fs.begin(), fs.end(), [&](const NestedField& x) { return x.name == name; }), fs.end());
          return OkStatus();
        };
        break;
      }
      case SchemaChange::Kind::kRenameColumn:
        if (!view.FindFieldByName(c.column)) return InvalidArgument("no column '{}'", c.column);
        fn = [&](std::vector<NestedField>& fs, const std::string& name) {
          for (const NestedField& x : fs) {
            if (x.name == c.new_name) return Status(InvalidArgument("column '{}' already exists", c.new_name));
          }
          for (NestedField& x : fs) {
            if (x.name == name) x.name = c.new_name;
          }
          return OkStatus();
        };
        break;
      case SchemaChange::Kind::kPromoteType: {
        const NestedField* f = view.FindFieldByName(c.column);
        if (!f) return InvalidArgument("no column '{}'", c.column);
        if (!c.type || !IsPromotionAllowed(*f->type, *c.type)) {
          return InvalidArgument("cannot change '{}' from {} to {}", c.column, f->type->ToString(),
                                 c.type ? c.type->ToString() : "nothing");
        }
        fn = [&](std::vector<NestedField>& fs, const std::string& name) {
          for (NestedField& x : fs) {
            if (x.name == name) x.type = c.type;
          }
          return OkStatus();
        };
        break;
      }
      case SchemaChange::Kind::kMakeOptional:
        if (!view.FindFieldByName(c.column)) return InvalidArgument("no column '{}'", c.column);
        fn = [&](std::vector<NestedField>& fs, const std::string& name) {
          for (NestedField& x : fs) {
            if (x.name == name) x.required = false;
          }
          return OkStatus();
        };
        break;
      case SchemaChange::Kind::kMoveFirst:
      case SchemaChange::Kind::kMoveAfter:
        if (!view.FindFieldByName(c.column)) return InvalidArgument("no column '{}'", c.column);
        fn = [&](std::vector<NestedField>& fs, const std::string& name) {
          auto it = std::find_if(fs.begin(), fs.end(), [&](const NestedField& x) { return x.name == name; });
          NestedField moved = *it;
          fs.erase(it);
          if (c.kind == SchemaChange::Kind::kMoveFirst) {
            fs.insert(fs.begin(), std::move(moved));
            return OkStatus();
          }
          std::string after = SplitName(c.after).back();
          auto pos = std::find_if(fs.begin(), fs.end(), [&](const NestedField& x) { return x.name == after; });
          if (pos == fs.end()) return Status(InvalidArgument("no column '{}' to move after", c.after));
          fs.insert(pos + 1, std::move(moved));
          return OkStatus();
        };
        break;
    }
    FLOE_ASSIGN_OR_RETURN(fields, EditStruct(fields, path, 0, fn));
  }
  *last_column_id = std::max(base.last_column_id, next_id - 1);
  Schema result(0, std::move(fields), identifiers);
  FLOE_RETURN_IF_ERROR(result.Validate());
  return result;
}

}  // namespace

Result<std::unique_ptr<Table>> Table::Load(std::shared_ptr<TableOperations> ops) {
  FLOE_ASSIGN_OR_RETURN(VersionedMetadata current, ops->Refresh());
  return std::unique_ptr<Table>(new Table(std::move(ops), std::move(current)));
}

Result<std::unique_ptr<Table>> Table::Create(std::shared_ptr<TableOperations> ops, const Schema& schema,
                                             const std::vector<PartitionField>& partition_fields,
                                             std::map<std::string, std::string> properties) {
  FLOE_RETURN_IF_ERROR(schema.Validate());
  std::string location = ops->NewLocation("");
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  PartitionSpec spec(0, partition_fields);
  FLOE_RETURN_IF_ERROR(spec.Validate(schema.WithId(0)));
  // `format-version` chooses the table's version at creation and is not kept as a property,
  // as in catalog::TableCreation.
  int64_t format_version = kDefaultFormatVersion;
  if (auto it = properties.find("format-version"); it != properties.end()) {
    char* end = nullptr;
    format_version = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0') {
      return InvalidArgument("property format-version '{}' is not a number", it->second);
    }
    properties.erase(it);
  }
  TableChange change;
  change.requirements = {std::make_shared<const AssertCreate>()};
  change.updates = {
      std::make_shared<const AssignUuid>(NewUuid()),
      std::make_shared<const UpgradeFormatVersion>(format_version),
      std::make_shared<const AddSchema>(SchemaToJsonValue(schema.WithId(0)), schema.HighestFieldId()),
      std::make_shared<const SetCurrentSchema>(-1),
      std::make_shared<const AddPartitionSpec>(PartitionSpecToJsonValue(spec)),
      std::make_shared<const SetDefaultPartitionSpec>(-1),
      std::make_shared<const AddSortOrder>(SortOrderToJsonValue(SortOrder{})),
      std::make_shared<const SetDefaultSortOrder>(-1),
      std::make_shared<const SetLocation>(location),
  };
  if (!properties.empty()) {
    change.updates.push_back(std::make_shared<const iceberg::SetProperties>(std::move(properties)));
  }
  VersionedMetadata none;
  auto committed = ops->Commit(none, change);
  if (!committed) {
    if (committed.error().kind() == ErrorKind::kConflict) {
      return AlreadyExists("table at {} already exists", ops->NewLocation(""));
    }
    return std::unexpected(committed.error());
  }
  return std::unique_ptr<Table>(new Table(std::move(ops), std::move(*committed)));
}

Status Table::Refresh() {
  FLOE_ASSIGN_OR_RETURN(current_, ops_->Refresh());
  return OkStatus();
}

Result<std::string> Table::ReadLocation(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string key, ops_->KeyForLocation(location));
  return ops_->store().Get(key);
}

Status Table::WriteLocation(std::string_view location, std::string_view bytes) {
  FLOE_ASSIGN_OR_RETURN(std::string key, ops_->KeyForLocation(location));
  return ops_->store().Put(key, bytes);
}

Result<std::vector<ManifestFile>> Table::Manifests(const Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) {
    return NotImplemented("snapshot {} lists manifests without a manifest list (v1)", snapshot.snapshot_id);
  }
  FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadLocation(snapshot.manifest_list));
  return ReadManifestList(std::move(bytes), snapshot.manifest_list);
}

Result<std::vector<ManifestEntry>> Table::ReadEntries(const ManifestFile& manifest) {
  const TableMetadata& m = metadata();
  const PartitionSpec* spec = m.SpecById(manifest.partition_spec_id);
  if (!spec) return Corruption("manifest {} uses unknown partition spec {}", manifest.manifest_path, manifest.partition_spec_id);
  FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadLocation(manifest.manifest_path));
  return ReadManifest(std::move(bytes), manifest, *spec, m.CurrentSchema(), manifest.manifest_path);
}

Result<std::vector<ManifestEntry>> Table::LiveEntries(std::optional<int64_t> snapshot_id) {
  const TableMetadata& m = metadata();
  const Snapshot* snap = snapshot_id ? m.SnapshotById(*snapshot_id) : m.CurrentSnapshot();
  if (snapshot_id && !snap) return NotFound("no snapshot {}", *snapshot_id);
  std::vector<ManifestEntry> out;
  if (!snap) return out;
  FLOE_ASSIGN_OR_RETURN(auto manifests, Manifests(*snap));
  for (const ManifestFile& mf : manifests) {
    FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(mf));
    for (ManifestEntry& e : entries) {
      if (e.status != EntryStatus::kDeleted) out.push_back(std::move(e));
    }
  }
  return out;
}

Status Table::CommitWithRetry(const Attempt& attempt) {
  // A summary function belongs to one commit, whatever its outcome.
  struct ClearSummaryFunction {
    SummaryFunction& fn;
    ~ClearSummaryFunction() { fn = nullptr; }
  } clear_summary_function{summary_fn_};
  for (int n = 0; n < retry_.max_attempts; ++n) {
    if (n > 0) {
      Backoff(retry_, n);
      FLOE_RETURN_IF_ERROR(Refresh());
    }
    std::vector<std::string> written;
    auto cleanup = [&]() {
      for (const std::string& loc : written) {
        if (auto key = ops_->KeyForLocation(loc)) (void)ops_->store().Delete(*key);
      }
    };
    auto updates = attempt(metadata(), &written);
    if (!updates) {
      cleanup();
      return std::unexpected(updates.error());
    }
    TableChange change{RequirementsFor(metadata(), *updates), std::move(*updates)};
    auto committed = ops_->Commit(current_, change);
    if (committed) {
      current_ = std::move(*committed);
      extra_summary_.clear();
      return OkStatus();
    }
    if (committed.error().kind() != ErrorKind::kConflict) {
      // Unknown outcome: the new metadata may be live and reference what we wrote.
      return std::unexpected(committed.error());
    }
    cleanup();
  }
  return Conflict("gave up committing to {} after {} attempts", metadata().location, retry_.max_attempts);
}

Result<ManifestFile> Table::WriteNewManifest(const TableMetadata& base, int64_t snapshot_id,
                                             const std::vector<ManifestEntry>& entries, ManifestContent content) {
  const PartitionSpec& spec = base.DefaultSpec();
  ManifestWriteContext ctx{std::max(2, base.format_version), &base.CurrentSchema(), &spec, content, snapshot_id};
  FLOE_ASSIGN_OR_RETURN(WrittenManifest written, WriteManifest(ctx, entries));
  std::string location = ops_->NewLocation(fmt::format("metadata/{}-m0.avro", NewUuid()));
  FLOE_RETURN_IF_ERROR(WriteLocation(location, written.bytes));
  written.record.manifest_path = location;
  return written.record;
}

Result<Table::Updates> Table::AddSnapshot(const TableMetadata& base, int64_t snapshot_id, std::string_view operation,
                                          std::vector<ManifestFile> manifests,
                                          const std::map<std::string, std::string>& delta,
                                          std::vector<std::string>* written) {
  if (base.format_version < 2) return NotImplemented("writing to format v1 tables (upgrade to v2 first)");
  if (base.SnapshotById(snapshot_id)) return Conflict("snapshot id {} is already used", snapshot_id);
  int64_t seq = base.last_sequence_number + 1;
  std::string list_location =
      ops_->NewLocation(fmt::format("metadata/snap-{}-{}-{}.avro", snapshot_id, seq, NewUuid()));
  // Row lineage (v3, format/spec.md "First Row ID Assignment"): every data manifest without a
  // first row id gets the next range of ids, sized by its added and existing rows, from the
  // table's next-row-id on; the snapshot records where its ranges start and how many they hold.
  const bool row_lineage = base.format_version >= 3;
  const int64_t first_row_id = base.next_row_id.value_or(0);
  int64_t next_row_id = first_row_id;
  if (row_lineage) {
    for (ManifestFile& m : manifests) {
      if (m.content != ManifestContent::kData || m.first_row_id) continue;
      m.first_row_id = next_row_id;
      next_row_id += m.added_rows_count.value_or(0) + m.existing_rows_count.value_or(0);
    }
  }
  FLOE_ASSIGN_OR_RETURN(std::string list, WriteManifestList(row_lineage ? 3 : 2, snapshot_id, base.current_snapshot_id,
                                                            seq, std::move(manifests)));
  FLOE_RETURN_IF_ERROR(WriteLocation(list_location, list));
  written->push_back(list_location);

  Snapshot s;
  s.snapshot_id = snapshot_id;
  s.parent_snapshot_id = base.current_snapshot_id;
  s.sequence_number = seq;
  s.timestamp_ms = std::max(NowMillis(), base.last_updated_ms);
  s.manifest_list = list_location;
  s.schema_id = base.current_schema_id;
  if (row_lineage) {
    s.first_row_id = first_row_id;
    s.added_rows = next_row_id - first_row_id;
  }
  s.summary = extra_summary_;
  if (summary_fn_) {
    FLOE_ASSIGN_OR_RETURN(auto computed, summary_fn_(base));
    for (auto& [k, v] : computed) s.summary[k] = std::move(v);
  }
  s.summary["operation"] = std::string(operation);
  const Snapshot* parent = base.CurrentSnapshot();
  std::map<std::string, std::string> prev = parent ? parent->summary : std::map<std::string, std::string>{};
  for (const auto& [k, v] : delta) s.summary[k] = v;
  if (operation == kOperationReplace) {
    // A replace changes no rows, so a writer's checkpoint (the stream job's
    // `floe.offsets.<topic>`) in the nearest ancestor that has it still holds: carried over, it
    // survives the expiry of the snapshot that wrote it however many compactions follow. The
    // walk is bounded by the snapshot count, so a corrupt cycle of parents cannot loop.
    const Snapshot* ancestor = parent;
    for (size_t steps = 0; ancestor && steps < base.snapshots.size(); ++steps) {
      for (const auto& [k, v] : ancestor->summary) {
        if (k.starts_with(kCarriedSummaryPrefix)) s.summary.try_emplace(k, v);
      }
      ancestor = ancestor->parent_snapshot_id ? base.SnapshotById(*ancestor->parent_snapshot_id) : nullptr;
    }
  }
  auto total = [&](const char* total_key, const char* added_key, const char* removed_key) {
    int64_t t = SummaryLong(prev, total_key) + SummaryLong(delta, added_key) - SummaryLong(delta, removed_key);
    s.summary[total_key] = std::to_string(std::max<int64_t>(0, t));
  };
  total("total-data-files", "added-data-files", "deleted-data-files");
  total("total-records", "added-records", "deleted-records");
  total("total-files-size", "added-files-size", "removed-files-size");
  total("total-delete-files", "added-delete-files", "removed-delete-files");
  total("total-position-deletes", "added-position-deletes", "removed-position-deletes");
  total("total-equality-deletes", "added-equality-deletes", "removed-equality-deletes");

  // Main keeps its retention settings as it moves.
  RefRetention retention;
  if (auto it = base.refs.find(std::string(kMainBranch)); it != base.refs.end()) retention = RetentionOf(it->second);
  return Updates{
      std::make_shared<const iceberg::AddSnapshot>(SnapshotToJsonValue(s)),
      std::make_shared<const SetSnapshotRef>(std::string(kMainBranch), snapshot_id, "branch", retention)};
}

Status Table::FastAppend(const std::vector<DataFile>& files) {
  return Append(files, metadata().Property("commit.manifest-merge.enabled", "false") == "true");
}

Status Table::MergeAppend(const std::vector<DataFile>& files) { return Append(files, true); }

Result<std::vector<ManifestFile>> Table::MergeManifests(const TableMetadata& base, int64_t snapshot_id,
                                                        std::vector<ManifestFile> manifests,
                                                        std::vector<std::string>* written) {
  int64_t min_count = base.PropertyAsLong("commit.manifest.min-count-to-merge", 100);
  int64_t target = base.PropertyAsLong("commit.manifest.target-size-bytes", int64_t{8} << 20);
  int32_t spec_id = base.default_spec_id;
  std::vector<ManifestFile> candidates, kept;
  for (ManifestFile& m : manifests) {
    bool mergeable = m.content == ManifestContent::kData && m.partition_spec_id == spec_id && m.manifest_length < target;
    (mergeable ? candidates : kept).push_back(std::move(m));
  }
  if (static_cast<int64_t>(candidates.size()) < min_count) {
    candidates.insert(candidates.end(), kept.begin(), kept.end());
    return candidates;
  }
  // Bin-pack in order (the newest manifest first), each bin up to the target size.
  std::vector<std::vector<ManifestFile>> bins(1);
  int64_t bin_bytes = 0;
  for (ManifestFile& m : candidates) {
    if (bin_bytes + m.manifest_length > target && !bins.back().empty()) {
      bins.emplace_back();
      bin_bytes = 0;
    }
    bin_bytes += m.manifest_length;
    bins.back().push_back(std::move(m));
  }
  std::vector<ManifestFile> out;
  for (std::vector<ManifestFile>& bin : bins) {
    if (bin.size() == 1) {
      out.push_back(std::move(bin[0]));
      continue;
    }
    std::vector<ManifestEntry> entries;
    for (const ManifestFile& m : bin) {
      bool ours = m.sequence_number == ManifestFile::kUnassigned;
      if (ours) {
        // This commit's manifest: its entries stay ADDED and inherit the new snapshot's numbers.
        FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadLocation(m.manifest_path));
        ManifestFile unassigned = m;
        unassigned.sequence_number = 0;
        FLOE_ASSIGN_OR_RETURN(auto es, ReadManifest(std::move(bytes), unassigned, *base.SpecById(m.partition_spec_id),
                                                    base.CurrentSchema(), m.manifest_path));
        for (ManifestEntry& e : es) {
          e.snapshot_id.reset();
          e.sequence_number.reset();
          e.file_sequence_number.reset();
          entries.push_back(std::move(e));
        }
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto es, ReadEntries(m));
      for (ManifestEntry& e : es) {
        if (e.status == EntryStatus::kDeleted) continue;
        e.status = EntryStatus::kExisting;
        entries.push_back(std::move(e));
      }
    }
    const PartitionSpec* spec = base.SpecById(spec_id);
    ManifestWriteContext ctx{std::max(2, base.format_version), &base.CurrentSchema(), spec, ManifestContent::kData,
                             snapshot_id};
    FLOE_ASSIGN_OR_RETURN(WrittenManifest w, WriteManifest(ctx, entries));
    std::string location = ops_->NewLocation(fmt::format("metadata/{}-m{}.avro", NewUuid(), out.size()));
    FLOE_RETURN_IF_ERROR(WriteLocation(location, w.bytes));
    written->push_back(location);
    w.record.manifest_path = location;
    out.push_back(std::move(w.record));
  }
  out.insert(out.end(), kept.begin(), kept.end());
  return out;
}

Status Table::Append(const std::vector<DataFile>& files, bool merge) {
  // No files and nothing to record: no snapshot. With summary entries (a stream batch made only
  // of dead letters still advances its offsets), an empty append commits a snapshot.
  if (files.empty() && !summary_fn_ && extra_summary_.empty()) return OkStatus();
  int64_t snapshot_id = NewSnapshotId();
  std::vector<ManifestEntry> entries;
  std::map<std::string, std::string> delta;
  int64_t records = 0, bytes = 0;
  for (const DataFile& f : files) {
    entries.push_back(ManifestEntry{EntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, f});
    records += f.record_count;
    bytes += f.file_size_in_bytes;
  }
  delta["added-data-files"] = std::to_string(files.size());
  delta["added-records"] = std::to_string(records);
  delta["added-files-size"] = std::to_string(bytes);
  // Written once; every retry's manifest list points at it.
  std::optional<ManifestFile> manifest;
  if (!entries.empty()) {
    FLOE_ASSIGN_OR_RETURN(manifest, WriteNewManifest(metadata(), snapshot_id, entries));
  }
  std::set<std::string> partitions;
  for (const DataFile& f : files) {
    std::string key;
    for (const Literal& l : f.partition) key += l.ToString() + "/";
    partitions.insert(key);
  }
  delta["changed-partition-count"] = std::to_string(partitions.size());
  int32_t spec_id = metadata().default_spec_id;
  Status st = CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>* written) -> Result<Updates> {
    if (!base.SpecById(spec_id)) return Conflict("partition spec {} was removed concurrently", spec_id);
    std::vector<ManifestFile> manifests;
    if (manifest) manifests.push_back(*manifest);
    if (const Snapshot* current = base.CurrentSnapshot()) {
      FLOE_ASSIGN_OR_RETURN(auto existing, Manifests(*current));
      manifests.insert(manifests.end(), existing.begin(), existing.end());
    }
    if (merge) {
      FLOE_ASSIGN_OR_RETURN(manifests, MergeManifests(base, snapshot_id, std::move(manifests), written));
    }
    return AddSnapshot(base, snapshot_id, kOperationAppend, std::move(manifests), delta, written);
  });
  if (!st && st.error().kind() == ErrorKind::kConflict && manifest) {
    // Definitely not committed: the manifest is garbage.
    if (auto key = ops_->KeyForLocation(manifest->manifest_path)) (void)ops_->store().Delete(*key);
  }
  return st;
}

Status Table::AppendManifests(const std::vector<ManifestFile>& added) {
  if (added.empty()) return OkStatus();
  int64_t snapshot_id = NewSnapshotId();
  std::map<std::string, std::string> delta;
  int64_t files = 0, records = 0;
  std::vector<ManifestFile> mine = added;
  for (ManifestFile& m : mine) {
    files += m.added_files_count.value_or(0);
    records += m.added_rows_count.value_or(0);
    m.added_snapshot_id = snapshot_id;
    m.sequence_number = ManifestFile::kUnassigned;
    m.min_sequence_number = ManifestFile::kUnassigned;
  }
  delta["added-data-files"] = std::to_string(files);
  delta["added-records"] = std::to_string(records);
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>* written) -> Result<Updates> {
    std::vector<ManifestFile> manifests = mine;
    if (const Snapshot* current = base.CurrentSnapshot()) {
      FLOE_ASSIGN_OR_RETURN(auto existing, Manifests(*current));
      manifests.insert(manifests.end(), existing.begin(), existing.end());
    }
    return AddSnapshot(base, snapshot_id, kOperationAppend, std::move(manifests), delta, written);
  });
}

Status Table::AddDeleteFiles(const std::vector<DataFile>& deletes) {
  if (deletes.empty()) return OkStatus();
  int64_t snapshot_id = NewSnapshotId();
  std::vector<ManifestEntry> entries;
  int64_t positions = 0, equalities = 0, bytes = 0;
  for (const DataFile& f : deletes) {
    if (f.content == FileContent::kData) return InvalidArgument("{} is a data file, not a delete file", f.file_path);
    entries.push_back(ManifestEntry{EntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, f});
    (f.content == FileContent::kPositionDeletes ? positions : equalities) += f.record_count;
    bytes += f.file_size_in_bytes;
  }
  FLOE_ASSIGN_OR_RETURN(ManifestFile manifest, WriteNewManifest(metadata(), snapshot_id, entries, ManifestContent::kDeletes));
  std::map<std::string, std::string> delta = {{"added-delete-files", std::to_string(deletes.size())},
                                              {"added-position-deletes", std::to_string(positions)},
                                              {"added-equality-deletes", std::to_string(equalities)},
                                              {"added-files-size", std::to_string(bytes)}};
  Status st = CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>* written) -> Result<Updates> {
    std::vector<ManifestFile> manifests = {manifest};
    if (const Snapshot* current = base.CurrentSnapshot()) {
      FLOE_ASSIGN_OR_RETURN(auto existing, Manifests(*current));
      manifests.insert(manifests.end(), existing.begin(), existing.end());
    }
    // Position deletes must still find their data files.
    std::set<std::string> live;
    for (const ManifestFile& mf : manifests) {
      if (mf.content != ManifestContent::kData || &mf == &manifests[0]) continue;
      FLOE_ASSIGN_OR_RETURN(auto es, ReadEntries(mf));
      for (const ManifestEntry& e : es) {
        if (e.status != EntryStatus::kDeleted) live.insert(e.data_file.file_path);
      }
    }
    for (const DataFile& f : deletes) {
      if (f.referenced_data_file && !live.contains(*f.referenced_data_file)) {
        return Conflict("cannot delete rows of {}: a concurrent commit removed the file", *f.referenced_data_file);
      }
    }
    return AddSnapshot(base, snapshot_id, kOperationDelete, std::move(manifests), delta, written);
  });
  if (!st && st.error().kind() == ErrorKind::kConflict) {
    if (auto key = ops_->KeyForLocation(manifest.manifest_path)) (void)ops_->store().Delete(*key);
  }
  return st;
}

namespace {

// A deletion vector's identity: its Puffin file and where its blob starts.
std::pair<std::string, int64_t> VectorId(const DataFile& dv) { return {dv.file_path, dv.content_offset.value_or(-1)}; }

// kConflict when `base` (whose manifests are `existing`) is not a base the row delta may land on
// (RowDeltaValidation); defined below.
Status ValidateRowDelta(Table& table, const TableMetadata& base, const std::vector<ManifestFile>& existing,
                        const RowDeltaValidation& validation);

}  // namespace

Result<std::vector<ManifestFile>> Table::ReplaceDeletionVectors(const TableMetadata& base, int64_t snapshot_id,
                                                                const std::vector<ManifestFile>& existing,
                                                                const std::vector<DataFile>& added_vectors,
                                                                const std::vector<DataFile>& replaced_vectors,
                                                                std::vector<std::string>* written) {
  std::map<std::string, std::optional<std::pair<std::string, int64_t>>> expected;  // Data file -> vector it has.
  for (const DataFile& dv : added_vectors) expected[*dv.referenced_data_file] = std::nullopt;
  std::set<std::pair<std::string, int64_t>> replaced;
  // Position delete files from before an upgrade to v3, scoped to one data file whose new vector
  // took their positions over (format/spec.md: a vector holds all of its file's position deletes).
  std::set<std::pair<std::string, int64_t>> replaced_files;
  for (const DataFile& dv : replaced_vectors) {
    if (!dv.referenced_data_file || !expected.contains(*dv.referenced_data_file)) {
      return InvalidArgument("deletion vector {} is replaced by none of the new vectors", dv.file_path);
    }
    if (dv.is_deletion_vector()) {
      expected[*dv.referenced_data_file] = VectorId(dv);
    } else {
      replaced_files.insert(VectorId(dv));
    }
    replaced.insert(VectorId(dv));
  }
  std::set<std::string> live_data;
  std::map<std::string, std::pair<std::string, int64_t>> current;  // Data file -> its vector in `base`.
  std::vector<ManifestFile> out;
  for (const ManifestFile& mf : existing) {
    FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(mf));
    bool rewrite = false;
    for (const ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      const DataFile& f = e.data_file;
      if (f.content == FileContent::kData) {
        if (expected.contains(f.file_path)) live_data.insert(f.file_path);
      } else if (f.is_deletion_vector() && f.referenced_data_file && expected.contains(*f.referenced_data_file)) {
        current[*f.referenced_data_file] = VectorId(f);
        rewrite = rewrite || replaced.contains(VectorId(f));
      } else if (f.content == FileContent::kPositionDeletes && replaced_files.erase(VectorId(f)) > 0) {
        rewrite = true;
      }
    }
    if (!rewrite) {
      out.push_back(mf);
      continue;
    }
    // The replaced vectors become DELETED entries of this snapshot, the rest stay as EXISTING.
    std::vector<ManifestEntry> rewritten;
    for (ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      if (e.data_file.content == FileContent::kPositionDeletes && replaced.contains(VectorId(e.data_file))) {
        e.status = EntryStatus::kDeleted;
        e.snapshot_id = snapshot_id;
      } else {
        e.status = EntryStatus::kExisting;
      }
      rewritten.push_back(std::move(e));
    }
    ManifestWriteContext ctx{std::max(2, base.format_version), &base.CurrentSchema(), base.SpecById(mf.partition_spec_id),
                             mf.content, snapshot_id};
    FLOE_ASSIGN_OR_RETURN(WrittenManifest w, WriteManifest(ctx, rewritten));
    std::string location = ops_->NewLocation(fmt::format("metadata/{}-m1.avro", NewUuid()));
    FLOE_RETURN_IF_ERROR(WriteLocation(location, w.bytes));
    written->push_back(location);
    w.record.manifest_path = location;
    out.push_back(std::move(w.record));
  }
  if (!replaced_files.empty()) {
    return Conflict("position delete file {}: a concurrent commit removed it", replaced_files.begin()->first);
  }
  for (const auto& [data_file, vector] : expected) {
    if (!live_data.contains(data_file)) {
      return Conflict("deletion vector for {}: the data file was removed by a concurrent commit", data_file);
    }
    auto it = current.find(data_file);
    std::optional<std::pair<std::string, int64_t>> now;
    if (it != current.end()) now = it->second;
    if (now != vector) {
      return Conflict("deletion vector for {}: a concurrent commit changed the file's vector", data_file);
    }
  }
  return out;
}

Status Table::CommitRowDelta(const std::vector<DataFile>& data, const std::vector<DataFile>& deletes,
                             const std::vector<DataFile>& replaced_vectors, const RowDeltaValidation* validation) {
  if (deletes.empty()) return FastAppend(data);
  std::vector<DataFile> added_vectors;
  for (const DataFile& f : deletes) {
    if (!f.is_deletion_vector()) continue;
    if (!f.referenced_data_file) return InvalidArgument("deletion vector {} names no data file", f.file_path);
    added_vectors.push_back(f);
  }
  if (!added_vectors.empty() && metadata().format_version < 3) {
    return InvalidArgument("deletion vectors need a format v3 table; {} is v{}", metadata().location,
                           metadata().format_version);
  }
  int64_t snapshot_id = NewSnapshotId();
  std::vector<ManifestEntry> data_entries, delete_entries;
  int64_t records = 0, data_bytes = 0, positions = 0, equalities = 0, delete_bytes = 0;
  std::set<std::string> partitions;
  for (const DataFile& f : data) {
    if (f.content != FileContent::kData) return InvalidArgument("{} is a delete file, not a data file", f.file_path);
    data_entries.push_back(ManifestEntry{EntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, f});
    records += f.record_count;
    data_bytes += f.file_size_in_bytes;
  }
  for (const DataFile& f : deletes) {
    if (f.content == FileContent::kData) return InvalidArgument("{} is a data file, not a delete file", f.file_path);
    delete_entries.push_back(ManifestEntry{EntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, f});
    (f.content == FileContent::kPositionDeletes ? positions : equalities) += f.record_count;
    delete_bytes += f.file_size_in_bytes;
  }
  for (const std::vector<DataFile>* files : {&data, &deletes}) {
    for (const DataFile& f : *files) {
      std::string key;
      for (const Literal& l : f.partition) key += l.ToString() + "/";
      partitions.insert(key);
    }
  }
  // Written once; every retry's manifest list points at them.
  std::vector<ManifestFile> mine;
  auto discard = [&] {
    for (const ManifestFile& m : mine) {
      if (auto key = ops_->KeyForLocation(m.manifest_path)) (void)ops_->store().Delete(*key);
    }
  };
  if (!data_entries.empty()) {
    auto written = WriteNewManifest(metadata(), snapshot_id, data_entries);
    if (!written) return std::unexpected(written.error());
    mine.push_back(std::move(*written));
  }
  auto written = WriteNewManifest(metadata(), snapshot_id, delete_entries, ManifestContent::kDeletes);
  if (!written) {
    discard();
    return std::unexpected(written.error());
  }
  mine.push_back(std::move(*written));
  std::map<std::string, std::string> delta = {{"added-data-files", std::to_string(data.size())},
                                              {"added-records", std::to_string(records)},
                                              {"added-delete-files", std::to_string(deletes.size())},
                                              {"added-position-deletes", std::to_string(positions)},
                                              {"added-equality-deletes", std::to_string(equalities)},
                                              {"added-files-size", std::to_string(data_bytes + delete_bytes)},
                                              {"changed-partition-count", std::to_string(partitions.size())}};
  int32_t spec_id = metadata().default_spec_id;
  std::string_view operation = data.empty() ? kOperationDelete : kOperationOverwrite;
  Status st = CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>* written) -> Result<Updates> {
    if (!base.SpecById(spec_id)) return Conflict("partition spec {} was removed concurrently", spec_id);
    std::vector<ManifestFile> manifests = mine;
    std::vector<ManifestFile> existing;
    if (const Snapshot* current = base.CurrentSnapshot()) {
      FLOE_ASSIGN_OR_RETURN(existing, Manifests(*current));
    }
    if (validation) FLOE_RETURN_IF_ERROR(ValidateRowDelta(*this, base, existing, *validation));
    std::map<std::string, std::string> attempt_delta = delta;
    if (!added_vectors.empty()) {
      FLOE_ASSIGN_OR_RETURN(existing, ReplaceDeletionVectors(base, snapshot_id, existing, added_vectors,
                                                             replaced_vectors, written));
      int64_t removed_positions = 0, removed_bytes = 0, removed_dvs = 0;
      for (const DataFile& dv : replaced_vectors) {
        removed_positions += dv.record_count;
        removed_bytes += dv.file_size_in_bytes;
        if (dv.is_deletion_vector()) ++removed_dvs;
      }
      attempt_delta["added-dvs"] = std::to_string(added_vectors.size());
      if (!replaced_vectors.empty()) {
        if (removed_dvs > 0) attempt_delta["removed-dvs"] = std::to_string(removed_dvs);
        attempt_delta["removed-delete-files"] = std::to_string(replaced_vectors.size());
        attempt_delta["removed-position-deletes"] = std::to_string(removed_positions);
        attempt_delta["removed-files-size"] = std::to_string(removed_bytes);
      }
    }
    manifests.insert(manifests.end(), existing.begin(), existing.end());
    return AddSnapshot(base, snapshot_id, operation, std::move(manifests), attempt_delta, written);
  });
  if (!st && st.error().kind() == ErrorKind::kConflict) discard();  // Definitely not committed.
  return st;
}

Status Table::RewriteManifests(size_t* merged) {
  if (merged) *merged = 0;
  int64_t snapshot_id = NewSnapshotId();
  bool nothing = false;
  Status st = CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>* written) -> Result<Updates> {
    const Snapshot* current = base.CurrentSnapshot();
    if (!current) {
      nothing = true;  // Ends the commit without writing metadata (an attempt's error is final).
      return AlreadyExists("no snapshot: nothing to merge");
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> existing, Manifests(*current));
    size_t before = existing.size();
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, MergeManifests(base, snapshot_id, std::move(existing), written));
    if (manifests.size() >= before) {
      nothing = true;
      return AlreadyExists("too few manifests to merge");
    }
    if (merged) *merged = before - manifests.size();
    return AddSnapshot(base, snapshot_id, kOperationReplace, std::move(manifests), {}, written);
  });
  if (nothing && !st) return OkStatus();
  return st;
}

Status Table::OverwriteFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added) {
  return ReplaceFiles(deleted, added, added.empty() ? kOperationDelete : kOperationOverwrite, nullptr);
}

Status Table::OverwriteFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added,
                             const OverwriteValidation& validation) {
  return ReplaceFiles(deleted, added, added.empty() ? kOperationDelete : kOperationOverwrite, &validation);
}

Status Table::RewriteFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added,
                          const RewriteOptions& options) {
  // A rewrite's new files get a newer data sequence number than any delete file committed
  // meanwhile, so such deletes would no longer apply to the rewritten rows and those rows
  // would come back: a replace fails instead (conservatively for any new delete file), unless
  // the new files keep the planned data sequence number (then only new position deletes fail:
  // they name the files being removed).
  OverwriteValidation validation;
  validation.planned_sequence_number = metadata().last_sequence_number;
  validation.allow_new_equality_deletes = options.data_sequence_number.has_value();
  return ReplaceFiles(deleted, added, kOperationReplace, &validation, options);
}

Result<std::set<std::string>> Table::DanglingDeletes(const TableMetadata& base,
                                                     const std::vector<ManifestFile>& existing,
                                                     const std::set<std::string>& deleted,
                                                     const std::vector<DataFile>& added,
                                                     int64_t added_sequence_number) {
  // The oldest live data sequence number per partition (spec id and tuple), and overall.
  std::map<std::pair<int32_t, std::vector<Literal>>, int64_t> oldest;
  int64_t oldest_anywhere = std::numeric_limits<int64_t>::max();
  auto note = [&](const DataFile& f, int64_t seq) {
    auto [it, inserted] = oldest.try_emplace({f.spec_id, f.partition}, seq);
    if (!inserted) it->second = std::min(it->second, seq);
    oldest_anywhere = std::min(oldest_anywhere, seq);
  };
  std::set<std::string> live;  // Data files left after the commit.
  for (const DataFile& f : added) {
    note(f, added_sequence_number);
    live.insert(f.file_path);
  }
  std::vector<ManifestEntry> delete_entries;
  for (const ManifestFile& mf : existing) {
    FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(mf));
    for (ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      if (mf.content == ManifestContent::kDeletes) {
        delete_entries.push_back(std::move(e));
      } else if (!deleted.contains(e.data_file.file_path)) {
        note(e.data_file, e.sequence_number.value_or(0));
        live.insert(e.data_file.file_path);
      }
    }
  }
  std::set<std::string> dangling;
  for (const ManifestEntry& e : delete_entries) {
    const DataFile& d = e.data_file;
    const int64_t seq = e.sequence_number.value_or(0);
    // Equality deletes apply to strictly older data, position deletes to data as old or older.
    const int64_t applies_below = d.content == FileContent::kEqualityDeletes ? seq : seq + 1;
    const PartitionSpec* spec = base.SpecById(d.spec_id);
    bool global = d.content == FileContent::kEqualityDeletes && spec && spec->is_unpartitioned();
    int64_t oldest_in_scope = oldest_anywhere;
    if (!global) {
      auto it = oldest.find({d.spec_id, d.partition});
      oldest_in_scope = it == oldest.end() ? std::numeric_limits<int64_t>::max() : it->second;
    }
    if (oldest_in_scope >= applies_below) {
      dangling.insert(d.file_path);
      continue;
    }
    // A position delete file names its data files: once none of them is left it applies to
    // nothing, whatever the sequence numbers say (a rewrite keeps its planned number, so the
    // new files look as old as the deletes). One scoped to a single file (a deletion vector,
    // whose Puffin file holds the vectors of other files too) goes with that file instead.
    if (d.content != FileContent::kPositionDeletes || d.referenced_data_file) continue;
    FLOE_ASSIGN_OR_RETURN(std::set<std::string> named, PositionDeletePaths(*this, d));
    if (std::none_of(named.begin(), named.end(), [&](const std::string& path) { return live.contains(path); })) {
      dangling.insert(d.file_path);
    }
  }
  return dangling;
}

namespace {

// The first data file added after `planned` that might hold rows matching `filter`, if any.
Result<std::optional<std::string>> FindConflictingData(Table& table, const TableMetadata& base,
                                                       const std::vector<ManifestFile>& manifests, int64_t planned,
                                                       const ExprPtr& filter) {
  FLOE_ASSIGN_OR_RETURN(ExprPtr bound, Bind(filter, base.CurrentSchema()));
  for (const ManifestFile& mf : manifests) {
    if (mf.content != ManifestContent::kData || mf.sequence_number <= planned || !mf.has_added_files()) continue;
    const PartitionSpec* spec = base.SpecById(mf.partition_spec_id);
    if (!spec) return Corruption("manifest {} uses unknown partition spec {}", mf.manifest_path, mf.partition_spec_id);
    ExprPtr projected = ProjectInclusive(bound, *spec, base.CurrentSchema());
    FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, spec->PartitionType(base.CurrentSchema()));
    if (!ManifestMightMatch(projected, mf, *partition_type)) continue;
    FLOE_ASSIGN_OR_RETURN(auto entries, table.ReadEntries(mf));
    for (const ManifestEntry& e : entries) {
      if (e.status != EntryStatus::kAdded || e.sequence_number.value_or(0) <= planned) continue;
      if (PartitionMatches(projected, e.data_file.partition, *partition_type) &&
          FileMightMatch(bound, e.data_file, base.CurrentSchema())) {
        return std::optional<std::string>(e.data_file.file_path);
      }
    }
  }
  return std::optional<std::string>();
}

Status ValidateRowDelta(Table& table, const TableMetadata& base, const std::vector<ManifestFile>& existing,
                        const RowDeltaValidation& validation) {
  const int64_t planned = validation.planned_sequence_number;
  std::set<std::string> missing = validation.referenced_data_files;
  for (const ManifestFile& mf : existing) {
    const bool data = mf.content == ManifestContent::kData;
    if (data ? missing.empty() : mf.sequence_number <= planned) continue;
    FLOE_ASSIGN_OR_RETURN(auto entries, table.ReadEntries(mf));
    for (const ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      const DataFile& d = e.data_file;
      if (data) {
        missing.erase(d.file_path);
        continue;
      }
      if (e.sequence_number.value_or(0) <= planned) continue;
      const bool elsewhere = d.content != FileContent::kEqualityDeletes && d.referenced_data_file &&
                             !validation.referenced_data_files.contains(*d.referenced_data_file);
      if (!elsewhere) {
        return Conflict("delete file {} was committed since this change was planned; plan it again", d.file_path);
      }
    }
  }
  if (!missing.empty()) {
    return Conflict("data file {} was removed since this change was planned; plan it again", *missing.begin());
  }
  if (validation.conflict_filter) {
    FLOE_ASSIGN_OR_RETURN(auto conflicting,
                          FindConflictingData(table, base, existing, planned, validation.conflict_filter));
    if (conflicting) {
      return Conflict(
          "a concurrent commit added {}, which may hold rows matching {} (serializable isolation; plan it "
          "again, or use snapshot isolation)",
          *conflicting, ToString(validation.conflict_filter));
    }
  }
  return OkStatus();
}

}  // namespace

Status Table::ReplaceFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added,
                           std::string_view operation, const OverwriteValidation* validation,
                           const RewriteOptions& rewrite) {
  if (deleted.empty() && added.empty() && !rewrite.drop_dangling_deletes) return OkStatus();
  int64_t snapshot_id = NewSnapshotId();
  std::optional<ManifestFile> added_manifest;
  int64_t added_records = 0, added_bytes = 0;
  if (!added.empty()) {
    std::vector<ManifestEntry> entries;
    for (const DataFile& f : added) {
      entries.push_back(
          ManifestEntry{EntryStatus::kAdded, std::nullopt, rewrite.data_sequence_number, std::nullopt, f});
      added_records += f.record_count;
      added_bytes += f.file_size_in_bytes;
    }
    FLOE_ASSIGN_OR_RETURN(added_manifest, WriteNewManifest(metadata(), snapshot_id, entries));
  }
  std::set<std::string> to_delete(deleted.begin(), deleted.end());
  Status st = CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>* written) -> Result<Updates> {
    std::vector<ManifestFile> manifests;
    if (added_manifest) manifests.push_back(*added_manifest);
    std::set<std::string> remaining = to_delete;
    int64_t deleted_records = 0, deleted_bytes = 0, deleted_files = 0;
    int64_t removed_delete_files = 0, removed_positions = 0, removed_equalities = 0, removed_delete_bytes = 0;
    const Snapshot* current = base.CurrentSnapshot();
    std::vector<ManifestFile> existing;
    if (current) {
      FLOE_ASSIGN_OR_RETURN(existing, Manifests(*current));
    }
    std::vector<DataFile> carried;  // Vectors committed since the plan, on files this rewrite removes.
    if (validation) {
      for (const ManifestFile& mf : existing) {
        if (validation->fail_on_new_deletes && mf.content == ManifestContent::kDeletes &&
            mf.sequence_number > validation->planned_sequence_number) {
          FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(mf));
          for (const ManifestEntry& e : entries) {
            // Deletes committed since the plan: a position delete or deletion vector naming a
            // file this change keeps does not touch the rows it moves (a busy v3 upsert job
            // adds vectors to its newest files while compaction rewrites older ones).
            if (e.status == EntryStatus::kDeleted || e.sequence_number.value_or(0) <= validation->planned_sequence_number) {
              continue;
            }
            const DataFile& d = e.data_file;
            const bool harmless = d.content == FileContent::kEqualityDeletes
                                      ? validation->allow_new_equality_deletes
                                      : d.referenced_data_file && !to_delete.contains(*d.referenced_data_file);
            if (!harmless && rewrite.carry_deletion_vectors && d.is_deletion_vector() && d.referenced_data_file &&
                to_delete.contains(*d.referenced_data_file)) {
              carried.push_back(d);
              continue;
            }
            if (!harmless) {
              return Conflict("cannot {}: delete files were committed since it was planned (snapshot {}); plan it again",
                              operation, mf.added_snapshot_id);
            }
          }
        }
      }
      if (validation->conflict_filter) {
        FLOE_ASSIGN_OR_RETURN(auto conflicting, FindConflictingData(*this, base, existing, validation->planned_sequence_number,
                                                                    validation->conflict_filter));
        if (conflicting) {
          return Conflict("cannot {}: a concurrent commit added {}, which may hold rows matching {} (serializable "
                          "isolation; plan it again, or set write.delete.isolation-level=snapshot)",
                          operation, *conflicting, ToString(validation->conflict_filter));
        }
      }
    }
    std::set<std::string> dangling;
    if (rewrite.drop_dangling_deletes) {
      const int64_t added_sequence_number = rewrite.data_sequence_number.value_or(base.last_sequence_number + 1);
      FLOE_ASSIGN_OR_RETURN(dangling, DanglingDeletes(base, existing, to_delete, added, added_sequence_number));
    }
    for (const ManifestFile& mf : existing) {
      if (remaining.empty() && mf.content == ManifestContent::kData) {
        manifests.push_back(mf);
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(mf));
      const bool data = mf.content == ManifestContent::kData;
      // A delete file goes with the data file it is scoped to, or when it applies to nothing
      // left (drop_dangling_deletes); other delete files stay.
      auto removed = [&](const ManifestEntry& e) {
        if (e.status == EntryStatus::kDeleted) return false;
        if (data) return remaining.contains(e.data_file.file_path);
        if (dangling.contains(e.data_file.file_path)) return true;
        return e.data_file.content == FileContent::kPositionDeletes && e.data_file.referenced_data_file &&
               to_delete.contains(*e.data_file.referenced_data_file);
      };
      if (!std::any_of(entries.begin(), entries.end(), removed)) {
        manifests.push_back(mf);
        continue;
      }
      // Rewrite this manifest: removed files become DELETED entries of this snapshot, the rest
      // stay as EXISTING with their numbers made explicit.
      std::vector<ManifestEntry> rewritten;
      for (ManifestEntry& e : entries) {
        if (e.status == EntryStatus::kDeleted) continue;
        if (removed(e)) {
          if (data) {
            remaining.erase(e.data_file.file_path);
            ++deleted_files;
            deleted_records += e.data_file.record_count;
            deleted_bytes += e.data_file.file_size_in_bytes;
          } else {
            ++removed_delete_files;
            (e.data_file.content == FileContent::kEqualityDeletes ? removed_equalities : removed_positions) +=
                e.data_file.record_count;
            removed_delete_bytes += e.data_file.file_size_in_bytes;
          }
          e.status = EntryStatus::kDeleted;
          e.snapshot_id = snapshot_id;
        } else {
          e.status = EntryStatus::kExisting;
        }
        rewritten.push_back(std::move(e));
      }
      const PartitionSpec* spec = base.SpecById(mf.partition_spec_id);
      ManifestWriteContext ctx{std::max(2, base.format_version), &base.CurrentSchema(), spec, mf.content, snapshot_id};
      FLOE_ASSIGN_OR_RETURN(WrittenManifest w, WriteManifest(ctx, rewritten));
      std::string location = ops_->NewLocation(fmt::format("metadata/{}-m1.avro", NewUuid()));
      FLOE_RETURN_IF_ERROR(WriteLocation(location, w.bytes));
      written->push_back(location);
      w.record.manifest_path = location;
      manifests.push_back(w.record);
    }
    if (!remaining.empty()) {
      // Validation: somebody else removed a file this change replaces.
      return Conflict("cannot {} {}: it is no longer in the table (a concurrent commit removed it)", operation,
                      *remaining.begin());
    }
    // The carried vectors go with their old files (above: scoped to a removed file); their
    // deletes come back as vectors of the new files, in this snapshot.
    int64_t carried_positions = 0;
    std::vector<DataFile> carried_vectors;
    if (!carried.empty()) {
      FLOE_ASSIGN_OR_RETURN(carried_vectors, rewrite.carry_deletion_vectors(carried));
      std::set<std::string> puffins;
      std::vector<ManifestEntry> entries;
      for (const DataFile& dv : carried_vectors) {
        if (puffins.insert(dv.file_path).second) written->push_back(dv.file_path);
        entries.push_back(ManifestEntry{EntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, dv});
        carried_positions += dv.record_count;
      }
      if (!entries.empty()) {
        FLOE_ASSIGN_OR_RETURN(ManifestFile m, WriteNewManifest(base, snapshot_id, entries, ManifestContent::kDeletes));
        written->push_back(m.manifest_path);
        manifests.push_back(std::move(m));
      }
    }
    std::map<std::string, std::string> delta;
    if (!added.empty()) {
      delta["added-data-files"] = std::to_string(added.size());
      delta["added-records"] = std::to_string(added_records);
      delta["added-files-size"] = std::to_string(added_bytes);
    }
    if (deleted_files > 0) {
      delta["deleted-data-files"] = std::to_string(deleted_files);
      delta["deleted-records"] = std::to_string(deleted_records);
    }
    if (removed_delete_files > 0) {
      delta["removed-delete-files"] = std::to_string(removed_delete_files);
      delta["removed-position-deletes"] = std::to_string(removed_positions);
      delta["removed-equality-deletes"] = std::to_string(removed_equalities);
    }
    if (deleted_bytes + removed_delete_bytes > 0) delta["removed-files-size"] = std::to_string(deleted_bytes + removed_delete_bytes);
    if (!carried_vectors.empty()) {
      delta["added-delete-files"] = std::to_string(carried_vectors.size());
      delta["added-dvs"] = std::to_string(carried_vectors.size());
      delta["added-position-deletes"] = std::to_string(carried_positions);
    }
    return AddSnapshot(base, snapshot_id, operation, std::move(manifests), delta, written);
  });
  if (!st && st.error().kind() == ErrorKind::kConflict && added_manifest) {
    if (auto key = ops_->KeyForLocation(added_manifest->manifest_path)) (void)ops_->store().Delete(*key);
  }
  return st;
}

Status Table::UpdateSchema(const std::vector<SchemaChange>& changes) {
  int32_t based_on = metadata().current_schema_id;
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    if (base.current_schema_id != based_on) {
      return Conflict("the schema changed concurrently (now schema {}); re-apply the change", base.current_schema_id);
    }
    int32_t last_column_id = base.last_column_id;
    FLOE_ASSIGN_OR_RETURN(Schema schema, ApplySchemaChanges(base, changes, &last_column_id));
    // Partition fields keep their names; their source columns must still exist.
    FLOE_RETURN_IF_ERROR(base.DefaultSpec().Validate(schema));
    // The builder reuses the id of an equal schema, else takes the next.
    return Updates{std::make_shared<const AddSchema>(SchemaToJsonValue(schema), last_column_id),
                                       std::make_shared<const SetCurrentSchema>(-1)};
  });
}

Status Table::UpdatePartitionSpec(const std::vector<PartitionField>& requested) {
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    // Fields equivalent to one of an earlier spec keep its field id; others get new ids.
    std::vector<PartitionField> fields = requested;
    int32_t last = base.last_partition_id;
    for (PartitionField& f : fields) {
      f.field_id = -1;
      for (const PartitionSpec& s : base.specs) {
        for (const PartitionField& old : s.fields()) {
          if (old.source_id == f.source_id && old.transform == f.transform) f.field_id = old.field_id;
        }
      }
      if (f.field_id < 0) f.field_id = ++last;
    }
    PartitionSpec candidate(0, fields);
    FLOE_RETURN_IF_ERROR(candidate.Validate(base.CurrentSchema()));
    // The builder reuses the id of an equal spec, else takes the next.
    return Updates{std::make_shared<const AddPartitionSpec>(PartitionSpecToJsonValue(candidate)),
                                       std::make_shared<const SetDefaultPartitionSpec>(-1)};
  });
}

Status Table::SetProperties(const std::map<std::string, std::string>& set, const std::vector<std::string>& remove) {
  // `format-version` is not a property but the table's version, as in Java's table properties:
  // setting it upgrades the table (format versions only go up; v3 starts row lineage).
  std::map<std::string, std::string> properties = set;
  std::optional<int64_t> format_version;
  if (auto it = properties.find("format-version"); it != properties.end()) {
    char* end = nullptr;
    format_version = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0') return InvalidArgument("format-version '{}' is not a number", it->second);
    properties.erase(it);
  }
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    Updates updates;
    if (format_version && *format_version < base.format_version) {
      return InvalidArgument("cannot downgrade {} from format version {} to {}", base.location, base.format_version,
                             *format_version);
    }
    if (format_version && *format_version > base.format_version) {
      updates.push_back(std::make_shared<const UpgradeFormatVersion>(*format_version));
    }
    if (!properties.empty()) updates.push_back(std::make_shared<const iceberg::SetProperties>(properties));
    if (!remove.empty()) updates.push_back(std::make_shared<const RemoveProperties>(remove));
    return updates;
  });
}

Status Table::SetStatistics(const nlohmann::json& statistics_file) {
  if (!statistics_file.is_object() || !statistics_file.contains("snapshot-id") || !statistics_file["snapshot-id"].is_number_integer()) {
    return InvalidArgument("a statistics file needs its snapshot-id");
  }
  const int64_t snapshot_id = statistics_file["snapshot-id"].get<int64_t>();
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    if (!base.SnapshotById(snapshot_id)) return NotFound("no snapshot {}", snapshot_id);
    // The builder replaces the entry of the same snapshot.
    return Updates{std::make_shared<const iceberg::SetStatistics>(statistics_file)};
  });
}

Status Table::Rollback(int64_t snapshot_id) {
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    if (!base.SnapshotById(snapshot_id)) return NotFound("no snapshot {}", snapshot_id);
    bool ancestor = false;
    for (const Snapshot* s = base.CurrentSnapshot(); s;
         s = s->parent_snapshot_id ? base.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      if (s->snapshot_id == snapshot_id) ancestor = true;
    }
    if (!ancestor) return InvalidArgument("snapshot {} is not an ancestor of the current snapshot", snapshot_id);
    RefRetention retention;
    if (auto it = base.refs.find(std::string(kMainBranch)); it != base.refs.end()) retention = RetentionOf(it->second);
    return Updates{
        std::make_shared<const SetSnapshotRef>(std::string(kMainBranch), snapshot_id, "branch", retention)};
  });
}

Status Table::SetRef(const std::string& name, const SnapshotRef& ref) {
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    if (!base.SnapshotById(ref.snapshot_id)) return NotFound("no snapshot {}", ref.snapshot_id);
    if (name == kMainBranch && !ref.is_branch) return InvalidArgument("main must be a branch");
    return Updates{
        std::make_shared<const SetSnapshotRef>(name, ref.snapshot_id, ref.is_branch ? "branch" : "tag",
                                               RetentionOf(ref))};
  });
}

Status Table::RemoveRef(const std::string& name) {
  if (name == kMainBranch) return InvalidArgument("the main branch cannot be removed");
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    if (!base.refs.contains(name)) return NotFound("no ref '{}'", name);
    return Updates{std::make_shared<const RemoveSnapshotRef>(name)};
  });
}

Status Table::RemoveSnapshots(const std::set<int64_t>& ids) {
  return CommitWithRetry([&](const TableMetadata& base, std::vector<std::string>*) -> Result<Updates> {
    for (const auto& [name, ref] : base.refs) {
      if (ids.contains(ref.snapshot_id)) return Conflict("ref '{}' points at snapshot {} being expired", name, ref.snapshot_id);
    }
    // The builder drops the snapshot log up to the last entry naming an expired snapshot, as
    // the spec's expiry does, and their statistics files. Children keep their parent ids:
    // readers treat a missing parent as the end of history.
    return Updates{
        std::make_shared<const iceberg::RemoveSnapshots>(std::vector<int64_t>(ids.begin(), ids.end()))};
  });
}

}  // namespace floe::iceberg
