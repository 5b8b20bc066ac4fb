// A test that hangs is killed by ctest's timeout, which leaves nothing to debug: no stack, no
// line, only "Timeout". The watchdog watches the running googletest test; once one has run for
// longer than a limit (FLOE_TEST_HANG_SECONDS, 150 by default, under every ctest timeout floe
// sets), it prints the test's name and every thread's stack (gdb attached in batch mode), once
// per test, and lets the test go on: a slow test only costs a few lines of output.
#pragma once

namespace floe::testing {

// Starts the watchdog thread and registers its googletest listener. Call after
// InitGoogleTest, before RUN_ALL_TESTS. FLOE_TEST_HANG_SECONDS=0 turns it off.
void InstallHangWatchdog();

}  // namespace floe::testing
