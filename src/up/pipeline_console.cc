#include "up/pipeline_console.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "base/clock.h"
#include "catalog/open_catalog.h"
#include "catalog/table_identifier.h"
#include "iceberg/scan.h"
#include "stream/table_setup.h"
#include "up/box_logs.h"
#include "up/pipeline.h"
#include "up/storage_faults.h"

namespace floe::up {
namespace {

constexpr int64_t kRateWindowMillis = 5'000;  // events/s in is the mean over the last 5 s.
constexpr size_t kCommitsShown = 20;

int64_t SummaryNumber(const nlohmann::json& summary, const char* key) {
  if (!summary.contains(key) || !summary[key].is_string()) return 0;
  const std::string& text = summary[key].get_ref<const std::string&>();
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// floe.offsets.<topic>: {"0": 123, ...}, the next offset per partition the table holds.
std::map<int32_t, int64_t> CommittedOffsets(const nlohmann::json& summary, const std::string& topic) {
  std::map<int32_t, int64_t> offsets;
  std::string key = "floe.offsets." + topic;
  if (!summary.contains(key) || !summary[key].is_string()) return offsets;
  auto parsed = nlohmann::json::parse(summary[key].get<std::string>(), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return offsets;
  for (const auto& [partition, offset] : parsed.items()) {
    int32_t p = 0;
    auto [end, error] = std::from_chars(partition.data(), partition.data() + partition.size(), p);
    if (error == std::errc() && offset.is_number_integer()) offsets[p] = offset.get<int64_t>();
  }
  return offsets;
}

// What the broker holds past `offsets` (a table's committed offsets) for `topic`, per partition
// and in all; `broker` is a sample's broker object.
struct Lag {
  int64_t total = 0;
  nlohmann::json by_partition = nlohmann::json::object();
  nlohmann::json committed = nlohmann::json::object();
};

Lag LagBehind(const nlohmann::json& broker, const std::string& topic_name, const std::map<int32_t, int64_t>& offsets) {
  Lag lag;
  for (const auto& topic : broker.value("topics", nlohmann::json::array())) {
    if (topic.value("name", "") != topic_name) continue;
    for (const auto& p : topic["partitions"]) {
      int32_t partition = p.value("partition", 0);
      auto it = offsets.find(partition);
      int64_t done = it == offsets.end() ? 0 : it->second;
      int64_t behind = std::max<int64_t>(0, p.value("end_offset", int64_t{0}) - done);
      lag.total += behind;
      lag.by_partition[std::to_string(partition)] = behind;
      lag.committed[std::to_string(partition)] = done;
    }
  }
  return lag;
}

// The event ids of each order's latest event in an event table. An order's events advance
// created -> paid -> shipped or cancelled, one event per step, so the latest is the one furthest
// along; it is also the last the upsert job applied, since the generator keys events by order
// (one partition per order) and produces idempotently (their order kept within a partition).
std::string LatestEventIdsSql(const std::string& event_table) {
  return fmt::format(
      "SELECT event_id FROM (SELECT event_id, row_number() OVER (PARTITION BY order_id ORDER BY CASE type "
      "WHEN 'created' THEN 0 WHEN 'paid' THEN 1 ELSE 2 END DESC) AS step FROM floe.{}) AS ranked WHERE step = 1",
      event_table);
}

nlohmann::json TypeText(const nlohmann::json& type) { return type.is_string() ? type : nlohmann::json(type.dump()); }

nlohmann::json CurrentSchemaFields(const nlohmann::json& metadata) {
  nlohmann::json fields = nlohmann::json::array();
  int64_t current = metadata.value("current-schema-id", 0);
  for (const auto& schema : metadata.value("schemas", nlohmann::json::array())) {
    if (schema.value("schema-id", 0) != current) continue;
    for (const auto& field : schema.value("fields", nlohmann::json::array())) {
      fields.push_back({{"id", field.value("id", 0)}, {"name", field.value("name", "")},
                        {"type", TypeText(field.value("type", nlohmann::json()))},
                        {"required", field.value("required", false)}});
    }
  }
  return fields;
}

nlohmann::json DefaultPartitionFields(const nlohmann::json& metadata) {
  int64_t current = metadata.value("default-spec-id", 0);
  for (const auto& spec : metadata.value("partition-specs", nlohmann::json::array())) {
    if (spec.value("spec-id", 0) == current) return spec.value("fields", nlohmann::json::array());
  }
  return nlohmann::json::array();
}

}  // namespace

PipelineConsole::PipelineConsole(Pipeline& pipeline, ConsoleSources sources)
    : pipeline_(pipeline),
      sources_(std::move(sources)),
      probe_(sources_.brokers),
      freshness_([this] { return pipeline_.SendMarker(); },
                 [this](std::string_view event_id, std::string_view freshness) -> Result<int64_t> {
                   RowCounter counter;
                   {
                     std::lock_guard lock(mutex_);
                     counter = row_counter_;
                   }
                   if (!counter) return Unavailable("no query engine runs in this process");
                   return counter(sources_.table, fmt::format("event_id = '{}'", event_id), freshness);
                 },
                 {}) {
  snapshot_ = nlohmann::json::object();
  last_dlq_ = {{"rows", 0}};
}

PipelineConsole::~PipelineConsole() { Stop(); }

void PipelineConsole::Start() {
  {
    std::lock_guard lock(wake_mutex_);
    stopping_ = false;
  }
  sampler_ = std::thread([this] {
    std::unique_lock lock(wake_mutex_);
    while (!stopping_) {
      lock.unlock();
      SampleNow();
      lock.lock();
      wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_ || poked_; });
      poked_ = false;
    }
  });
}

void PipelineConsole::Stop() {
  freshness_.Stop();
  {
    std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (sampler_.joinable()) sampler_.join();
}

void PipelineConsole::SetRowCounter(RowCounter counter) {
  std::lock_guard lock(mutex_);
  row_counter_ = std::move(counter);
}

Result<catalog::Catalog*> PipelineConsole::OpenCatalog() const {
  if (!catalog_) {
    FLOE_ASSIGN_OR_RETURN(catalog_, catalog::OpenCatalog({.uri = sources_.catalog, .warehouse = sources_.warehouse}));
  }
  return catalog_.get();
}

Result<PipelineConsole::TableNumbers> PipelineConsole::LoadTableNumbers(const std::string& table, size_t max_commits,
                                                                        std::string_view topic) const {
  FLOE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, catalog::IdentifierFromString(table));
  catalog::LoadedTable loaded;
  {
    std::lock_guard lock(catalog_mutex_);
    FLOE_ASSIGN_OR_RETURN(catalog::Catalog * catalog, OpenCatalog());
    FLOE_ASSIGN_OR_RETURN(loaded, catalog->LoadTable(id));
  }
  const nlohmann::json& m = loaded.metadata;
  TableNumbers numbers;
  numbers.loaded = true;
  nlohmann::json current_summary = nlohmann::json::object();
  nlohmann::json current_id = m.value("current-snapshot-id", nlohmann::json());
  if (current_id.is_number() && current_id.get<int64_t>() < 0) current_id = nullptr;  // v1: -1 = none
  nlohmann::json current_snapshot;
  std::vector<nlohmann::json> snapshots;
  for (const auto& snapshot : m.value("snapshots", nlohmann::json::array())) {
    snapshots.push_back(snapshot);
    if (!current_id.is_null() && snapshot.value("snapshot-id", int64_t{0}) == current_id.get<int64_t>()) {
      current_snapshot = snapshot;
      current_summary = snapshot.value("summary", nlohmann::json::object());
    }
  }
  std::sort(snapshots.begin(), snapshots.end(), [](const auto& a, const auto& b) {
    return a.value("timestamp-ms", int64_t{0}) > b.value("timestamp-ms", int64_t{0});
  });
  nlohmann::json commits = nlohmann::json::array();
  for (size_t i = 0; i < snapshots.size() && i < max_commits; ++i) {
    const nlohmann::json summary = snapshots[i].value("summary", nlohmann::json::object());
    commits.push_back({{"snapshot_id", snapshots[i].value("snapshot-id", int64_t{0})},
                       {"timestamp_ms", snapshots[i].value("timestamp-ms", int64_t{0})},
                       {"operation", summary.value("operation", "")},
                       {"added_records", SummaryNumber(summary, "added-records")},
                       {"added_files", SummaryNumber(summary, "added-data-files")},
                       {"added_bytes", SummaryNumber(summary, "added-files-size")},
                       {"total_records", SummaryNumber(summary, "total-records")}});
  }
  numbers.rows = SummaryNumber(current_summary, "total-records");
  numbers.offsets = CommittedOffsets(current_summary, topic.empty() ? sources_.topic : std::string(topic));
  int64_t files = SummaryNumber(current_summary, "total-data-files");
  int64_t bytes = SummaryNumber(current_summary, "total-files-size");
  numbers.json = {
      {"name", table},
      {"up", true},
      {"location", m.value("location", "")},
      {"format_version", m.value("format-version", 0)},
      {"metadata_location", loaded.metadata_location},
      {"snapshot_id", current_id},
      {"last_commit_ms", current_snapshot.is_object() ? current_snapshot.value("timestamp-ms", nlohmann::json())
                                                      : nlohmann::json()},
      {"snapshots", snapshots.size()},
      {"rows", numbers.rows},
      {"files", files},
      {"bytes", bytes},
      {"mean_file_bytes", files > 0 ? static_cast<double>(bytes) / static_cast<double>(files) : 0.0},
      {"delete_files", SummaryNumber(current_summary, "total-delete-files")},
      {"schema", CurrentSchemaFields(m)},
      {"partition_fields", DefaultPartitionFields(m)},
      {"commits", commits},
  };
  return numbers;
}

nlohmann::json PipelineConsole::StorageNumbers() const {
  nlohmann::json storage = {{"warehouse", sources_.warehouse}, {"faults", pipeline_.storage_faults().ToJson()}};
  if (!sources_.warehouse.starts_with("file://")) return storage;
  // Local warehouse: walk it. Data files and metadata are told apart by the Iceberg layout.
  uint64_t data_bytes = 0, metadata_bytes = 0, data_objects = 0, metadata_objects = 0;
  std::error_code error;
  std::filesystem::recursive_directory_iterator it(sources_.warehouse.substr(7), error), end;
  for (; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    uint64_t size = it->file_size(error);
    if (error) break;
    bool metadata = it->path().parent_path().filename() == "metadata";
    (metadata ? metadata_bytes : data_bytes) += size;
    (metadata ? metadata_objects : data_objects) += 1;
  }
  storage["bytes"] = data_bytes + metadata_bytes;
  storage["objects"] = data_objects + metadata_objects;
  storage["data_bytes"] = data_bytes;
  storage["data_objects"] = data_objects;
  storage["metadata_bytes"] = metadata_bytes;
  storage["metadata_objects"] = metadata_objects;
  return storage;
}

Result<nlohmann::json> PipelineConsole::MeasureScanPlanning() {
  FLOE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, catalog::IdentifierFromString(sources_.table));
  if (!planning_catalog_) {
    FLOE_ASSIGN_OR_RETURN(auto opened,
                          catalog::OpenCatalog({.uri = sources_.catalog, .warehouse = sources_.warehouse}));
    planning_catalog_ = std::move(opened);
  }
  FLOE_ASSIGN_OR_RETURN(auto table, stream::LoadTable(planning_catalog_, id));
  int64_t start = Clock::System().MonotonicNanos();
  FLOE_ASSIGN_OR_RETURN(iceberg::ScanPlan plan, iceberg::PlanScan(*table, {}));
  double millis = static_cast<double>(Clock::System().MonotonicNanos() - start) / 1e6;
  return nlohmann::json{
      {"planning_ms", millis}, {"manifests", plan.manifests_total}, {"planned_files", plan.tasks.size()}};
}

