#include "iceberg/evaluators.h"

#include <algorithm>
#include <functional>
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
  // For discrete types x < v is x <= v - 1 (and x > v is x >= v + 1), which projects tighter:
  // ts < midnight must not select the day that starts at midnight.
  auto step = [&](const Literal& l, int delta) -> std::optional<Literal> {
    switch (l.kind()) {
      case Literal::Kind::kInt: return Literal::Int(l.as_int() + delta);
      case Literal::Kind::kLong: return Literal::Long(l.as_long() + delta);
      case Literal::Kind::kDecimal: return Literal::Decimal(l.unscaled() + delta, l.scale());
      default: return std::nullopt;
    }
  };
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
    case ExprOp::kLtEq: {
      if (!t.PreservesOrder()) return True();
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      Literal bound = p.literals[0];
      if (p.op == ExprOp::kLt) {
        if (auto prev = step(bound, -1)) bound = *prev;
      }
      return pred(ExprOp::kLtEq, {apply(bound)});
    }
    case ExprOp::kGt:
    case ExprOp::kGtEq: {
      if (!t.PreservesOrder()) return True();
      if (k == Transform::Kind::kIdentity) return pred(p.op, p.literals);
      Literal bound = p.literals[0];
      if (p.op == ExprOp::kGt) {
        if (auto next = step(bound, 1)) bound = *next;
      }
      return pred(ExprOp::kGtEq, {apply(bound)});
    }
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

// What a file's metrics prove about one column: every value (lower/upper bound all of them),
// and whether nulls or NaNs are known to be absent or to be all there is.
struct KnownColumn {
  std::optional<Literal> lower, upper;
  bool no_nulls = false, only_nulls = false;
  bool no_nans = false, only_nans = false;
};

// Must every row satisfy the predicate? Comparisons need the column free of nulls (a null never
// matches) and of NaNs (bounds ignore them).
bool RangeMustMatch(const Expression& p, const KnownColumn& c) {
  switch (p.op) {
    case ExprOp::kIsNull: return c.only_nulls;
    case ExprOp::kNotNull: return c.no_nulls;
    case ExprOp::kIsNan: return c.only_nans;
    case ExprOp::kNotNan: return c.no_nans;
    default: break;
  }
  if (!c.no_nulls || !c.no_nans || !c.lower || !c.upper) return false;
  const Literal& lo = *c.lower;
  const Literal& up = *c.upper;
  auto outside = [&](const Literal& v) { return v < lo || v > up; };
  switch (p.op) {
    case ExprOp::kLt: return up < p.literals[0];
    case ExprOp::kLtEq: return up <= p.literals[0];
    case ExprOp::kGt: return lo > p.literals[0];
    case ExprOp::kGtEq: return lo >= p.literals[0];
    // Truncated string bounds differ whenever a value was cut, so equal bounds are exact.
    case ExprOp::kEq: return lo == up && lo == p.literals[0];
    case ExprOp::kIn:
      return lo == up && std::any_of(p.literals.begin(), p.literals.end(), [&](const Literal& v) { return v == lo; });
    case ExprOp::kNotEq: return outside(p.literals[0]);
    case ExprOp::kNotIn: return std::all_of(p.literals.begin(), p.literals.end(), outside);
    case ExprOp::kStartsWith: {
      // Every string between two strings with the prefix has it too.
      const std::string& prefix = p.literals[0].as_bytes();
      return lo.as_bytes().starts_with(prefix) && up.as_bytes().starts_with(prefix);
    }
    default: return false;
  }
}

bool MustMatch(const ExprPtr& e, const std::function<std::optional<KnownColumn>(const Expression&)>& column_of) {
  switch (e->op) {
    case ExprOp::kTrue: return true;
    case ExprOp::kFalse: return false;
    case ExprOp::kAnd: return MustMatch(e->children[0], column_of) && MustMatch(e->children[1], column_of);
    case ExprOp::kOr: return MustMatch(e->children[0], column_of) || MustMatch(e->children[1], column_of);
    case ExprOp::kNot: return false;
    default: break;
  }
  std::optional<KnownColumn> c = column_of(*e);
  return c && RangeMustMatch(*e, *c);
}

}  // namespace

bool FileAllRowsMatch(const ExprPtr& bound, const DataFile& file, const Schema& schema) {
  if (bound->op == ExprOp::kTrue) return true;
  return MustMatch(bound, [&](const Expression& p) -> std::optional<KnownColumn> {
    const NestedField* field = schema.FindField(p.field_id);
    if (!field || !field->type->is_primitive()) return std::nullopt;
    const Type& t = *field->type;
    KnownColumn c;
    auto values = file.value_counts.find(p.field_id);
    auto nulls = file.null_value_counts.find(p.field_id);
    auto nans = file.nan_value_counts.find(p.field_id);
    if (nulls != file.null_value_counts.end()) {
      c.no_nulls = nulls->second == 0;
      c.only_nulls = values != file.value_counts.end() && nulls->second == values->second;
    }
    if (IsFloating(t)) {
      if (nans != file.nan_value_counts.end()) {
        c.no_nans = nans->second == 0;
        c.only_nans = values != file.value_counts.end() && nans->second == values->second;
      }
    } else {
      c.no_nans = true;
    }
    if (auto it = file.lower_bounds.find(p.field_id); it != file.lower_bounds.end()) {
      if (auto l = FromBinary(t, it->second)) c.lower = *l;
    }
    if (auto it = file.upper_bounds.find(p.field_id); it != file.upper_bounds.end()) {
      if (auto u = FromBinary(t, it->second)) c.upper = *u;
    }
    if ((c.lower && c.lower->is_nan()) || (c.upper && c.upper->is_nan())) {
      c.lower.reset();
      c.upper.reset();
    }
    return c;
  });
}

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
