#include "up/storage_faults.h"

#include <gtest/gtest.h>

#include "io/object_store.h"
#include "io/test_folder.h"

namespace floe::up {
namespace {

TEST(StorageFaultPlan, ReadsTheConsoleJson) {
  auto plan = StorageFaultPlanFromJson({{"error_rate", 0.25}, {"latency_ms", 40}, {"short_write_rate", 0.5}});
  ASSERT_TRUE(plan) << plan.error().ToString();
  EXPECT_EQ(*plan, (StorageFaultPlan{.error_rate = 0.25, .latency_ms = 40, .short_write_rate = 0.5}));
  auto empty = StorageFaultPlanFromJson(nlohmann::json::object());
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, StorageFaultPlan{});
  auto nulls = StorageFaultPlanFromJson({{"error_rate", nullptr}});
  ASSERT_TRUE(nulls);
  EXPECT_EQ(*nulls, StorageFaultPlan{});
}

TEST(StorageFaultPlan, RefusesGarbage) {
  for (const nlohmann::json& bad : {nlohmann::json("error_rate"), nlohmann::json::array({0.1}), nlohmann::json(3),
                                    nlohmann::json{{"error_rate", "lots"}}, nlohmann::json{{"error_rate", -0.1}},
                                    nlohmann::json{{"error_rate", 1.5}}, nlohmann::json{{"short_write_rate", 2}},
                                    nlohmann::json{{"latency_ms", -1}}, nlohmann::json{{"latency_ms", 1e12}},
                                    nlohmann::json{{"latency_ms", "slow"}}}) {
    auto plan = StorageFaultPlanFromJson(bad);
    ASSERT_FALSE(plan) << bad.dump();
    EXPECT_EQ(plan.error().kind(), ErrorKind::kInvalidArgument) << bad.dump();
  }
}

class StorageFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    faults_ = std::make_shared<StorageFaults>();
    faults_->Install();
    uri_ = "file://" + io::testing::FreshFolder();
  }
  void TearDown() override { StorageFaults::Uninstall(); }

  std::shared_ptr<StorageFaults> faults_;
  std::string uri_;
};

TEST_F(StorageFaultsTest, ArmsStoresOpenedBeforeAndAfter) {
  auto before = io::OpenObjectStore(uri_);
  ASSERT_TRUE(before);
  ASSERT_TRUE((*before)->Put("a", "1"));

  faults_->Set({.error_rate = 1.0});
  auto after = io::OpenObjectStore(uri_);
  ASSERT_TRUE(after);
  for (io::ObjectStore* store : {before->get(), after->get()}) {
    auto put = store->Put("b", "2");
    ASSERT_FALSE(put);
    EXPECT_EQ(put.error().kind(), ErrorKind::kUnavailable);
    EXPECT_FALSE(store->Get("a"));
  }
  EXPECT_EQ(faults_->ToJson()["stores"], 2);
  EXPECT_GE(faults_->ToJson()["faults_fired"].get<int>(), 4);

  faults_->Set({});  // Cleared: the same stores work again.
  EXPECT_TRUE((*before)->Put("b", "2"));
  auto read = (*after)->Get("b");
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, "2");
}

TEST_F(StorageFaultsTest, LatencyAloneFailsNothingAndTornWritesLeaveNoObject) {
  auto store = io::OpenObjectStore(uri_);
  ASSERT_TRUE(store);
  faults_->Set({.latency_ms = 1});
  EXPECT_TRUE((*store)->Put("slow", "ok"));
  EXPECT_TRUE((*store)->Get("slow"));

  faults_->Set({.short_write_rate = 1.0});
  EXPECT_FALSE((*store)->Put("torn", "0123456789"));
  faults_->Set({});
  auto torn = (*store)->Get("torn");
  // A torn Put passes half the bytes on and fails; an atomic store keeps the half or nothing,
  // never the whole object.
  if (torn) {
    EXPECT_NE(*torn, "0123456789");
  }
}

TEST_F(StorageFaultsTest, UninstalledStoresAreNotWrapped) {
  StorageFaults::Uninstall();
  faults_->Set({.error_rate = 1.0});
  auto store = io::OpenObjectStore(uri_);
  ASSERT_TRUE(store);
  EXPECT_TRUE((*store)->Put("x", "1"));
  EXPECT_EQ(faults_->ToJson()["stores"], 0);
}

}  // namespace
}  // namespace floe::up
