#include "sql/iceberg/scan_filter.h"

#include "sql/iceberg/iceberg_types.h"

namespace floe::sql::iceberg_sql {
namespace {

using iceberg::ExprOp;

const iceberg::NestedField* TopLevelField(const iceberg::Schema& schema, const ColumnPredicate& term) {
  for (const iceberg::NestedField& f : schema.fields()) {
    if (term.field_id > 0 ? f.id == term.field_id : f.name == term.column) return &f;
  }
  return nullptr;
}

std::optional<ExprOp> IcebergOp(ColumnPredicate::Op op) {
  switch (op) {
    case ColumnPredicate::Op::kEq: return ExprOp::kEq;
    case ColumnPredicate::Op::kNotEq: return ExprOp::kNotEq;
    case ColumnPredicate::Op::kLt: return ExprOp::kLt;
    case ColumnPredicate::Op::kLtEq: return ExprOp::kLtEq;
    case ColumnPredicate::Op::kGt: return ExprOp::kGt;
    case ColumnPredicate::Op::kGtEq: return ExprOp::kGtEq;
    case ColumnPredicate::Op::kIn: return ExprOp::kIn;
    case ColumnPredicate::Op::kIsNull: return ExprOp::kIsNull;
    case ColumnPredicate::Op::kIsNotNull: return ExprOp::kNotNull;
    case ColumnPredicate::Op::kStartsWith: return ExprOp::kStartsWith;
  }
  return std::nullopt;
}

}  // namespace

iceberg::ExprPtr ToIcebergFilter(const ScanPredicate* predicate, const iceberg::Schema& schema, bool* exact) {
  iceberg::ExprPtr out = iceberg::True();
  if (exact) *exact = true;
  if (!predicate) return out;
  if (exact && !predicate->residual.empty()) *exact = false;
  // One term as a bound Iceberg predicate, or null when it does not translate exactly.
  auto translate = [&](const ColumnPredicate& term) -> iceberg::ExprPtr {
    const iceberg::NestedField* field = TopLevelField(schema, term);
    auto op = IcebergOp(term.op);
    if (!field || !op || !field->type->is_primitive()) return nullptr;
    std::vector<iceberg::Literal> literals;
    for (const Value& v : term.values) {
      auto literal = LiteralFor(v, *field->type);
      if (!literal) return nullptr;
      literals.push_back(std::move(*literal));
    }
    if (*op == ExprOp::kIn && literals.empty()) return iceberg::False();  // IN of only nulls matches nothing.
    if (*op == ExprOp::kStartsWith && field->type->id() != iceberg::TypeId::kString) return nullptr;
    auto bound = iceberg::Bind(iceberg::Predicate(*op, field->name, std::move(literals)), schema);
    return bound ? *bound : nullptr;
  };
  for (const ColumnPredicate& term : predicate->terms) {
    iceberg::ExprPtr e = translate(term);
    if (!e) {
      if (exact) *exact = false;
      continue;
    }
    out = iceberg::And(out, e);
  }
  return out;
}

std::vector<FieldPredicate> ToParquetPredicates(const ScanPredicate* predicate, const iceberg::Schema& schema) {
  std::vector<FieldPredicate> out;
  if (!predicate) return out;
  using P = parquet::ColumnPredicate::Op;
  for (const ColumnPredicate& term : predicate->terms) {
    const iceberg::NestedField* field = TopLevelField(schema, term);
    if (!field || !field->type->is_primitive()) continue;
    FieldPredicate fp;
    fp.field_id = field->id;
    switch (term.op) {
      case ColumnPredicate::Op::kIsNull: fp.predicate.op = P::kIsNull; out.push_back(fp); continue;
      case ColumnPredicate::Op::kIsNotNull: fp.predicate.op = P::kNotNull; out.push_back(fp); continue;
      case ColumnPredicate::Op::kEq: fp.predicate.op = P::kEq; break;
      case ColumnPredicate::Op::kLt: fp.predicate.op = P::kLt; break;
      case ColumnPredicate::Op::kLtEq: fp.predicate.op = P::kLe; break;
      case ColumnPredicate::Op::kGt: fp.predicate.op = P::kGt; break;
      case ColumnPredicate::Op::kGtEq: fp.predicate.op = P::kGe; break;
      case ColumnPredicate::Op::kStartsWith: fp.predicate.op = P::kGe; break;
      default: continue;
    }
    if (term.values.size() != 1) continue;
    auto literal = LiteralFor(term.values[0], *field->type);
    if (!literal) continue;
    switch (field->type->id()) {
      case iceberg::TypeId::kBoolean:
      case iceberg::TypeId::kInt:
      case iceberg::TypeId::kLong:
      case iceberg::TypeId::kDate:
      case iceberg::TypeId::kTime:
      case iceberg::TypeId::kTimestamp:
      case iceberg::TypeId::kTimestampTz: fp.predicate.value = literal->as_long(); break;
      case iceberg::TypeId::kFloat:
      case iceberg::TypeId::kDouble: fp.predicate.value = literal->as_double(); break;
      case iceberg::TypeId::kString:
      case iceberg::TypeId::kBinary: fp.predicate.value = literal->as_bytes(); break;
      default: continue;
    }
    out.push_back(std::move(fp));
  }
  return out;
}

}  // namespace floe::sql::iceberg_sql
