#include "sql/catalog.h"

namespace floe::sql {

std::string TableVersion::ToString() const {
  switch (kind) {
    case Kind::kCurrent: return "current";
    case Kind::kSnapshotId: return fmt::format("snapshot {}", snapshot_id);
    case Kind::kRef: return fmt::format("ref '{}'", ref);
    case Kind::kTimestamp: return fmt::format("as of {} us", timestamp_micros);
  }
  return "?";
}

}  // namespace floe::sql