void PipelineConsole::SampleNow() {
  std::lock_guard sample_lock(sampler_mutex_);
  int64_t now = Clock::System().NowMillis();

  // The broker, over the Kafka protocol.
  auto topics = probe_.Topics();
  if (topics) {
    nlohmann::json list = nlohmann::json::array();
    int64_t source_end = -1;
    for (const TopicOffsets& topic : *topics) {
      nlohmann::json partitions = nlohmann::json::array();
      for (const auto& p : topic.partitions) {
        partitions.push_back({{"partition", p.partition}, {"start_offset", p.start_offset},
                              {"end_offset", p.end_offset}});
      }
      list.push_back({{"name", topic.name}, {"partitions", partitions}, {"end_offset", topic.end_offset_sum()}});
      if (topic.name == sources_.topic) source_end = topic.end_offset_sum();
    }
    if (source_end >= 0) end_offset_history_.emplace_back(now, source_end);
    while (!end_offset_history_.empty() && end_offset_history_.front().first < now - kRateWindowMillis) {
      end_offset_history_.pop_front();
    }
    double rate = 0;
    if (end_offset_history_.size() >= 2) {
      auto [t0, o0] = end_offset_history_.front();
      auto [t1, o1] = end_offset_history_.back();
      if (t1 > t0) rate = static_cast<double>(o1 - o0) * 1000.0 / static_cast<double>(t1 - t0);
    }
    last_broker_ = {{"up", true}, {"bootstrap", sources_.brokers}, {"topics", list},
                    {"events_per_second", rate}, {"error", nullptr}};
  } else {
    end_offset_history_.clear();
    if (!last_broker_.is_object()) last_broker_ = {{"bootstrap", sources_.brokers}, {"topics", nlohmann::json::array()}};
    last_broker_["up"] = false;
    last_broker_["events_per_second"] = 0;
    last_broker_["error"] = topics.error().message();
  }

  if (topics) SampleGroup(now);

  // The table and its dead letters, through the catalog.
  if (auto table = LoadTableNumbers(sources_.table, kCommitsShown)) {
    last_table_ = std::move(table->json);
    last_offsets_ = std::move(table->offsets);
  } else {
    if (!last_table_.is_object()) last_table_ = {{"name", sources_.table}, {"rows", 0}, {"files", 0}};
    last_table_["up"] = false;
    last_table_["error"] = table.error().message();
  }
  if (auto dlq = LoadTableNumbers(sources_.table + "_dlq", 0)) last_dlq_ = {{"rows", dlq->rows}};
  // Planning a scan: what a dashboard's query pays before reading any row.
  if (last_table_.value("up", false)) {
    if (auto planning = MeasureScanPlanning()) {
      last_table_["scan"] = std::move(*planning);
    } else {
      last_table_["scan"] = {{"error", planning.error().message()}};
    }
  }

  // Each linked topic's table, its lag and its job's settings (kept while the catalog is down).
  nlohmann::json linked_now = nlohmann::json::array();
  for (size_t i = 0; i < sources_.linked_tables.size(); ++i) {
    const TopicTable& linked = sources_.linked_tables[i];
    nlohmann::json entry = i < last_linked_.size() ? last_linked_[i] : nlohmann::json{{"rows", 0}, {"files", 0}};
    if (auto numbers = LoadTableNumbers(linked.table, 0, linked.topic)) {
      entry = std::move(numbers->json);
      entry["consumer_lag"] = LagBehind(last_broker_, linked.topic, numbers->offsets).total;
    } else {
      entry["up"] = false;
      entry["error"] = numbers.error().message();
    }
    entry["job"] = linked.job;
    entry["topic"] = linked.topic;
    entry["table"] = linked.table;
    entry["settings"] = StreamSettingsJson(pipeline_.stream_settings(linked.job));
    linked_now.push_back(std::move(entry));
  }
  last_linked_ = std::move(linked_now);

  // Lag: what the broker holds past the offsets the table's current snapshot committed.
  Lag lag = LagBehind(last_broker_, sources_.topic, last_offsets_);
  nlohmann::json stream = pipeline_.StreamCounters();
  stream["topic"] = sources_.topic;
  stream["table"] = sources_.table;
  stream["consumer_lag"] = lag.total;
  stream["lag_by_partition"] = std::move(lag.by_partition);
  stream["committed_offsets"] = std::move(lag.committed);
  stream["last_commit_ms"] = last_table_.value("last_commit_ms", nlohmann::json());
  stream["last_snapshot_id"] = last_table_.value("snapshot_id", nlohmann::json());
  stream["commits"] = last_table_.value("commits", nlohmann::json::array());
  stream["dead_letter_rows"] = last_dlq_.value("rows", 0);
  stream["settings"] = StreamSettingsJson(pipeline_.stream_settings());
  stream["group"] = last_group_;

  nlohmann::json table = last_table_;
  table.erase("commits");
  table["dead_letter_table"] = sources_.table + "_dlq";
  table["dead_letter_rows"] = last_dlq_.value("rows", 0);

  nlohmann::json roles = nlohmann::json::array();
  for (const RoleState& role : pipeline_.RoleStates()) {
    roles.push_back({{"name", role.name}, {"state", role.state}, {"describe", role.describe},
                     {"can_take_down", role.can_take_down}, {"restarts", role.restarts}});
  }
  nlohmann::json snapshot = {
      {"time_ms", now},
      {"processes", pipeline_.options().processes},
      {"roles", roles},
      {"broker", last_broker_},
      {"stream", stream},
      {"table", table},
      {"generator", pipeline_.GeneratorNumbers()},
      {"storage", StorageNumbers()},
      {"endpoints", pipeline_.Endpoints()},
      {"catalog_store", pipeline_.CatalogStore()},
      {"linked", last_linked_},
  };
  std::lock_guard lock(mutex_);
  snapshot_ = std::move(snapshot);
}

