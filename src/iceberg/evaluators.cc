#include "iceberg/evaluators.h"

#include <algorithm>
#include <optional>

namespace floe::iceberg {
namespace {

ExprPtr MakePredicate(ExprOp op, int32_t field_id, std::string name, TypePtr type, std::vector<Literal> literals) {
  Expression e;
  e.op = op;
  e.field_id = field_id;
  e.column = std::move(name);
  e.type = std::move(type);
  e.literals = std::move(literals);
  return std::make_shared<const Expression>(std::move(e));
}

// The inclusive projection of one predicate through one partition field.
ExprPtr ProjectPredicate(const Expression& p, const PartitionField& field, const Type& source, const TypePtr& result) {
  const Transform& t = field.transform;
  auto pred = [&](ExprOp op, std::vector<Literal> lits) {
    return MakePredicate(op, field.field_id, field.name, result, std::move(lits));
  };
  auto apply = [&](const Literal& l) { return t.Apply(source, l); };
  Transform::Kind k = t.kind();
  if (k == Transform::Kind::kVoid || k == Transform::Kind::kUnknown) return True();
  switch (p.op) {
    case ExprOp::kIsNull: return pred(ExprOp::kIsNull, {});
    case ExprOp::kNotNull: return pred(ExprOp::kNotNull, {});
    case ExprOp::kIsNan:
    case ExprOp::kNotNan:
      return k == Transform::Kind::kIdentity ? pred(p.op, {}) : True();
    case ExprOp::kEq: return pred(ExprOp::kEq, {apply(p.literals[0])});
    case ExprOp::kIn: {
      std::vector<Literal> out;
      for (const Literal& l : p.literals) {
        Literal v = apply(l);
        if (std::none_of(out.begin(), out.end(), [&](const Literal& x) { return x == v; })) out.push_back(v);
      }
      return pred(ExprOp::kIn, std::move(out));
    }
    case ExprOp::kNotEq:
    case ExprOp::kNotIn:
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      return True();
    case ExprOp::kLt:
    case ExprOp::kLtEq:
      if (!t.PreservesOrder()) return True();
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      return pred(ExprOp::kLtEq, {apply(p.literals[0])});
    case ExprOp::kGt:
    case ExprOp::kGtEq:
      if (!t.PreservesOrder()) return True();
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      return pred(ExprOp::kGtEq, {apply(p.literals[0])});
    case ExprOp::kStartsWith:
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      if (k == Transform::Kind::kTruncate && source.id() == TypeId::kString) {
        // Truncated values are prefixes of at most W code points.
        Literal cut = apply(p.literals[0]);
        if (cut.as_bytes().size() < p.literals[0].as_bytes().size()) return pred(ExprOp::kEq, {cut});
        return pred(ExprOp::kStartsWith, {cut});
      }
      return True();
    case ExprOp::kNotStartsWith:
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      return True();
    default:
      return True();
  }
}

ExprPtr ProjectImpl(const ExprPtr& e, const PartitionSpec& spec, const Schema& schema) {
  switch (e->op) {
    case ExprOp::kTrue:
    case ExprOp::kFalse: return e;
    case ExprOp::kAnd: return And(ProjectImpl(e->children[0], spec, schema), ProjectImpl(e->children[1], spec, schema));
    case ExprOp::kOr: return Or(ProjectImpl(e->children[0], spec, schema), ProjectImpl(e->children[1], spec, schema));
    case ExprOp::kNot: return True();  // Bound expressions have no NOT.
    default: break;
  }
  // Every partition field on the predicate's column constrains the tuple; and them together.
  ExprPtr out = True();
  const NestedField* source = schema.FindField(e->field_id);
  if (!source) return True();
  for (const PartitionField& f : spec.fields()) {
    if (f.source_id != e->field_id) continue;
    out = And(out, ProjectPredicate(*e, f, *source->type, f.transform.ResultType(source->type)));
  }
  return out;
}

// Might any value in [lower, upper] (plus nulls/NaNs as flagged) satisfy the predicate?
struct Range {
  std::optional<Literal> lower, upper;  // Absent: unknown (no pruning on that side).
  bool may_have_null = true;
  bool may_have_nan = true;
  bool all_null = false;  // Every value is null: comparisons cannot match.
  bool all_nan = false;
};

bool RangeMightMatch(const Expression& p, const Range& r) {
  switch (p.op) {
    case ExprOp::kIsNull: return r.may_have_null;
    case ExprOp::kNotNull: return !r.all_null;
    case ExprOp::kIsNan: return r.may_have_nan;
    case ExprOp::kNotNan: return !r.all_nan;
    case ExprOp::kNotEq:
    case ExprOp::kNotIn:
    case ExprOp::kNotStartsWith: return true;
    default: break;
  }
  if (r.all_null || r.all_nan) return false;
  const Literal& v = p.literals.empty() ? Literal() : p.literals[0];
  switch (p.op) {
    case ExprOp::kLt: return !r.lower || *r.lower < v;
    case ExprOp::kLtEq: return !r.lower || *r.lower <= v;
    case ExprOp::kGt: return !r.upper || *r.upper > v;
    case ExprOp::kGtEq: return !r.upper || *r.upper >= v;
    case ExprOp::kEq: return (!r.lower || *r.lower <= v) && (!r.upper || *r.upper >= v);
    case ExprOp::kIn:
      return std::any_of(p.literals.begin(), p.literals.end(), [&](const Literal& x) {
        return (!r.lower || *r.lower <= x) && (!r.upper || *r.upper >= x);
      });
    case ExprOp::kStartsWith: {
      const std::string& prefix = v.as_bytes();
      if (r.lower) {
        // Values below the prefix's range: lower's first |prefix| bytes above the prefix.
        std::string lo = r.lower->as_bytes().substr(0, prefix.size());
        if (Literal::String(lo) > Literal::String(prefix)) return false;
      }
      if (r.upper) {
        std::string up = r.upper->as_bytes().substr(0, prefix.size());
        if (Literal::String(up) < Literal::String(prefix)) return false;
      }
      return true;
    }
    default: return true;
  }
}

template <typename RangeOf>
bool MightMatch(const ExprPtr& e, const RangeOf& range_of) {
  switch (e->op) {
    case ExprOp::kTrue: return true;
    case ExprOp::kFalse: return false;
    case ExprOp::kAnd: return MightMatch(e->children[0], range_of) && MightMatch(e->children[1], range_of);
    case ExprOp::kOr: return MightMatch(e->children[0], range_of) || MightMatch(e->children[1], range_of);
    case ExprOp::kNot: return true;
    default: break;
  }
  std::optional<Range> r = range_of(*e);
  if (!r) return true;
  return RangeMightMatch(*e, *r);
}

int FieldIndex(const Type& partition_type, int32_t field_id) {
  const auto& fields = partition_type.fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].id == field_id) return static_cast<int>(i);
  }
  return -1;
}

