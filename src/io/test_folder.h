// Test-only: fresh temporary folders, removed after the test binary's last test.
#pragma once

#include <string>

namespace floe::io::testing {

// A new empty folder under googletest's temp dir.
std::string FreshFolder();

// The Iceberg tables other engines wrote (Spark, PyIceberg), committed in tests/data/corpus
// (its README says how each was made). Tests that change them work on a copy.
std::string CorpusDir();

}  // namespace floe::io::testing