void PipelineConsole::SampleGroup(int64_t now) {
  auto group = probe_.DescribeGroup(sources_.group);
  if (!group) {
    if (!last_group_.is_object()) last_group_ = {{"name", sources_.group}, {"members", nlohmann::json::array()}};
    last_group_["error"] = group.error().message();
    return;
  }
  nlohmann::json members = nlohmann::json::array();
  std::string assignment;  // Who holds which partition: a change is a rebalance.
  for (const GroupMember& member : group->members) {
    nlohmann::json partitions = nlohmann::json::array();
    for (const auto& [topic, partition] : member.partitions) {
      if (topic != sources_.topic) continue;
      partitions.push_back(partition);
      assignment += fmt::format("{}={};", member.member_id, partition);
    }
    members.push_back({{"client_id", member.client_id},
                       {"member_id", member.member_id},
                       {"host", member.host},
                       {"partitions", std::move(partitions)}});
  }
  // Only settled assignments count: a group mid-rebalance has members without partitions yet.
  if (group->state == "Stable" && assignment != last_assignment_) {
    if (!last_assignment_.empty()) {
      ++rebalances_;
      last_rebalance_ms_ = now;
    }
    last_assignment_ = assignment;
  }
  last_group_ = {{"name", sources_.group},
                 {"state", group->state},
                 {"members", std::move(members)},
                 {"rebalances", rebalances_},
                 {"last_rebalance_ms", last_rebalance_ms_ == 0 ? nlohmann::json() : nlohmann::json(last_rebalance_ms_)},
                 {"error", nullptr}};
}