bool IsFloating(const Type& t) { return t.id() == TypeId::kFloat || t.id() == TypeId::kDouble; }

}  // namespace

ExprPtr ProjectInclusive(const ExprPtr& bound, const PartitionSpec& spec, const Schema& schema) {
  return ProjectImpl(bound, spec, schema);
}

bool ManifestMightMatch(const ExprPtr& projected, const ManifestFile& manifest, const Type& partition_type) {
  if (!manifest.has_added_files() && !manifest.has_existing_files()) return false;
  if (projected->op == ExprOp::kTrue) return true;
  return MightMatch(projected, [&](const Expression& p) -> std::optional<Range> {
    int i = FieldIndex(partition_type, p.field_id);
    if (i < 0 || static_cast<size_t>(i) >= manifest.partitions.size()) return std::nullopt;
    const PartitionFieldSummary& s = manifest.partitions[i];
    const Type& t = *partition_type.fields()[i].type;
    Range r;
    r.may_have_null = s.contains_null;
    r.may_have_nan = s.contains_nan.value_or(IsFloating(t));
    if (s.lower_bound) {
      auto l = FromBinary(t, *s.lower_bound);
      if (l) r.lower = *l;
    }
    if (s.upper_bound) {
      auto u = FromBinary(t, *s.upper_bound);
      if (u) r.upper = *u;
    }
    // No bounds: every value is null or NaN.
    if (!s.lower_bound && !s.upper_bound) {
      if (s.contains_nan == true) {
        r.all_nan = !s.contains_null;
      } else if (s.contains_null) {
        r.all_null = s.contains_nan.has_value() || !IsFloating(t);
      }
    }
    return r;
  });
}

