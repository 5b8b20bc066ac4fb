// Log compaction of one partition: the last record per key stays at its offset, tombstones go
// after delete.retention.ms, aborted transactions' records go and markers stay, the active
// segment is never touched, bad segments fail the pass without changing anything, and a crash
// at any step leaves a partition that opens (leftover `.cleaned` files deleted, swaps finished).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "base/bytes.h"
#include "base/clock.h"
#include "base/crc32c.h"
#include "broker/log/partition_log.h"
#include "broker/protocol/batch_records.h"
#include "broker/protocol/control_batch.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker {
namespace {

using testing::BatchSpec;
using testing::BuildBatch;
using testing::TestRecord;

// A record as a consumer from the beginning sees it.
struct Seen {
  int64_t offset;
  std::string key;
  std::optional<std::string> value;
};

class LogCleanerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-cleaner-test-{}-{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    config_.compact = true;
    config_.delete_old_segments = false;
    config_.segment_bytes = 2048;
    config_.index_interval_bytes = 256;
    config_.min_cleanable_dirty_ratio = 0;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<PartitionLog> Open() {
    auto log = PartitionLog::Open(dir_.string(), config_, clock_, nullptr);
    EXPECT_TRUE(log.has_value()) << log.error().ToString();
    return log ? *log : nullptr;
  }
  int64_t Append(PartitionLog& log, const BatchSpec& spec) {
    std::string batch = BuildBatch(spec);
    auto split = SplitBatches(batch, 1 << 20);
    EXPECT_TRUE(split.has_value()) << split.error().ToString();
    auto result = log.Append(batch.data(), *split);
    EXPECT_TRUE(result.has_value());
    EXPECT_EQ(result->error, ErrorCode::kNone);
    return result->base_offset;
  }
  // Writes `rounds` updates of keys k0..k<keys-1>, one batch per round; the value of each
  // record is its offset, so a reader can tell whether a record kept its place.
  void Updates(PartitionLog& log, int rounds, int keys, std::string_view prefix = "k", int codec = 0) {
    for (int round = 0; round < rounds; ++round) {
      BatchSpec spec;
      int64_t next = log.high_watermark();
      for (int k = 0; k < keys; ++k) spec.kv.push_back({fmt::format("{}{}", prefix, k), std::to_string(next + k)});
      if (codec == 0) {
        Append(log, spec);
        continue;
      }
      auto compressed = CompressBatch(BuildBatch(spec), codec);
      ASSERT_TRUE(compressed.has_value()) << compressed.error().ToString();
      auto split = SplitBatches(*compressed, 1 << 20);
      ASSERT_TRUE(split.has_value()) << split.error().ToString();
      auto result = log.Append(compressed->data(), *split);
      ASSERT_TRUE(result.has_value());
    }
  }
  // Every data record from the log start, through the same reads Fetch uses.
  std::vector<Seen> ReadAll(PartitionLog& log, int* control_batches = nullptr, std::set<int>* codecs = nullptr) {
    std::vector<Seen> out;
    int64_t offset = log.log_start_offset();
    while (offset < log.high_watermark()) {
      auto bytes = log.Read(offset, 1 << 20);
      EXPECT_TRUE(bytes.has_value()) << bytes.error().ToString();
      if (!bytes || bytes->empty()) break;
      std::string_view rest = *bytes;
      while (!rest.empty()) {
        auto header = ValidateBatch(rest.substr(0, ParseBatchHeader(rest)->size()), BatchSource::kCompactedLog);
        EXPECT_TRUE(header.has_value()) << header.error().ToString();
        if (!header) return out;
        if (header->control()) {
          if (control_batches) ++*control_batches;
        } else if (header->last_offset() >= offset) {
          if (codecs) codecs->insert(header->compression());
          auto plain = DecompressBatch(rest.substr(0, header->size()), 1 << 26);
          EXPECT_TRUE(plain.has_value()) << plain.error().ToString();
          if (!plain) return out;
          Status parsed = ForEachRecord(*plain, [&](const RecordView& r) {
            std::optional<std::string> value;
            if (r.value) value = std::string(*r.value);
            out.push_back({header->base_offset + r.offset_delta, std::string(r.key.value_or("<null>")), value});
          });
          EXPECT_TRUE(parsed.has_value()) << parsed.error().ToString();
        }
        offset = header->last_offset() + 1;
        rest.remove_prefix(header->size());
      }
    }
    return out;
  }
  // One cleaning pass, as the broker runs it; returns what was installed.
  PartitionLog::InstallStats Clean(PartitionLog& log, int64_t now_ms = -1) {
    if (now_ms < 0) now_ms = Clock::System().NowMillis();
    std::optional<CleanJob> job = log.PlanClean(now_ms, 1 << 20);
    EXPECT_TRUE(job.has_value());
    if (!job) return {};
    auto result = CleanLog(*job);
    EXPECT_TRUE(result.has_value()) << result.error().ToString();
    if (!result) return {};
    auto installed = log.InstallCleaned(*result);
    EXPECT_TRUE(installed.has_value()) << installed.error().ToString();
    return installed ? *installed : PartitionLog::InstallStats{};
  }
  std::vector<std::string> FilesEndingWith(std::string_view suffix) const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      if (e.path().filename().string().ends_with(suffix)) out.push_back(e.path().filename().string());
    }
    return out;
  }
  // The latest value per key, as a consumer replaying the log would conclude.
  static std::map<std::string, std::optional<std::string>> Latest(const std::vector<Seen>& seen) {
    std::map<std::string, std::optional<std::string>> latest;
    for (const Seen& s : seen) latest[s.key] = s.value;
    return latest;
  }

  std::filesystem::path dir_;
  LogConfig config_;
  ManualClock clock_{1'000'000};
};