nlohmann::json PipelineConsole::Snapshot() const {
  nlohmann::json freshness = freshness_.ToJson();
  std::lock_guard lock(mutex_);
  nlohmann::json snapshot = snapshot_;
  snapshot["freshness"] = std::move(freshness);
  return snapshot;
}

Result<nlohmann::json> PipelineConsole::ProbeFreshness() {
  FLOE_ASSIGN_OR_RETURN(std::string event_id, freshness_.Start());
  return nlohmann::json{{"event_id", event_id}};
}

nlohmann::json PipelineConsole::Reconciliation() const {
  nlohmann::json generator = pipeline_.GeneratorNumbers();
  nlohmann::json out = {
      {"time_ms", Clock::System().NowMillis()},
      {"table", sources_.table},
      {"produced", generator.value("sent", 0)},
      {"acknowledged", generator.value("acknowledged", 0)},
      {"acknowledged_valid", generator.value("acknowledged_valid", 0)},
      {"acknowledged_malformed", generator.value("acknowledged_malformed", 0)},
      {"failed", generator.value("failed", 0)},
      {"committed", nullptr},
      {"dead_lettered", nullptr},
      {"queryable", nullptr},
      {"errors", nlohmann::json::array()},
  };
  nlohmann::json events_snapshot;  // The event table's current snapshot id, for the state check.
  if (auto table = LoadTableNumbers(sources_.table, 0)) {
    out["committed"] = table->rows;
    events_snapshot = table->json.value("snapshot_id", nlohmann::json());
  } else {
    out["errors"].push_back("committed: " + table.error().message());
  }
  if (auto dlq = LoadTableNumbers(sources_.table + "_dlq", 0)) {
    out["dead_lettered"] = dlq->rows;
  } else {
    out["errors"].push_back("dead letters: " + dlq.error().message());
  }
  RowCounter counter;
  nlohmann::json stream;
  nlohmann::json broker;
  {
    std::lock_guard lock(mutex_);
    counter = row_counter_;
    stream = snapshot_.value("stream", nlohmann::json::object());
    broker = snapshot_.value("broker", nlohmann::json::object());
  }
  out["consumer_lag"] = stream.value("consumer_lag", nlohmann::json());
  if (counter) {
    if (auto rows = counter(sources_.table, "", "")) {
      out["queryable"] = *rows;
    } else {
      out["errors"].push_back("queryable: " + rows.error().message());
    }
  }
  // Equal: every acknowledged valid event is in the table exactly once (by count), every
  // malformed one in the dead letters, the query engine sees what the table holds, and the
  // order-state table holds each order's latest event.
  bool equal = out["committed"] == out["acknowledged_valid"] && out["dead_lettered"] == out["acknowledged_malformed"] &&
               (out["queryable"].is_null() || out["queryable"] == out["committed"]);
  if (!sources_.state_table.empty() && counter) {
    out["state"] = StateReconciliation(counter, broker, events_snapshot);
    for (const auto& error : out["state"]["errors"]) out["errors"].push_back("state: " + error.get<std::string>());
    equal = equal && out["state"]["equal"] == true;
  }
  out["topics"] = nlohmann::json::array();
  nlohmann::json linked_ledgers = generator.value("topics", nlohmann::json::object());
  for (const TopicTable& linked : sources_.linked_tables) {
    nlohmann::json topic =
        LinkedReconciliation(linked, linked_ledgers.value(linked.topic, nlohmann::json::object()), counter, broker);
    for (const auto& error : topic["errors"]) {
      out["errors"].push_back(fmt::format("{}: {}", linked.topic, error.get<std::string>()));
    }
    equal = equal && topic["equal"] == true;
    out["topics"].push_back(std::move(topic));
  }
  out["equal"] = equal;
  return out;
}