bool PartitionMatches(const ExprPtr& projected, const std::vector<Literal>& partition, const Type& partition_type) {
  if (projected->op == ExprOp::kTrue) return true;
  return EvaluateRow(projected, [&](int32_t field_id) -> Literal {
    int i = FieldIndex(partition_type, field_id);
    if (i < 0 || static_cast<size_t>(i) >= partition.size()) return Literal();
    return partition[i];
  });
}

bool FileMightMatch(const ExprPtr& bound, const DataFile& file, const Schema& schema) {
  if (bound->op == ExprOp::kTrue) return true;
  if (file.record_count == 0) return false;
  return MightMatch(bound, [&](const Expression& p) -> std::optional<Range> {
    const NestedField* field = schema.FindField(p.field_id);
    if (!field) return std::nullopt;
    const Type& t = *field->type;
    Range r;
    auto nulls = file.null_value_counts.find(p.field_id);
    auto values = file.value_counts.find(p.field_id);
    auto nans = file.nan_value_counts.find(p.field_id);
    if (nulls != file.null_value_counts.end()) {
      r.may_have_null = nulls->second > 0;
      if (values != file.value_counts.end()) r.all_null = nulls->second == values->second;
    }
    if (nans != file.nan_value_counts.end()) {
      r.may_have_nan = nans->second > 0;
      if (values != file.value_counts.end()) r.all_nan = nans->second == values->second;
    } else {
      r.may_have_nan = IsFloating(t);
    }
    // Bounds are only safe to use for primitive, non-nested columns whose type they decode as.
    if (auto it = file.lower_bounds.find(p.field_id); it != file.lower_bounds.end()) {
      if (auto l = FromBinary(t, it->second)) r.lower = *l;
    }
    if (auto it = file.upper_bounds.find(p.field_id); it != file.upper_bounds.end()) {
      if (auto u = FromBinary(t, it->second)) r.upper = *u;
    }
    // Floating bounds may have been written by writers that let NaN in; don't trust a NaN.
    if (r.lower && r.lower->is_nan()) r.lower.reset();
    if (r.upper && r.upper->is_nan()) r.upper.reset();
    return r;
  });
}

ExprPtr Residual(const ExprPtr& bound, const PartitionSpec& spec, const std::vector<Literal>& partition) {
  switch (bound->op) {
    case ExprOp::kTrue:
    case ExprOp::kFalse: return bound;
    case ExprOp::kAnd: return And(Residual(bound->children[0], spec, partition), Residual(bound->children[1], spec, partition));
    case ExprOp::kOr: return Or(Residual(bound->children[0], spec, partition), Residual(bound->children[1], spec, partition));
    default: break;
  }
  // An identity partition field on the predicate's column decides it for the whole partition.
  for (size_t i = 0; i < spec.fields().size() && i < partition.size(); ++i) {
    const PartitionField& f = spec.fields()[i];
    if (f.source_id != bound->field_id || f.transform.kind() != Transform::Kind::kIdentity) continue;
    bool match = EvaluateRow(bound, [&](int32_t) { return partition[i]; });
    return match ? True() : False();
  }
  return bound;
}

}  // namespace floe::iceberg
