// Integer division rounding toward negative infinity: what calendar arithmetic and unit
// conversions of instants before 1970 need (C++'s `/` rounds toward zero).
#pragma once

#include <cstdint>

namespace floe {

inline int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace floe