nlohmann::json PipelineConsole::LinkedReconciliation(const TopicTable& linked, const nlohmann::json& acknowledged,
                                                     const RowCounter& counter, const nlohmann::json& broker) const {
  nlohmann::json out = {{"topic", linked.topic},
                        {"table", linked.table},
                        {"acknowledged", acknowledged.value("acknowledged", 0)},
                        {"acknowledged_valid", acknowledged.value("acknowledged_valid", 0)},
                        {"acknowledged_malformed", acknowledged.value("acknowledged_malformed", 0)},
                        {"failed", acknowledged.value("failed", 0)},
                        {"committed", nullptr},
                        {"dead_lettered", nullptr},
                        {"queryable", nullptr},
                        {"consumer_lag", nullptr},
                        {"errors", nlohmann::json::array()}};
  if (auto table = LoadTableNumbers(linked.table, 0, linked.topic)) {
    out["committed"] = table->rows;
    out["consumer_lag"] = LagBehind(broker, linked.topic, table->offsets).total;
  } else {
    out["errors"].push_back("committed: " + table.error().message());
  }
  if (auto dlq = LoadTableNumbers(linked.table + "_dlq", 0, linked.topic)) {
    out["dead_lettered"] = dlq->rows;
  } else {
    out["errors"].push_back("dead letters: " + dlq.error().message());
  }
  if (counter) {
    if (auto rows = counter(linked.table, "", "")) {
      out["queryable"] = *rows;
    } else {
      out["errors"].push_back("queryable: " + rows.error().message());
    }
  }
  // As for the orders: every acknowledged event committed once, none lost to the dead letters
  // that was not sent malformed, and the query engine counting what the table holds.
  out["equal"] = out["errors"].empty() && out["committed"] == out["acknowledged_valid"] &&
                 out["dead_lettered"] == out["acknowledged_malformed"] &&
                 (out["queryable"].is_null() || out["queryable"] == out["committed"]);
  return out;
}

