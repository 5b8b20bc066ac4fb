// The grace hash join: both sides of a join, spilled into the same number of partitions by the
// hash of their join keys, joined partition by partition. Rows with equal keys share a
// partition, so each partition's join is complete: its unmatched build rows (right and full
// joins) are unmatched overall and are emitted at the end of the partition. One morsel per
// partition; workers join different partitions at once, each holding one partition's table.
#include "sql/execution/physical_operator.h"
#include "sql/execution/spill.h"

namespace floe::sql {
namespace {

class GraceHashJoinSource final : public Source {
 public:
  GraceHashJoinSource(const LogicalJoin& join, std::unique_ptr<SpillPartitions> probe,
                      std::unique_ptr<SpillPartitions> build, const std::map<ColumnId, Value>* outer)
      : join_(join), probe_(std::move(probe)), build_(std::move(build)), outer_(outer) {}

  size_t morsel_count() const override { return static_cast<size_t>(build_->partitions()); }

  Status ReadMorsel(size_t index, QueryContext& context, const ChunkCallback& out) override {
    auto partition = static_cast<int>(index);
    Materialized built;
    FLOE_ASSIGN_OR_RETURN(built.chunks, build_->Read(partition));
    FLOE_ASSIGN_OR_RETURN(auto probe, MakeHashJoinProbe(join_, std::move(built), outer_, context));
    FLOE_ASSIGN_OR_RETURN(std::vector<DataChunk> rows, probe_->Read(partition));
    for (DataChunk& chunk : rows) FLOE_RETURN_IF_ERROR(probe->Process(std::move(chunk), context, out));
    return probe->Finish(context, out);
  }

 private:
  const LogicalJoin& join_;
  std::unique_ptr<SpillPartitions> probe_, build_;
  const std::map<ColumnId, Value>* outer_;
};

}  // namespace

std::unique_ptr<Source> MakeGraceHashJoinSource(const LogicalJoin& join, std::unique_ptr<SpillPartitions> probe,
                                                std::unique_ptr<SpillPartitions> build,
                                                const std::map<ColumnId, Value>* outer) {
  return std::make_unique<GraceHashJoinSource>(join, std::move(probe), std::move(build), outer);
}

}  // namespace floe::sql
