// The behaviour every ObjectStore must share, as a value-parameterized googletest suite.
//
// A test file instantiates it once per store:
//   INSTANTIATE_TEST_SUITE_P(Local, ObjectStoreConformance, ::testing::Values(StoreCase{...}));
// Each test gets a fresh, empty store from the case's factory. Test-only code.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "io/object_store.h"

namespace floe::io::testing {

struct StoreCase {
  std::string name;
  // Makes an empty store; called once per test.
  std::function<std::unique_ptr<ObjectStore>()> make;
  // The URI prefix Uri("") starts with ("file:///", "s3://bucket/").
  std::string uri_prefix;
  // False for servers whose listing only approximates S3's (s3rver: filesystem-walk order,
  // missing rolled-up prefixes, max-keys not counting prefixes, failing continuation tokens).
  bool exact_listing = true;
};

inline std::ostream& operator<<(std::ostream& out, const StoreCase& c) { return out << c.name; }

class ObjectStoreConformance : public ::testing::TestWithParam<StoreCase> {
 protected:
  void SetUp() override {
    store_ = GetParam().make();
    ASSERT_NE(store_, nullptr);
  }
  std::unique_ptr<ObjectStore> store_;
};

}  // namespace floe::io::testing