nlohmann::json PipelineConsole::StateReconciliation(const RowCounter& counter, const nlohmann::json& broker,
                                                    const nlohmann::json& events_snapshot) const {
  nlohmann::json out = {{"table", sources_.state_table},
                        {"rows", nullptr},
                        {"orders", nullptr},
                        {"stale", nullptr},
                        {"consumer_lag", nullptr},
                        {"equal", false},
                        {"errors", nlohmann::json::array()}};
  // The counts below read both tables in full; they change only with a table's snapshot, so
  // they are counted again only when one of the two moved (the playground asks every 2 s).
  std::string snapshots;
  if (auto table = LoadTableNumbers(sources_.state_table, 0)) {
    out["consumer_lag"] = LagBehind(broker, sources_.topic, table->offsets).total;
    nlohmann::json state_snapshot = table->json.value("snapshot_id", nlohmann::json());
    if (events_snapshot.is_number() && state_snapshot.is_number()) {
      snapshots = fmt::format("{}/{}", events_snapshot.dump(), state_snapshot.dump());
    }
  } else {
    out["errors"].push_back("lag: " + table.error().message());
  }
  bool cached = false;
  if (!snapshots.empty()) {
    std::lock_guard lock(state_counts_mutex_);
    cached = snapshots == state_counts_snapshots_;
    if (cached) {
      for (const char* name : {"rows", "orders", "stale"}) out[name] = state_counts_[name];
    }
  }
  if (!cached) {
    // Committed data on both sides (snapshot reads): the two jobs commit at their own times, and
    // what is reconciled is what each has committed once both have caught up.
    std::string latest = LatestEventIdsSql(sources_.table);
    auto count = [&](const char* name, const std::string& table, const std::string& where) {
      if (auto rows = counter(table, where, "snapshot")) {
        out[name] = *rows;
      } else {
        out["errors"].push_back(fmt::format("{}: {}", name, rows.error().message()));
      }
    };
    count("rows", sources_.state_table, "");
    // Orders: one latest event each. Stale: rows that are not their order's latest event (an
    // earlier step, or an event the event table does not hold).
    count("orders", sources_.table, fmt::format("event_id IN ({})", latest));
    count("stale", sources_.state_table, fmt::format("event_id NOT IN ({})", latest));
    if (out["errors"].empty() && !snapshots.empty()) {
      std::lock_guard lock(state_counts_mutex_);
      state_counts_snapshots_ = snapshots;
      state_counts_ = {{"rows", out["rows"]}, {"orders", out["orders"]}, {"stale", out["stale"]}};
    }
  }
  // Event ids are unique, so no stale row and as many rows as orders means each order's latest
  // event is there exactly once.
  out["equal"] = out["errors"].empty() && out["consumer_lag"] == 0 && out["stale"] == 0 && out["rows"] == out["orders"];
  return out;
}

