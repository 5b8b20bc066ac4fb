// The stream job's loop against floe's broker (real Kafka protocol through librdkafka), with a
// committer that keeps its "table" in memory and enforces the compare-and-swap contract, so
// the loop's exactly-once logic is tested apart from Iceberg: restarts, two workers sharing a
// topic, and lost commit races never duplicate or lose a record.
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "base/logging.h"
#include "stream/stream_job.h"
#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::stream {
namespace {

using testing::ChildProcess;
using testing::FloeBinary;
using testing::RunProcess;

// A table of (partition, offset) rows with offsets in its "snapshot summary"; thread-safe.
class InMemoryTable {
 public:
  SourceOffsets offsets() {
    std::lock_guard lock(mutex_);
    return offsets_;
  }
  Result<CommitReport> Commit(const MicroBatch& batch, const SourceOffsets& expected, const SourceOffsets& next) {
    std::lock_guard lock(mutex_);
    for (const auto& [partition, end] : next) {
      auto current = offsets_.find(partition);
      auto wanted = expected.find(partition);
      bool same = (current == offsets_.end()) == (wanted == expected.end()) &&
                  (current == offsets_.end() || current->second == wanted->second);
      if (!same) return Conflict("offsets of partition {} moved", partition);
    }
    for (const SourceRecord& r : batch.records()) {
      if (!rows_.insert({r.partition, r.offset}).second) ++duplicates_;
    }
    offsets_ = MergeOffsets(offsets_, next);
    ++snapshots_;
    return CommitReport{.snapshot_id = snapshots_, .rows = batch.record_count()};
  }
  size_t rows() {
    std::lock_guard lock(mutex_);
    return rows_.size();
  }
  int duplicates() {
    std::lock_guard lock(mutex_);
    return duplicates_;
  }

 private:
  std::mutex mutex_;
  SourceOffsets offsets_;
  std::set<std::pair<int32_t, int64_t>> rows_;
  int duplicates_ = 0;
  int64_t snapshots_ = 0;
};

// Faults a committer can inject: lost races, a catalog that cannot be read (the Nth reads of
// the table's offsets fail, counting from 1), and commits that fail outright.
struct CommitterFaults {
  int conflicts = 0;
  std::set<int> failing_reads;
  int failing_commits = 0;
};

class InMemoryCommitter final : public BatchCommitter {
 public:
  explicit InMemoryCommitter(InMemoryTable& table, CommitterFaults faults = {}) : table_(table), faults_(faults) {}
  Result<SourceOffsets> CommittedOffsets() override {
    CallGuard guard(*this);
    if (faults_.failing_reads.contains(++reads_)) return Unavailable("injected: the catalog is down");
    return table_.offsets();
  }
  Result<CommitReport> Commit(const MicroBatch& batch, const SourceOffsets& expected,
                              const SourceOffsets& next) override {
    CallGuard guard(*this);
    // Long enough that the job's loop, collecting the next batch meanwhile, would call in if
    // nothing kept it out.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (faults_.conflicts > 0) {
      --faults_.conflicts;
      return Conflict("injected: another writer won the race");
    }
    if (faults_.failing_commits > 0) {
      --faults_.failing_commits;
      return Unavailable("injected: storage error");
    }
    return table_.Commit(batch, expected, next);
  }
  // Whether two calls ever ran at once (the committer contract says they must not).
  bool overlapped() const { return overlapped_.load(); }

 private:
  struct CallGuard {
    explicit CallGuard(InMemoryCommitter& c) : c(c) {
      if (c.calls_.fetch_add(1) != 0) c.overlapped_.store(true);
    }
    ~CallGuard() { c.calls_.fetch_sub(1); }
    InMemoryCommitter& c;
  };
  std::atomic<int> calls_{0};
  std::atomic<bool> overlapped_{false};
  InMemoryTable& table_;
  CommitterFaults faults_;
  int reads_ = 0;
};

class StreamJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    (void)InitLogging({.level = "warn"});
    int port = testing::FreeLoopbackPort();
    brokers_ = "127.0.0.1:" + std::to_string(port);
    broker_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{FloeBinary(), "broker", "--listen", brokers_, "--data", dir_.path() + "/broker",
                                 "--metrics-listen", ""},
        dir_.path() + "/broker.log");
    ASSERT_TRUE(testing::WaitForPort(port)) << broker_->ReadLog();
    auto created = RunProcess({FloeBinary(), "topic", "create", "events", "--partitions", "4", "--brokers", brokers_});
    ASSERT_EQ(created.exit_code, 0) << created.err;
  }

  void Produce(int count) {
    auto produced = RunProcess({FloeBinary(), "produce", "--brokers", brokers_, "--topic", "events", "--count",
                                std::to_string(count), "--rate", "0"});
    ASSERT_EQ(produced.exit_code, 0) << produced.err;
  }

  // Runs one worker until it has committed `max_batches` batches or found nothing new.
  void RunWorker(InMemoryTable& table, int64_t max_batches, CommitterFaults faults = {}) {
    InMemoryCommitter unserialized(table, faults);
    SerializedCommitter committer(unserialized);
    auto source = KafkaSource::Create({.brokers = brokers_, .topic = "events", .group = "test-job"},
                                      [&] { return committer.CommittedOffsets(); });
    ASSERT_TRUE(source.has_value()) << source.error().ToString();
    MetricsRegistry metrics;
    StreamJob job(**source, committer,
                  {.interval_millis = 300, .max_records = 700, .max_batches = max_batches, .available_now = true},
                  metrics);
    auto status = job.Run();
    ASSERT_TRUE(status.has_value()) << status.error().ToString();
    EXPECT_FALSE(unserialized.overlapped()) << "the committer was called from two threads at once";
  }

  testing::TempFolder dir_;
  std::string brokers_;
  std::unique_ptr<ChildProcess> broker_;
};

TEST_F(StreamJobTest, RestartsResumeFromTheTableWithoutDuplicates) {
  Produce(3000);
  InMemoryTable table;
  // Three short lives, each committing one batch and then "crashing" (its consumer position and
  // group offsets are thrown away with it), then one life that drains the rest.
  for (int life = 0; life < 3; ++life) RunWorker(table, 1);
  EXPECT_LT(table.rows(), 3000u);
  RunWorker(table, 0);
  EXPECT_EQ(table.rows(), 3000u);
  EXPECT_EQ(table.duplicates(), 0);
}

TEST_F(StreamJobTest, LostCommitRacesAreReReadNotLostOrDoubled) {
  Produce(2000);
  InMemoryTable table;
  RunWorker(table, 0, {.conflicts = 3});
  EXPECT_EQ(table.rows(), 2000u);
  EXPECT_EQ(table.duplicates(), 0);
}

// Found by the chaos test: when reading the table's offsets failed at commit time, the batch was
// dropped but the consumer read on from its end, and the next commit closed over the gap.
TEST_F(StreamJobTest, CatalogOutagesAndFailedCommitsAreReReadNotLost) {
  Produce(2000);
  InMemoryTable table;
  RunWorker(table, 0, {.failing_reads = {2, 3, 5}, .failing_commits = 2});
  EXPECT_EQ(table.rows(), 2000u);
  EXPECT_EQ(table.duplicates(), 0);
}

TEST_F(StreamJobTest, TwoWorkersSplitTheTopicExactlyOnce) {
  Produce(4000);
  InMemoryTable table;
  std::thread a([&] { RunWorker(table, 0); });
  std::thread b([&] { RunWorker(table, 0); });
  a.join();
  b.join();
  // A worker stops when idle; whatever one left behind after a rebalance, a last one drains.
  RunWorker(table, 0);
  EXPECT_EQ(table.rows(), 4000u);
  EXPECT_EQ(table.duplicates(), 0);
}

}  // namespace
}  // namespace floe::stream