TEST_F(LogCleanerTest, KeepsTheLastRecordOfEachKeyAtItsOffset) {
  auto log = Open();
  Updates(*log, 60, 20);
  const int64_t end = log->high_watermark();
  auto before = ReadAll(*log);
  ASSERT_EQ(before.size(), 1200u);
  auto installed = Clean(*log);
  EXPECT_GT(installed.groups, 0u);
  EXPECT_GT(installed.records_removed, 1000u);
  auto after = ReadAll(*log);
  EXPECT_EQ(log->high_watermark(), end);
  EXPECT_EQ(Latest(after), Latest(before));
  // Every record kept its offset (its value is its offset) and offsets only grow.
  int64_t last = -1;
  for (const Seen& s : after) {
    EXPECT_EQ(s.value, std::to_string(s.offset));
    EXPECT_GT(s.offset, last);
    last = s.offset;
  }
  EXPECT_EQ(after.size(), before.size() - installed.records_removed);
  // The closed segments hold one record per key; only the active segment (under 2 KiB) more.
  EXPECT_LT(after.size(), 20u + 2048 / 12);
  // Reopening reads the compacted batches (fewer records than their offset range) back.
  log.reset();
  auto reopened = Open();
  EXPECT_EQ(reopened->high_watermark(), end);
  EXPECT_EQ(ReadAll(*reopened).size(), after.size());
  EXPECT_TRUE(FilesEndingWith(".cleaned").empty());
  EXPECT_TRUE(FilesEndingWith(".swap").empty());
  // The end of the pass survived the restart: nothing is dirty until more is written.
  EXPECT_FALSE(reopened->PlanClean(Clock::System().NowMillis(), 1 << 20).has_value());
  EXPECT_EQ(reopened->DirtyRatio(Clock::System().NowMillis()), 0.0);
  // Another pass merges the small segments.
  size_t segments_before = FilesEndingWith(".log").size();
  Updates(*reopened, 10, 20);
  Clean(*reopened);
  EXPECT_LT(FilesEndingWith(".log").size(), segments_before);
  EXPECT_EQ(Latest(ReadAll(*reopened)).size(), 20u);
}

TEST_F(LogCleanerTest, AnUnreadableCheckpointMakesTheWholeLogDirty) {
  auto log = Open();
  Updates(*log, 60, 20);
  Clean(*log);
  log.reset();
  for (std::string junk : {std::string("garbage"), std::string(""), std::string("-5\n")}) {
    {
      std::ofstream f(dir_ / "cleaner-offset-checkpoint", std::ios::trunc);
      f << junk;
    }
    auto reopened = Open();
    EXPECT_EQ(reopened->DirtyRatio(Clock::System().NowMillis()), 1.0) << junk;
  }
  // Beyond the log end, it is clamped to it.
  {
    std::ofstream f(dir_ / "cleaner-offset-checkpoint", std::ios::trunc);
    f << "999999\n";
  }
  EXPECT_EQ(Open()->DirtyRatio(Clock::System().NowMillis()), 0.0);
}