Status PipelineConsole::SetTraffic(double events_per_second) { return pipeline_.SetTraffic(events_per_second); }

Status PipelineConsole::Burst(int64_t events) { return pipeline_.Burst(events); }

Status PipelineConsole::TakeDown(std::string_view role) {
  FLOE_RETURN_IF_ERROR(pipeline_.TakeDown(role));
  Poke();
  return OkStatus();
}

Status PipelineConsole::BringUp(std::string_view role) {
  FLOE_RETURN_IF_ERROR(pipeline_.BringUp(role));
  Poke();
  return OkStatus();
}

void PipelineConsole::Poke() {
  {
    std::lock_guard lock(wake_mutex_);
    poked_ = true;
  }
  wake_.notify_all();
}

Status PipelineConsole::RewireStream(const nlohmann::json& settings) {
  FLOE_RETURN_IF_ERROR(pipeline_.RewireStream(settings));
  Poke();
  return OkStatus();
}

Result<nlohmann::json> PipelineConsole::SwitchCatalogBackend(std::string_view backend) {
  auto switched = pipeline_.SwitchCatalogBackend(backend);
  Poke();
  return switched;
}

Result<nlohmann::json> PipelineConsole::Logs(std::string_view box, size_t max) const {
  FLOE_ASSIGN_OR_RETURN(BoxLogSources sources, LogSourcesFor(box));
  const UpOptions& options = pipeline_.options();
  return BoxLogLines(box, sources, options.processes, options.data + "/logs", max);
}

Status PipelineConsole::SetStorageFaults(const nlohmann::json& faults) {
  FLOE_ASSIGN_OR_RETURN(StorageFaultPlan plan, StorageFaultPlanFromJson(faults));
  pipeline_.storage_faults().Set(plan);
  return OkStatus();
}

}  // namespace floe::up
