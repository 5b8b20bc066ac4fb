// Runs libpg_query on a thread of its own with a large stack. libpg_query's stack-depth guard
// is disabled (query.md §5), so deeply nested input must not run on a caller's small stack.
// Any thread may call; each call starts and joins one thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::sql {

// The JSON parse tree of `text`, or libpg_query's error message and its 1-based character
// position (0 when it has none).
struct PgQueryOutput {
  std::string json;
  std::string error;
  int cursor_position = 0;
};

// Calls libpg_query's parser. Must run on a large stack (see RunWithLargeStack).
PgQueryOutput RunPgQuery(const std::string& text);

// Runs `work` on a fresh thread with a stack of `stack_bytes` and waits for it.
Status RunWithLargeStack(const std::function<void()>& work, size_t stack_bytes = 256u << 20);

}  // namespace floe::sql
