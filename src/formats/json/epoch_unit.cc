#include "formats/json/epoch_unit.h"

namespace floe::formats {

Result<EpochUnit> ParseEpochUnit(std::string_view text) {
  if (text == "ms") return EpochUnit::kMillis;
  if (text == "us") return EpochUnit::kMicros;
  if (text == "ns") return EpochUnit::kNanos;
  return InvalidArgument("timestamp unit '{}' is not ms, us or ns", text);
}

}  // namespace floe::formats
