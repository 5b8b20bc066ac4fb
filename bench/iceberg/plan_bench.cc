// Scan planning over a table of 10,000 data files in 1,000 manifests (one day partition per
// manifest): a selective partition filter must read only the matching manifest and plan in
// under 50 ms. Also times the unfiltered plan (every manifest read) for scale.
//
// Usage: iceberg_plan_bench FOLDER   (builds the table at FOLDER/wh/bench/events; run by
// bench/iceberg.bench.sh, which then times icebird reading the same table's manifests)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "iceberg/filesystem_catalog.h"
#include "iceberg/scan.h"

using namespace floe::iceberg;

namespace {

constexpr int kManifests = 1000;
constexpr int kFilesPerManifest = 10;
constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;

double MedianMs(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int Fail(const floe::Error& e) {
  fmt::print(stderr, "iceberg_plan_bench: {}\n", e.ToString());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: iceberg_plan_bench FOLDER\n");
    return 2;
  }
  std::string folder = std::filesystem::absolute(argv[1]).string();
  std::filesystem::remove_all(folder + "/wh");
  auto catalog = FileSystemCatalog::Open(folder + "/wh");
  if (!catalog) return Fail(catalog.error());
  Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                    NestedField{2, "ts", true, Type::Primitive(TypeId::kTimestampTz)},
                    NestedField{3, "kind", false, Type::Primitive(TypeId::kString)}});
  auto table = (*catalog)->CreateTable(*TableIdentifier::Parse("bench.events"), schema,
                                       {PartitionField{2, 1000, "ts_day", Transform::Day()}});
  if (!table) return Fail(table.error());
  Table& t = **table;

  auto setup_start = std::chrono::steady_clock::now();
  std::vector<ManifestFile> manifests;
  auto L = Type::Primitive(TypeId::kLong);
  for (int m = 0; m < kManifests; ++m) {
    std::vector<ManifestEntry> entries;
    for (int f = 0; f < kFilesPerManifest; ++f) {
      DataFile d;
      d.file_path = t.ops().NewLocation(fmt::format("data/ts_day={}/f{}.parquet", m, f));
      d.partition = {Literal::Int(19000 + m)};
      d.record_count = 1000;
      d.file_size_in_bytes = 1 << 20;
      int64_t lo = (int64_t{m} * kFilesPerManifest + f) * 1000;
      d.value_counts = {{1, 1000}, {2, 1000}};
      d.null_value_counts = {{1, 0}, {2, 0}};
      d.lower_bounds = {{1, ToBinary(*L, Literal::Long(lo))}};
      d.upper_bounds = {{1, ToBinary(*L, Literal::Long(lo + 999))}};
      entries.push_back(ManifestEntry{EntryStatus::kAdded, {}, {}, {}, d});
    }
    ManifestWriteContext ctx{2, &t.metadata().CurrentSchema(), &t.metadata().DefaultSpec(), ManifestContent::kData, 0};
    auto written = WriteManifest(ctx, entries);
    if (!written) return Fail(written.error());
    std::string location = t.ops().NewLocation(fmt::format("metadata/bench-m{}.avro", m));
    if (auto st = t.WriteLocation(location, written->bytes); !st) return Fail(st.error());
    written->record.manifest_path = location;
    manifests.push_back(written->record);
  }
  if (auto st = t.AppendManifests(manifests); !st) return Fail(st.error());
  double setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  fmt::print("table: {} manifests, {} data files ({:.1f} s to write)\n", kManifests, kManifests * kFilesPerManifest,
             setup_s);

  // Reload as a reader would, then plan.
  auto reader = (*catalog)->LoadTable(*TableIdentifier::Parse("bench.events"));
  if (!reader) return Fail(reader.error());
  auto plan_ms = [&](const std::string& filter, ScanPlan* last) -> double {
    std::vector<double> times;
    for (int round = 0; round < 15; ++round) {
      ScanOptions o;
      o.filter = *ParseFilter(filter);
      auto start = std::chrono::steady_clock::now();
      auto plan = PlanScan(**reader, o);
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (!plan) {
        fmt::print(stderr, "plan failed: {}\n", plan.error().ToString());
        std::exit(1);
      }
      *last = std::move(*plan);
    }
    return MedianMs(times);
  };
  int64_t day = 19000 + 500;
  std::string selective = fmt::format("ts >= {} and ts < {}", day * kMicrosPerDay, (day + 1) * kMicrosPerDay);
  ScanPlan sel, all;
  double sel_ms = plan_ms(selective, &sel);
  double all_ms = plan_ms("", &all);
  fmt::print("floe selective plan (1 day): {:.2f} ms median, read {}/{} manifests, {} tasks  [target < 50 ms: {}]\n",
             sel_ms, sel.manifests_read, sel.manifests_total, sel.tasks.size(), sel_ms < 50 ? "met" : "MISSED");
  fmt::print("floe full plan (no filter):  {:.2f} ms median, read {}/{} manifests, {} tasks\n", all_ms,
             all.manifests_read, all.manifests_total, all.tasks.size());
  fmt::print("FLOE_SELECTIVE_MS={:.3f}\nFLOE_FULL_MS={:.3f}\n", sel_ms, all_ms);
  return sel.manifests_read == 1 && sel.tasks.size() == kFilesPerManifest ? 0 : 1;
}