TEST_F(LogCleanerTest, CompressedBatchesAreCompactedAndKeepTheirCodec) {
  for (int codec = 1; codec <= 4; ++codec) {
    SCOPED_TRACE(codec);
    std::filesystem::remove_all(dir_);
    auto log = Open();
    Updates(*log, 80, 20, "k", codec);
    auto before = ReadAll(*log);
    auto installed = Clean(*log);
    EXPECT_GT(installed.records_removed, 1000u);
    std::set<int> codecs;
    auto after = ReadAll(*log, nullptr, &codecs);
    EXPECT_EQ(Latest(after), Latest(before));
    EXPECT_EQ(after.size(), before.size() - installed.records_removed);
    EXPECT_EQ(codecs, std::set<int>{codec});
    for (const Seen& s : after) EXPECT_EQ(s.value, std::to_string(s.offset));
  }
}

TEST_F(LogCleanerTest, UndecodableBatchesAreKeptWholeAndHideNothing) {
  auto log = Open();
  Updates(*log, 10, 20);
  // A gzip batch whose compressed bytes are garbage under a valid CRC (as a producer may send).
  std::string bad = BuildBatch({.kv = {TestRecord{"k1", "hidden"}}});
  bad[kBatchAttributesAt + 1] = 1;
  bad.replace(kBatchHeaderSize, bad.size() - kBatchHeaderSize, std::string(bad.size() - kBatchHeaderSize, '\x5a'));
  ByteWriter w(&bad);
  w.PatchBig<uint32_t>(kBatchCrcAt, crc32c::Value(bad.data() + kBatchAttributesAt, bad.size() - kBatchAttributesAt));
  auto split = SplitBatches(bad, 1 << 20);
  ASSERT_TRUE(split.has_value()) << split.error().ToString();
  const int64_t bad_offset = log->high_watermark();
  ASSERT_TRUE(log->Append(bad.data(), *split).has_value());
  Updates(*log, 40, 20);
  std::optional<CleanJob> job = log->PlanClean(Clock::System().NowMillis(), 1 << 20);
  ASSERT_TRUE(job.has_value());
  auto result = CleanLog(*job);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_EQ(result->opaque_batches, 1u);
  ASSERT_TRUE(log->InstallCleaned(*result).has_value());
  // The batch is still there, byte for byte.
  auto read = log->Read(bad_offset, 1);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->substr(kBatchHeaderSize), bad.substr(kBatchHeaderSize));
}

