#include "io/test_folder.h"

#include <stdlib.h>

#include <filesystem>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

namespace floe::io::testing {
namespace {

class FolderCleanup : public ::testing::Environment {
 public:
  static FolderCleanup& Get() {
    static FolderCleanup* cleanup = [] {
      auto* env = new FolderCleanup;
      ::testing::AddGlobalTestEnvironment(env);  // googletest owns it.
      return env;
    }();
    return *cleanup;
  }
  void Add(std::string folder) {
    std::lock_guard lock(mu_);
    folders_.push_back(std::move(folder));
  }
  void TearDown() override {
    std::lock_guard lock(mu_);
    for (const std::string& f : folders_) std::filesystem::remove_all(f);
  }

 private:
  std::mutex mu_;
  std::vector<std::string> folders_;
};

}  // namespace

std::string FreshFolder() {
  std::string templ = ::testing::TempDir() + "floe-io-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) ADD_FAILURE() << "mkdtemp " << templ;
  FolderCleanup::Get().Add(templ);
  return templ;
}

std::string CorpusDir() { return FLOE_TEST_CORPUS_DIR; }

}  // namespace floe::io::testing
