// Window calls: the OVER clause's named window resolved, then its partitioning, ordering and
// frame bound; the call is collected for the window node and replaced by its output column.
#include "sql/binder/binder_internal.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindWindowCall(const ast::WindowSpec& window, WindowCall call, ColumnId id,
                                                ExprContext& context, ExprContext& argument_context, int at) {
  const ast::WindowSpec* spec = &window;
  const ast::WindowSpec* base = nullptr;
  if (!spec->base_name.empty()) {
    if (context.named_windows != nullptr) {
      for (const auto& named : *context.named_windows) {
        if (named.name == spec->base_name) base = named.spec.get();
      }
    }
    if (base == nullptr)
      return ErrorAt(spec->location >= 0 ? spec->location : at,
                     fmt::format("Window '{}' is not defined", spec->base_name));
  }
  if (call.distinct) return ErrorAt(at, "DISTINCT in window functions is not supported", ErrorKind::kNotImplemented);
  const ast::WindowSpec* partition_source = base != nullptr && spec->partition_by.empty() ? base : spec;
  for (const auto& p : partition_source->partition_by) {
    FLOE_ASSIGN_OR_RETURN(auto key, BindExpr(*p, argument_context));
    if (context.group_keys) {
      FLOE_ASSIGN_OR_RETURN(key, ApplyGrouping(std::move(key), context, p->location));
    }
    call.partition_by.push_back(std::move(key));
  }
  const ast::WindowSpec* order_source = base != nullptr && spec->order_by.empty() ? base : spec;
  for (const auto& item : order_source->order_by) {
    FLOE_ASSIGN_OR_RETURN(auto key, BindExpr(*item.expr, argument_context));
    if (context.group_keys) {
      FLOE_ASSIGN_OR_RETURN(key, ApplyGrouping(std::move(key), context, item.expr->location));
    }
    if (!key->type.IsOrderable()) {
      return ErrorAt(item.expr->location, fmt::format("Type {} is not orderable", key->type.ToString()));
    }
    call.order_by.push_back(SortKey{std::move(key), item.descending, item.nulls_first.value_or(false)});
  }
  if (context.group_keys) {
    for (auto& arg : call.args) {
      FLOE_ASSIGN_OR_RETURN(arg, ApplyGrouping(std::move(arg), context, at));
    }
  }
  const ast::WindowSpec* frame_source = base != nullptr && !spec->has_frame ? base : spec;
  if (frame_source->has_frame) {
    call.frame_mode = frame_source->frame_mode == ast::FrameMode::kRows     ? floe::sql::FrameMode::kRows
                      : frame_source->frame_mode == ast::FrameMode::kGroups ? floe::sql::FrameMode::kGroups
                                                                            : floe::sql::FrameMode::kRange;
    auto bind_bound = [&](const ast::FrameBound& in) -> Result<WindowFrameBound> {
      WindowFrameBound out;
      out.kind = static_cast<WindowFrameBound::Kind>(static_cast<int>(in.kind));
      if (in.offset) {
        ExprContext constant_context;
        constant_context.clause = "Window frame offset";
        FLOE_ASSIGN_OR_RETURN(out.offset, BindExpr(*in.offset, constant_context));
        bool interval = out.offset->type.kind() == TypeKind::kIntervalDayTime;
        if (!out.offset->IsConstant() ||
            !(out.offset->type.IsNumeric() || (interval && call.frame_mode == floe::sql::FrameMode::kRange))) {
          return ErrorAt(in.offset->location,
                         call.frame_mode == floe::sql::FrameMode::kRange
                             ? "Window frame offset must be a constant number or day-to-second interval"
                             : "Window frame offset must be a constant number");
        }
        if (call.frame_mode == floe::sql::FrameMode::kRange && call.order_by.size() != 1) {
          return ErrorAt(in.offset->location,
                         "Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY");
        }
      }
      return out;
    };
    FLOE_ASSIGN_OR_RETURN(call.frame_start, bind_bound(frame_source->frame_start));
    FLOE_ASSIGN_OR_RETURN(call.frame_end, bind_bound(frame_source->frame_end));
  }
  auto result_column = MakeColumn(id, call.type, call.function);
  result_column->location = at;
  context.windows->push_back(std::move(call));
  context.window_ids->push_back(id);
  return result_column;
}

}  // namespace floe::sql