TEST_F(LogCleanerTest, NeverTouchesTheActiveSegmentOrDueRulesItDoesNotMeet) {
  auto log = Open();
  Updates(*log, 3, 5);
  // Everything is in the active segment: nothing is cleanable.
  EXPECT_FALSE(log->PlanClean(Clock::System().NowMillis(), 1 << 20).has_value());
  Updates(*log, 60, 20);
  // Not compacted, or not dirty enough, or too young for min.compaction.lag.ms: no pass.
  LogConfig plain = config_;
  plain.compact = false;
  log->set_config(plain);
  EXPECT_FALSE(log->PlanClean(Clock::System().NowMillis(), 1 << 20).has_value());
  LogConfig strict = config_;
  strict.min_cleanable_dirty_ratio = 1.0;
  log->set_config(strict);
  EXPECT_FALSE(log->PlanClean(Clock::System().NowMillis(), 1 << 20).has_value());
  LogConfig lagging = config_;
  lagging.min_compaction_lag_ms = 3'600'000;
  log->set_config(lagging);
  EXPECT_FALSE(log->PlanClean(/*now: records are stamped at 1000 ms*/ 1000 + 60'000, 1 << 20).has_value());
  EXPECT_TRUE(log->PlanClean(1000 + 3'600'001, 1 << 20).has_value());
  log->set_config(config_);
  const int64_t active_base = log->high_watermark();
  Clean(*log);
  // Records appended after the pass started planning are all there.
  auto seen = ReadAll(*log);
  EXPECT_EQ(seen.back().offset, active_base - 1);
}

TEST_F(LogCleanerTest, TombstonesStayForDeleteRetentionThenGo) {
  config_.delete_retention_ms = 60'000;
  auto log = Open();
  Updates(*log, 10, 20);
  Append(*log, {.kv = {TestRecord{"k3", std::nullopt}, TestRecord{"k4", std::nullopt}}});
  Updates(*log, 30, 20, "other");
  const int64_t now = Clock::System().NowMillis();
  Clean(*log, now);
  auto latest = Latest(ReadAll(*log));
  ASSERT_TRUE(latest.count("k3"));
  EXPECT_FALSE(latest["k3"].has_value()) << "the tombstone is kept within delete.retention.ms";
  EXPECT_TRUE(latest["k5"].has_value());
  // Later, with more dirty data, a pass past delete.retention.ms drops the tombstones (and so
  // the keys), but no live key.
  Updates(*log, 30, 20, "more");
  Clean(*log, now + 120'000);
  latest = Latest(ReadAll(*log));
  EXPECT_FALSE(latest.count("k3"));
  EXPECT_FALSE(latest.count("k4"));
  for (int k = 0; k < 20; ++k) {
    if (k == 3 || k == 4) continue;
    EXPECT_TRUE(latest.count(fmt::format("k{}", k))) << k;
  }
}

TEST_F(LogCleanerTest, AbortedRecordsGoCommittedStayMarkersStay) {
  auto log = Open();
  Updates(*log, 5, 4);
  // A committed transaction writes k0, k1; a later aborted one writes them again.
  const int64_t committed = Append(*log, {.producer_id = 8,
                                          .producer_epoch = 0,
                                          .base_sequence = 0,
                                          .attributes = 0x10,
                                          .kv = {TestRecord{"k0", "committed"}, TestRecord{"k1", "committed"}}});
  ASSERT_TRUE(log->AppendMarker({8, 0, ControlType::kCommit, 0, 5000}).has_value());
  Append(*log, {.producer_id = 9,
                .producer_epoch = 0,
                .base_sequence = 0,
                .attributes = 0x10,
                .kv = {TestRecord{"k0", "aborted"}, TestRecord{"k1", "aborted"}, TestRecord{"k9", "aborted"}}});
  ASSERT_TRUE(log->AppendMarker({9, 0, ControlType::kAbort, 0, 5000}).has_value());
  Updates(*log, 40, 20, "filler");
  Clean(*log);
  int controls = 0;
  auto seen = ReadAll(*log, &controls);
  auto latest = Latest(seen);
  EXPECT_EQ(latest["k0"], std::optional<std::string>("committed"));
  EXPECT_EQ(latest["k1"], std::optional<std::string>("committed"));
  EXPECT_FALSE(latest.count("k9")) << "an aborted record is removed, never made visible";
  for (const Seen& s : seen) EXPECT_NE(s.value, std::optional<std::string>("aborted"));
  EXPECT_EQ(controls, 2) << "both markers are kept";
  bool found_committed = false;
  for (const Seen& s : seen) found_committed |= s.offset == committed && s.key == "k0";
  EXPECT_TRUE(found_committed);
  // Reopened, the partition's transaction state is consistent: nothing open.
  const int64_t hwm = log->high_watermark();
  log.reset();
  auto reopened = Open();
  EXPECT_EQ(reopened->last_stable_offset(), hwm);
}

TEST_F(LogCleanerTest, OpenTransactionsAreNotCleaned) {
  auto log = Open();
  Updates(*log, 30, 20);
  const int64_t open_at = Append(*log, {.producer_id = 5,
                                        .producer_epoch = 0,
                                        .base_sequence = 0,
                                        .attributes = 0x10,
                                        .kv = {TestRecord{"k0", "pending"}}});
  Updates(*log, 40, 20, "filler");
  ASSERT_EQ(log->last_stable_offset(), open_at);
  std::optional<CleanJob> job = log->PlanClean(Clock::System().NowMillis(), 1 << 20);
  ASSERT_TRUE(job.has_value());
  for (const CleanInput& input : job->segments) EXPECT_LE(input.end_offset, open_at);
  // Once it commits, the rest of the log is cleanable.
  ASSERT_TRUE(log->AppendMarker({5, 0, ControlType::kCommit, 0, 5000}).has_value());
  Updates(*log, 10, 20, "filler");
  Clean(*log);
  EXPECT_EQ(Latest(ReadAll(*log))["k0"], std::optional<std::string>("pending"));
}

TEST_F(LogCleanerTest, CorruptOrTruncatedSegmentsFailThePassAndChangeNothing) {
  for (std::string damage : {"flip", "truncate", "garbage"}) {
    SCOPED_TRACE(damage);
    std::filesystem::remove_all(dir_);
    auto log = Open();
    Updates(*log, 60, 20);
    auto before = ReadAll(*log);
    std::optional<CleanJob> job = log->PlanClean(Clock::System().NowMillis(), 1 << 20);
    ASSERT_TRUE(job.has_value());
    ASSERT_GE(job->segments.size(), 3u);
    const CleanInput& victim = job->segments[1];
    if (damage == "flip") {
      // A byte inside a record: the CRC no longer matches.
      std::fstream f(victim.path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(kBatchHeaderSize + 5));
      f.put('\x7f');
    } else if (damage == "truncate") {
      ASSERT_EQ(::truncate(victim.path.c_str(), static_cast<off_t>(victim.size / 2)), 0);
    } else {
      std::ofstream f(victim.path, std::ios::binary | std::ios::trunc);
      std::string junk(victim.size, '\xff');
      f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    auto result = CleanLog(*job);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().kind(), ErrorKind::kCorruption);
    EXPECT_NE(result.error().message().find(victim.path), std::string::npos) << result.error().message();
    EXPECT_TRUE(FilesEndingWith(".cleaned").empty());
    // The other segments are as they were.
    auto first = log->Read(log->log_start_offset(), 1 << 20);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->substr(0, 8), std::string(8, '\0'));
  }
}

TEST_F(LogCleanerTest, CrashBeforeTheSwapLeavesTheOldSegments) {
  auto log = Open();
  Updates(*log, 60, 20);
  auto before = ReadAll(*log);
  std::optional<CleanJob> job = log->PlanClean(Clock::System().NowMillis(), 1 << 20);
  ASSERT_TRUE(job.has_value());
  auto result = CleanLog(*job);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  ASSERT_FALSE(result->groups.empty());
  EXPECT_FALSE(FilesEndingWith(".cleaned").empty());
  log.reset();  // The crash: nothing installed.
  auto reopened = Open();
  EXPECT_TRUE(FilesEndingWith(".cleaned").empty());
  auto after = ReadAll(*reopened);
  ASSERT_EQ(after.size(), before.size());
}

TEST_F(LogCleanerTest, CrashAfterTheSwapIsCommittedFinishesIt) {
  for (bool some_removed : {false, true}) {
    SCOPED_TRACE(some_removed);
    std::filesystem::remove_all(dir_);
    auto log = Open();
    Updates(*log, 60, 20);
    auto before = ReadAll(*log);
    std::optional<CleanJob> job = log->PlanClean(Clock::System().NowMillis(), 1 << 20);
    ASSERT_TRUE(job.has_value());
    job->segment_bytes = 1 << 20;  // One group of every closed segment.
    auto result = CleanLog(*job);
    ASSERT_TRUE(result.has_value());
    const CleanedGroup& group = result->groups.front();
    ASSERT_GE(group.input_bases.size(), 2u);
    // What InstallCleaned does up to its commit point, then (maybe) one old segment removed.
    std::string swap = (dir_ / SwapFileName(group.base_offset, group.end_offset)).string();
    ASSERT_EQ(::rename(group.cleaned_path.c_str(), swap.c_str()), 0);
    if (some_removed) {
      std::filesystem::remove(dir_ / SegmentFileName(group.input_bases[0], ".log"));
      std::filesystem::remove(dir_ / SegmentFileName(group.input_bases[1], ".log"));
    }
    for (size_t g = 1; g < result->groups.size(); ++g) ::unlink(result->groups[g].cleaned_path.c_str());
    log.reset();
    auto reopened = Open();
    ASSERT_TRUE(reopened);
    EXPECT_TRUE(FilesEndingWith(".swap").empty());
    EXPECT_FALSE(std::filesystem::exists(dir_ / SegmentFileName(group.input_bases[1], ".log")));
    auto after = ReadAll(*reopened);
    EXPECT_EQ(Latest(after), Latest(before));
    EXPECT_LT(after.size(), before.size());
    for (const Seen& s : after) EXPECT_EQ(s.value, std::to_string(s.offset));
  }
}

TEST_F(LogCleanerTest, AGarbageSwapIsAClearErrorAndDeletesNothing) {
  auto log = Open();
  Updates(*log, 60, 20);
  log.reset();
  std::string swap = (dir_ / SwapFileName(0, 40)).string();
  for (std::string junk : {std::string("not a batch at all"), std::string(200, '\0')}) {
    {
      std::ofstream f(swap, std::ios::binary | std::ios::trunc);
      f << junk;
    }
    auto reopened = PartitionLog::Open(dir_.string(), config_, clock_, nullptr);
    ASSERT_FALSE(reopened.has_value());
    EXPECT_EQ(reopened.error().kind(), ErrorKind::kCorruption);
    EXPECT_NE(reopened.error().message().find(".swap"), std::string::npos) << reopened.error().message();
    EXPECT_TRUE(std::filesystem::exists(dir_ / SegmentFileName(0, ".log")));
    EXPECT_TRUE(std::filesystem::exists(swap));
  }
  std::filesystem::remove(swap);
  EXPECT_EQ(ReadAll(*Open()).size(), 1200u);
}

}  // namespace
}  // namespace floe::broker
