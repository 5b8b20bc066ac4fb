// AppendUninitialized: grows a string by up to `n` bytes that a callback writes in place,
// without zero-filling them first (encoders and codecs write megabytes per page, and a codec's
// worst-case bound is well above what it writes).
#pragma once

#include <cstddef>
#include <string>

namespace floe {

// `fill(char* at)` writes at most `n` bytes at `at` and returns how many it wrote.
template <typename Fill>
void AppendUninitialized(std::string* s, size_t n, Fill fill) {
  const size_t at = s->size();
  // The callback's size argument is not used: when libstdc++ 12 has to grow the string it passes
  // the new capacity there, not the size asked for.
  s->resize_and_overwrite(at + n, [&](char* data, size_t) { return at + fill(data + at); });
}

}  // namespace floe
