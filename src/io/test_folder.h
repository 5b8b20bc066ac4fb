// Test-only: fresh temporary folders, removed after the test binary's last test.
#pragma once

#include <string>

namespace floe::io::testing {

// A new empty folder under googletest's temp dir.
std::string FreshFolder();

}  // namespace floe::io::testing
