#include "sql/execution/expression_evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "sql/execution/key_table.h"
#include "sql/function/function_registry.h"
#include "sql/function/nested_functions.h"
#include "sql/function/scalar_evaluation.h"
#include "sql/types/temporal.h"
#include "sql/types/value_cast.h"

namespace floe::sql {
namespace {

// An evaluated argument: a full vector, or a one-row vector standing for every row.
struct Operand {
  VectorPtr vec;
  bool constant = false;

  size_t step() const { return constant ? 0 : 1; }
  bool valid(int64_t i) const { return vec->IsValid(constant ? 0 : i); }
};

// REAL values live in double vectors holding a float's value.
void RoundToReal(double* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = static_cast<double>(static_cast<float>(d[i]));
}

Int128 LoadI128(const ColumnVector& v, int64_t i) {
  Int128 x;
  std::memcpy(&x, v.values.data() + i * 16, 16);
  return x;
}

Result<Operand> EvaluateOperand(const ExprNode& node, const DataChunk& chunk, QueryContext& context) {
  if (const Value* v = node.constant()) return Operand{ConstantVector(*v, 1), true};
  FLOE_ASSIGN_OR_RETURN(VectorPtr vec, node.Evaluate(chunk, context));
  return Operand{std::move(vec), false};
}

// Validity of a result computed from `operands`: empty when every input row is valid.
std::vector<uint8_t> CombinedValidity(const std::vector<const Operand*>& operands, int64_t n) {
  bool any = false;
  for (const Operand* o : operands) any |= !o->vec->validity.empty();
  if (!any) return {};
  std::vector<uint8_t> out(static_cast<size_t>(n), 1);
  for (const Operand* o : operands) {
    if (o->vec->validity.empty()) continue;
    if (o->constant) {
      if (o->vec->validity[0] == 0) std::fill(out.begin(), out.end(), 0);
      continue;
    }
    for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] &= o->vec->validity[static_cast<size_t>(i)];
  }
  return out;
}

MutableVectorPtr FixedResult(const SqlType& type, int64_t n) {
  auto out = NewVector(type);
  out->values.Resize(static_cast<size_t>(n) * static_cast<size_t>(out->type().FixedWidth()));
  if (n > 0) std::memset(out->values.data(), 0, out->values.size());
  out->length = n;
  return out;
}

// ---- leaves

class ColumnNode final : public ExprNode {
 public:
  ColumnNode(SqlType type, size_t position) : ExprNode(std::move(type)), position_(position) {}
  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext&) const override { return chunk.columns[position_]; }

 private:
  size_t position_;
};

class ConstantNode final : public ExprNode {
 public:
  explicit ConstantNode(Value value) : ExprNode(value.type()), value_(std::move(value)) {}
  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext&) const override { return ConstantVector(value_, chunk.rows); }
  const Value* constant() const override { return &value_; }

 private:
  Value value_;
};

// ---- rows

// s.name: the field's vector, shared with the row vector when the row is never null;
// otherwise a copy whose slots are null wherever the row is.
class FieldAccessNode final : public ExprNode {
 public:
  FieldAccessNode(SqlType type, ExprNodePtr row, size_t field) : ExprNode(std::move(type)), row_(std::move(row)), field_(field) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr row, row_->Evaluate(chunk, context));
    const ColumnVector& child = row->children[field_];
    if (row->validity.empty()) return VectorPtr(row, &child);
    auto out = std::make_shared<ColumnVector>(child);
    if (out->validity.empty()) out->validity.assign(static_cast<size_t>(out->length), 1);
    for (int64_t i = 0; i < out->length; ++i) out->validity[static_cast<size_t>(i)] &= row->validity[static_cast<size_t>(i)];
    return VectorPtr(out);
  }

 private:
  ExprNodePtr row_;
  size_t field_;
};

// ---- comparisons

enum class CompareOp { kEq, kNeq, kLt, kLte, kGt, kGte };

class CompareNode final : public ExprNode {
 public:
  CompareNode(CompareOp op, ExprNodePtr a, ExprNodePtr b) : ExprNode(SqlType::Boolean()), op_(op), a_(std::move(a)), b_(std::move(b)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(Operand a, EvaluateOperand(*a_, chunk, context));
    FLOE_ASSIGN_OR_RETURN(Operand b, EvaluateOperand(*b_, chunk, context));
    int64_t n = chunk.rows;
    auto out = FixedResult(SqlType::Boolean(), n);
    uint8_t* d = out->MutableData<uint8_t>();
    size_t sa = a.step(), sb = b.step();
    switch (PhysicalTypeOf(a_->type())) {
      case PhysicalType::kBool: {
        const uint8_t* x = a.vec->Data<uint8_t>();
        const uint8_t* y = b.vec->Data<uint8_t>();
        auto ga = [x, sa](int64_t i) { return x[static_cast<size_t>(i) * sa]; };
        auto gb = [y, sb](int64_t i) { return y[static_cast<size_t>(i) * sb]; };
        Dispatch(ga, gb, d, n);
        break;
      }
      case PhysicalType::kInt64: {
        const int64_t* x = a.vec->Data<int64_t>();
        const int64_t* y = b.vec->Data<int64_t>();
        if (b.constant) {
          int64_t c = y[0];
          switch (op_) {
            case CompareOp::kEq: for (int64_t i = 0; i < n; ++i) d[i] = x[i * static_cast<int64_t>(sa)] == c; break;
            case CompareOp::kNeq: for (int64_t i = 0; i < n; ++i) d[i] = x[i * static_cast<int64_t>(sa)] != c; break;
            case CompareOp::kLt: for (int64_t i = 0; i < n; ++i) d[i] = x[i * static_cast<int64_t>(sa)] < c; break;
            case CompareOp::kLte: for (int64_t i = 0; i < n; ++i) d[i] = x[i * static_cast<int64_t>(sa)] <= c; break;
            case CompareOp::kGt: for (int64_t i = 0; i < n; ++i) d[i] = x[i * static_cast<int64_t>(sa)] > c; break;
            case CompareOp::kGte: for (int64_t i = 0; i < n; ++i) d[i] = x[i * static_cast<int64_t>(sa)] >= c; break;
          }
        } else {
          auto ga = [x, sa](int64_t i) { return x[static_cast<size_t>(i) * sa]; };
          auto gb = [y, sb](int64_t i) { return y[static_cast<size_t>(i) * sb]; };
          Dispatch(ga, gb, d, n);
        }
        break;
      }
      case PhysicalType::kDouble: {
        const double* x = a.vec->Data<double>();
        const double* y = b.vec->Data<double>();
        auto ga = [x, sa](int64_t i) { return x[static_cast<size_t>(i) * sa]; };
        auto gb = [y, sb](int64_t i) { return y[static_cast<size_t>(i) * sb]; };
        Dispatch(ga, gb, d, n);
        break;
      }
      case PhysicalType::kInt128: {
        const ColumnVector& x = *a.vec;
        const ColumnVector& y = *b.vec;
        auto ga = [&x, sa](int64_t i) { return LoadI128(x, i * static_cast<int64_t>(sa)); };
        auto gb = [&y, sb](int64_t i) { return LoadI128(y, i * static_cast<int64_t>(sb)); };
        Dispatch(ga, gb, d, n);
        break;
      }
      case PhysicalType::kString: {
        const ColumnVector& x = *a.vec;
        const ColumnVector& y = *b.vec;
        if (b.constant && b.valid(0) && !a.constant && x.HasDictionary() && x.dictionary->length <= n) {
          CompareCodes(x, y.StringAt(0), false, d, n);
          break;
        }
        if (a.constant && a.valid(0) && !b.constant && y.HasDictionary() && y.dictionary->length <= n) {
          CompareCodes(y, x.StringAt(0), true, d, n);
          break;
        }
        auto ga = [&x, sa](int64_t i) { return x.StringAt(i * static_cast<int64_t>(sa)); };
        auto gb = [&y, sb](int64_t i) { return y.StringAt(i * static_cast<int64_t>(sb)); };
        Dispatch(ga, gb, d, n);
        break;
      }
    }
    out->validity = CombinedValidity({&a, &b}, n);
    return VectorPtr(out);
  }

 private:
  // A dictionary-coded string column against a constant: compares each dictionary entry once,
  // then looks every row's answer up by its code (null slots are masked by validity later).
  void CompareCodes(const ColumnVector& coded, std::string_view constant, bool constant_first, uint8_t* d, int64_t n) const {
    const ColumnVector& dictionary = *coded.dictionary;
    std::vector<uint8_t> per_entry(static_cast<size_t>(dictionary.length));
    auto entry = [&dictionary](int64_t k) { return dictionary.StringAt(k); };
    auto fixed = [constant](int64_t) { return constant; };
    if (constant_first) {
      Dispatch(fixed, entry, per_entry.data(), dictionary.length);
    } else {
      Dispatch(entry, fixed, per_entry.data(), dictionary.length);
    }
    const uint32_t* codes = coded.dictionary_codes.data();
    for (int64_t i = 0; i < n; ++i) d[i] = per_entry[codes[i]];
  }

  template <typename GA, typename GB>
  void Dispatch(GA a, GB b, uint8_t* d, int64_t n) const {
    switch (op_) {
      case CompareOp::kEq: for (int64_t i = 0; i < n; ++i) d[i] = a(i) == b(i); break;
      case CompareOp::kNeq: for (int64_t i = 0; i < n; ++i) d[i] = a(i) != b(i); break;
      case CompareOp::kLt: for (int64_t i = 0; i < n; ++i) d[i] = a(i) < b(i); break;
      case CompareOp::kLte: for (int64_t i = 0; i < n; ++i) d[i] = a(i) <= b(i); break;
      case CompareOp::kGt: for (int64_t i = 0; i < n; ++i) d[i] = a(i) > b(i); break;
      case CompareOp::kGte: for (int64_t i = 0; i < n; ++i) d[i] = a(i) >= b(i); break;
    }
  }

  CompareOp op_;
  ExprNodePtr a_, b_;
};

// ---- the row-at-a-time fallback

class RowCallNode final : public ExprNode {
 public:
  RowCallNode(std::string name, SqlType type, std::vector<ExprNodePtr> args)
      : ExprNode(std::move(type)), name_(std::move(name)), args_(std::move(args)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    std::vector<Operand> args;
    for (const auto& a : args_) {
      FLOE_ASSIGN_OR_RETURN(Operand o, EvaluateOperand(*a, chunk, context));
      args.push_back(std::move(o));
    }
    auto out = NewVector(type(), chunk.rows);
    std::vector<Value> values(args.size());
    for (int64_t i = 0; i < chunk.rows; ++i) {
      for (size_t k = 0; k < args.size(); ++k) {
        values[k] = GetValue(*args[k].vec, args_[k]->type(), args[k].constant ? 0 : i);
      }
      auto v = EvaluateScalarCall(name_, type(), values);
      if (!v.has_value()) return std::unexpected(context.ErrorAt(location, v.error()));
      if (!(v->type() == type()) && !v->is_null()) {
        auto cast = CastValue(*v, type());
        if (!cast) return std::unexpected(context.ErrorAt(location, Error(ErrorKind::kInternal, fmt::format("{} returned {}", name_, v->type().ToString()))));
        v = std::move(*cast);
      }
      AppendValue(*out, *v);
    }
    return VectorPtr(out);
  }

 private:
  std::string name_;
  std::vector<ExprNodePtr> args_;
};

// A function with a vector kernel (vector_kernel.h): one call per chunk.
class KernelCallNode final : public ExprNode {
 public:
  KernelCallNode(const VectorKernel& kernel, SqlType type, std::vector<ExprNodePtr> args)
      : ExprNode(std::move(type)), kernel_(kernel), args_(std::move(args)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    std::vector<Operand> operands;
    std::vector<KernelArgument> args;
    for (const auto& a : args_) {
      FLOE_ASSIGN_OR_RETURN(Operand o, EvaluateOperand(*a, chunk, context));
      operands.push_back(std::move(o));
    }
    for (size_t k = 0; k < operands.size(); ++k) args.push_back({operands[k].vec.get(), operands[k].constant, args_[k]->type()});
    auto out = kernel_(args, type(), chunk.rows);
    if (!out.has_value()) return std::unexpected(context.ErrorAt(location, out.error()));
    return out;
  }

 private:
  const VectorKernel& kernel_;  // Owned by the registry, which lives as long as the process.
  std::vector<ExprNodePtr> args_;
};

// ---- arithmetic

enum class ArithOp { kAdd, kSubtract, kMultiply, kDivide, kModulus };

// Decimal addition, subtraction and multiplication over operands whose values fit 64 bits (the
// usual case: every decimal of up to 18 digits, and most wider ones): a multiplication is one
// 64x64->128-bit product, an addition two scaled 128-bit values, with no branch per row. Where
// the types prove the result fits its precision no row is checked; otherwise each result is
// compared with the precision's limit, branch-free. False when a value does not fit 64 bits or
// a result passes the limit (the checked loop then runs and reports it), or when the scales
// need a rescale. Null slots hold arbitrary values, so the arithmetic is done unsigned, where
// wrapping is defined (their results are never read; one may send the chunk to the checked loop).
bool UncheckedDecimalArithmetic(ArithOp op, const SqlType& tx, const SqlType& ty, const SqlType& result, const Operand& a,
                                const Operand& b, int64_t n, ColumnVector& out) {
  if (tx.kind() != TypeKind::kDecimal || ty.kind() != TypeKind::kDecimal || result.kind() != TypeKind::kDecimal) return false;
  int px = tx.precision(), py = ty.precision(), sx = tx.scale(), sy = ty.scale();
  int rp = result.precision(), rs = result.scale();
  int needed;
  switch (op) {
    case ArithOp::kAdd:
    case ArithOp::kSubtract:
      // A value under 2^63 times 10^19 stays under 2^127.
      if (rs < sx || rs < sy || rs - sx > 19 || rs - sy > 19) return false;
      needed = std::max(px - sx, py - sy) + rs + 1;
      break;
    case ArithOp::kMultiply:
      if (rs != sx + sy) return false;
      needed = px + py;
      break;
    default: return false;
  }
  const bool check_limit = needed > rp || px > 18 || py > 18;
  using U128 = unsigned __int128;
  const Int128 limit = PowerOfTen(rp);
  // A value that fits 64 bits is its low 8 bytes (little-endian), the high 8 their sign.
  // The loops keep everything in locals: a flag updated through a reference could alias the
  // output bytes and would be reloaded every row.
  const uint8_t* xs = a.vec->values.data();
  const uint8_t* ys = b.vec->values.data();
  const size_t xstep = a.step() * 16, ystep = b.step() * 16;
  uint8_t* __restrict d = out.values.data();
  uint64_t wide = 0;
  bool past_limit = false;
  auto run = [&](auto combine) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t x[2], y[2];
      std::memcpy(x, xs + static_cast<size_t>(i) * xstep, 16);
      std::memcpy(y, ys + static_cast<size_t>(i) * ystep, 16);
      wide |= static_cast<uint64_t>(x[1] ^ (x[0] >> 63)) | static_cast<uint64_t>(y[1] ^ (y[0] >> 63));
      U128 r = combine(x[0], y[0]);
      if (check_limit) past_limit |= (static_cast<Int128>(r) >= limit) | (static_cast<Int128>(r) <= -limit);
      std::memcpy(d + static_cast<size_t>(i) * 16, &r, 16);
    }
  };
  if (op == ArithOp::kMultiply) {
    run([](int64_t x, int64_t y) { return static_cast<U128>(static_cast<Int128>(x) * y); });
    return wide == 0 && !past_limit;
  }
  U128 fx = static_cast<U128>(PowerOfTen(rs - sx)), fy = static_cast<U128>(PowerOfTen(rs - sy));
  auto widen = [](int64_t v) { return static_cast<U128>(static_cast<Int128>(v)); };
  if (fx == 1 && fy == 1) {
    if (op == ArithOp::kAdd) {
      run([&](int64_t x, int64_t y) { return widen(x) + widen(y); });
    } else {
      run([&](int64_t x, int64_t y) { return widen(x) - widen(y); });
    }
  } else if (op == ArithOp::kAdd) {
    run([&](int64_t x, int64_t y) { return widen(x) * fx + widen(y) * fy; });
  } else {
    run([&](int64_t x, int64_t y) { return widen(x) * fx - widen(y) * fy; });
  }
  return wide == 0 && !past_limit;
}

class ArithmeticNode final : public ExprNode {
 public:
  ArithmeticNode(ArithOp op, SqlType type, ExprNodePtr a, ExprNodePtr b)
      : ExprNode(std::move(type)), op_(op), a_(std::move(a)), b_(std::move(b)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(Operand a, EvaluateOperand(*a_, chunk, context));
    FLOE_ASSIGN_OR_RETURN(Operand b, EvaluateOperand(*b_, chunk, context));
    int64_t n = chunk.rows;
    auto out = FixedResult(type(), n);
    out->validity = CombinedValidity({&a, &b}, n);
    const uint8_t* valid = out->validity.empty() ? nullptr : out->validity.data();
    size_t sa = a.step(), sb = b.step();
    const char* failure = nullptr;
    switch (PhysicalTypeOf(type())) {
      case PhysicalType::kInt64: {
        const int64_t* x = a.vec->Data<int64_t>();
        const int64_t* y = b.vec->Data<int64_t>();
        int64_t* d = out->MutableData<int64_t>();
        bool overflow = false, zero = false;
        switch (op_) {
          case ArithOp::kAdd:
            for (int64_t i = 0; i < n; ++i) overflow |= __builtin_add_overflow(x[i * sa], y[i * sb], &d[i]);
            break;
          case ArithOp::kSubtract:
            for (int64_t i = 0; i < n; ++i) overflow |= __builtin_sub_overflow(x[i * sa], y[i * sb], &d[i]);
            break;
          case ArithOp::kMultiply:
            for (int64_t i = 0; i < n; ++i) overflow |= __builtin_mul_overflow(x[i * sa], y[i * sb], &d[i]);
            break;
          case ArithOp::kDivide:
          case ArithOp::kModulus:
            for (int64_t i = 0; i < n; ++i) {
              if (valid != nullptr && valid[i] == 0) continue;
              int64_t p = x[i * sa], q = y[i * sb];
              if (q == 0) {
                zero = true;
                break;
              }
              if (q == -1) {
                if (op_ == ArithOp::kDivide && p == INT64_MIN) overflow = true;
                d[i] = op_ == ArithOp::kDivide ? -p : 0;
              } else {
                d[i] = op_ == ArithOp::kDivide ? p / q : p % q;
              }
            }
            break;
        }
        if (zero) return std::unexpected(context.ErrorAt(location, Error(ErrorKind::kInvalidArgument, "Division by zero", ErrorCode::kDivisionByZero)));
        if (overflow) {
          // Recheck valid rows only (a null slot may hold anything).
          overflow = false;
          for (int64_t i = 0; i < n && !overflow; ++i) {
            if (valid != nullptr && valid[i] == 0) continue;
            int64_t r = 0;
            int64_t p = x[i * sa], q = y[i * sb];
            overflow = op_ == ArithOp::kAdd ? __builtin_add_overflow(p, q, &r) : op_ == ArithOp::kSubtract ? __builtin_sub_overflow(p, q, &r)
                     : op_ == ArithOp::kMultiply ? __builtin_mul_overflow(p, q, &r) : (p == INT64_MIN && q == -1);
          }
        }
        if (type().kind() != TypeKind::kBigint) {
          int64_t lo = type().kind() == TypeKind::kInteger ? INT32_MIN : type().kind() == TypeKind::kSmallint ? -32768 : -128;
          int64_t hi = type().kind() == TypeKind::kInteger ? INT32_MAX : type().kind() == TypeKind::kSmallint ? 32767 : 127;
          for (int64_t i = 0; i < n; ++i) overflow |= (valid == nullptr || valid[i]) && (d[i] < lo || d[i] > hi);
        }
        if (overflow) failure = "overflow";
        break;
      }
      case PhysicalType::kDouble: {
        const double* x = a.vec->Data<double>();
        const double* y = b.vec->Data<double>();
        double* d = out->MutableData<double>();
        switch (op_) {
          case ArithOp::kAdd: for (int64_t i = 0; i < n; ++i) d[i] = x[i * sa] + y[i * sb]; break;
          case ArithOp::kSubtract: for (int64_t i = 0; i < n; ++i) d[i] = x[i * sa] - y[i * sb]; break;
          case ArithOp::kMultiply: for (int64_t i = 0; i < n; ++i) d[i] = x[i * sa] * y[i * sb]; break;
          case ArithOp::kDivide: for (int64_t i = 0; i < n; ++i) d[i] = x[i * sa] / y[i * sb]; break;
          case ArithOp::kModulus: for (int64_t i = 0; i < n; ++i) d[i] = std::fmod(x[i * sa], y[i * sb]); break;
        }
        // REAL is float: a double result rounded once equals the float operation's result.
        if (type().kind() == TypeKind::kReal) RoundToReal(d, n);
        break;
      }
      case PhysicalType::kInt128: {
        if (UncheckedDecimalArithmetic(op_, a_->type(), b_->type(), type(), a, b, n, *out)) break;
        int sx = a_->type().scale(), sy = b_->type().scale(), rs = type().scale(), p = type().precision();
        Int128 fx = PowerOfTen(std::max(0, rs - sx)), fy = PowerOfTen(std::max(0, rs - sy));
        Int128 limit = PowerOfTen(p);
        bool rescale = op_ == ArithOp::kMultiply && sx + sy != rs;
        auto fits_int64 = [](Int128 v) { return v >= INT64_MIN && v <= INT64_MAX; };
        for (int64_t i = 0; i < n; ++i) {
          if (valid != nullptr && valid[i] == 0) continue;
          Int128 x = LoadI128(*a.vec, i * static_cast<int64_t>(sa)), y = LoadI128(*b.vec, i * static_cast<int64_t>(sb)), r = 0;
          bool o = false;
          if (op_ == ArithOp::kAdd || op_ == ArithOp::kSubtract) {
            if (fx == 1 && fy == 1 && fits_int64(x) && fits_int64(y)) {
              r = op_ == ArithOp::kAdd ? x + y : x - y;  // Cannot overflow 128 bits.
            } else {
              o = __builtin_mul_overflow(x, fx, &x) || __builtin_mul_overflow(y, fy, &y);
              r = op_ == ArithOp::kAdd ? x + y : x - y;
            }
          } else if (fits_int64(x) && fits_int64(y)) {
            // One 64x64->128-bit multiply: the product of two int64 values always fits.
            r = static_cast<Int128>(static_cast<int64_t>(x)) * static_cast<int64_t>(y);
            if (rescale) r = RescaleDecimal(r, sx + sy, rs);
          } else {
            o = __builtin_mul_overflow(x, y, &r);
            if (rescale) r = RescaleDecimal(r, sx + sy, rs);
          }
          if (o || r >= limit || r <= -limit) {
            failure = "Decimal overflow";
            break;
          }
          std::memcpy(out->values.data() + i * 16, &r, 16);
        }
        break;
      }
      default:
        return std::unexpected(Error(ErrorKind::kInternal, "arithmetic on a non-numeric vector"));
    }
    if (failure != nullptr) {
      static const char* kVerbs[] = {"addition", "subtraction", "multiplication", "division", "modulus"};
      std::string message = std::string_view(failure) == "overflow"
                                ? fmt::format("{} {} overflow", type().ToString(), kVerbs[static_cast<int>(op_)])
                                : failure;
      return std::unexpected(context.ErrorAt(location, Error(ErrorKind::kInvalidArgument, message)));
    }
    return VectorPtr(out);
  }

 private:
  ArithOp op_;
  ExprNodePtr a_, b_;
};

// ---- boolean logic

class LogicalNode final : public ExprNode {
 public:
  LogicalNode(bool is_and, std::vector<ExprNodePtr> args) : ExprNode(SqlType::Boolean()), is_and_(is_and), args_(std::move(args)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    int64_t n = chunk.rows;
    // state: 1 = TRUE, 0 = FALSE, 2 = NULL.
    std::vector<uint8_t> state(static_cast<size_t>(n), is_and_ ? 1 : 0);
    uint8_t absorbing = is_and_ ? 0 : 1;
    for (const auto& arg : args_) {
      FLOE_ASSIGN_OR_RETURN(Operand o, EvaluateOperand(*arg, chunk, context));
      const uint8_t* v = o.vec->Data<uint8_t>();
      size_t s = o.step();
      for (int64_t i = 0; i < n; ++i) {
        uint8_t& st = state[static_cast<size_t>(i)];
        if (st == absorbing) continue;
        if (!o.valid(i)) {
          st = 2;
        } else if ((v[static_cast<size_t>(i) * s] != 0) == (absorbing == 1)) {
          st = absorbing;
        }
      }
    }
    auto out = FixedResult(SqlType::Boolean(), n);
    uint8_t* d = out->MutableData<uint8_t>();
    bool nulls = false;
    for (int64_t i = 0; i < n; ++i) {
      d[i] = state[static_cast<size_t>(i)] == 1;
      nulls |= state[static_cast<size_t>(i)] == 2;
    }
    if (nulls) {
      out->validity.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) out->validity[static_cast<size_t>(i)] = state[static_cast<size_t>(i)] != 2;
    }
    return VectorPtr(out);
  }

 private:
  bool is_and_;
  std::vector<ExprNodePtr> args_;
};

class NotNode final : public ExprNode {
 public:
  explicit NotNode(ExprNodePtr arg) : ExprNode(SqlType::Boolean()), arg_(std::move(arg)) {}
  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, arg_->Evaluate(chunk, context));
    auto out = FixedResult(SqlType::Boolean(), chunk.rows);
    const uint8_t* s = in->Data<uint8_t>();
    uint8_t* d = out->MutableData<uint8_t>();
    for (int64_t i = 0; i < chunk.rows; ++i) d[i] = s[i] == 0;
    out->validity = in->validity;
    return VectorPtr(out);
  }

 private:
  ExprNodePtr arg_;
};

class IsNullNode final : public ExprNode {
 public:
  IsNullNode(ExprNodePtr arg, bool negated) : ExprNode(SqlType::Boolean()), arg_(std::move(arg)), negated_(negated) {}
  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, arg_->Evaluate(chunk, context));
    auto out = FixedResult(SqlType::Boolean(), chunk.rows);
    uint8_t* d = out->MutableData<uint8_t>();
    for (int64_t i = 0; i < chunk.rows; ++i) d[i] = in->IsValid(i) == negated_;
    return VectorPtr(out);
  }

 private:
  ExprNodePtr arg_;
  bool negated_;
};

// x [NOT] IN (a, b, ...): constant items go into a key table, others are compared row by row.
class InListNode final : public ExprNode {
 public:
  InListNode(ExprNodePtr subject, std::vector<ExprNodePtr> items, bool negated)
      : ExprNode(SqlType::Boolean()), subject_(std::move(subject)), items_(std::move(items)), negated_(negated) {
    auto keys = NewVector(subject_->type());
    for (const auto& item : items_) {
      if (const Value* v = item->constant()) {
        if (v->is_null()) {
          constant_null_ = true;
        } else {
          AppendValue(*keys, *v);
        }
      } else {
        variable_.push_back(item.get());
      }
    }
    KeyEncoder encoder;
    encoder.Encode({keys.get()}, keys->length);
    for (int64_t i = 0; i < keys->length; ++i) {
      bool inserted;
      set_.FindOrInsert(encoder.key(i), encoder.hash(i), inserted);
    }
    if (PhysicalTypeOf(subject_->type()) == PhysicalType::kInt64) {
      const int64_t* values = keys->Data<int64_t>();
      int_values_.assign(values, values + keys->length);
      std::sort(int_values_.begin(), int_values_.end());
      // Values within a small range (a join's keys published as a dynamic filter): one bit
      // per value of the range, looked up without a branch.
      if (!int_values_.empty()) {
        auto span = static_cast<uint64_t>(int_values_.back()) - static_cast<uint64_t>(int_values_.front());
        if (span < kMaxBitmapSpan) {
          bitmap_low_ = int_values_.front();
          bitmap_span_ = span + 1;
          bitmap_.assign(span / 64 + 1, 0);
          for (int64_t v : int_values_) {
            uint64_t at = static_cast<uint64_t>(v) - static_cast<uint64_t>(bitmap_low_);
            bitmap_[at / 64] |= uint64_t{1} << (at % 64);
          }
        }
      }
      // Past a few values, an open-addressing set: a search's branches would mispredict.
      if (bitmap_.empty() && int_values_.size() > 8) {
        size_t capacity = 16;
        while (capacity < int_values_.size() * 2) capacity *= 2;
        int_mask_ = capacity - 1;
        int_slots_.assign(capacity, 0);
        int_used_.assign(capacity, 0);
        for (int64_t v : int_values_) {
          size_t s = HashInt64(v) & int_mask_;
          while (int_used_[s] && int_slots_[s] != v) s = (s + 1) & int_mask_;
          int_slots_[s] = v;
          int_used_[s] = 1;
        }
      }
    }
  }

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr subject, subject_->Evaluate(chunk, context));
    int64_t n = chunk.rows;
    // Membership in the constant items, without encoding every row's key where it can:
    // integers by binary search, Parquet-dictionary strings once per distinct value.
    std::vector<uint8_t> member;
    KeyEncoder encoder;
    if (PhysicalTypeOf(subject_->type()) == PhysicalType::kInt64) {
      const int64_t* values = subject->Data<int64_t>();
      if (variable_.empty() && !constant_null_) {
        // Constant items only, none null: the answer is membership, null where the subject is.
        auto out = FixedResult(SqlType::Boolean(), n);
        uint8_t* d = out->MutableData<uint8_t>();
        if (!bitmap_.empty()) {
          for (int64_t i = 0; i < n; ++i) d[i] = InBitmap(values[i]) != negated_;
        } else if (int_slots_.empty()) {
          for (int64_t i = 0; i < n; ++i) d[i] = std::binary_search(int_values_.begin(), int_values_.end(), values[i]) != negated_;
        } else {
          for (int64_t i = 0; i < n; ++i) d[i] = ContainsInt(values[i]) != negated_;
        }
        if (!subject->validity.empty()) out->validity.assign(subject->validity.begin(), subject->validity.begin() + n);
        return VectorPtr(out);
      }
      member.resize(static_cast<size_t>(n));
      if (!bitmap_.empty()) {
        for (int64_t i = 0; i < n; ++i) member[static_cast<size_t>(i)] = InBitmap(values[i]);
      } else if (int_slots_.empty()) {
        for (int64_t i = 0; i < n; ++i) member[static_cast<size_t>(i)] = std::binary_search(int_values_.begin(), int_values_.end(), values[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) member[static_cast<size_t>(i)] = ContainsInt(values[i]);
      }
    } else if (subject->HasDictionary() && subject->dictionary->length < n) {
      const ColumnVector& dictionary = *subject->dictionary;
      encoder.Encode({&dictionary}, dictionary.length);
      std::vector<uint8_t> per_value(static_cast<size_t>(dictionary.length));
      for (int64_t v = 0; v < dictionary.length; ++v) per_value[static_cast<size_t>(v)] = set_.Find(encoder.key(v), encoder.hash(v)) >= 0;
      member.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) member[static_cast<size_t>(i)] = per_value[subject->dictionary_codes[static_cast<size_t>(i)]];
    } else {
      encoder.Encode({subject.get()}, n);
    }
    std::vector<VectorPtr> others;
    for (const ExprNode* item : variable_) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, item->Evaluate(chunk, context));
      others.push_back(std::move(v));
    }
    auto out = FixedResult(SqlType::Boolean(), n);
    uint8_t* d = out->MutableData<uint8_t>();
    std::vector<uint8_t> validity(static_cast<size_t>(n), 1);
    bool nulls = false;
    for (int64_t i = 0; i < n; ++i) {
      bool found = false, saw_null = constant_null_;
      if (!subject->IsValid(i)) {
        validity[static_cast<size_t>(i)] = 0;
        nulls = true;
        continue;
      }
      found = member.empty() ? set_.Find(encoder.key(i), encoder.hash(i)) >= 0 : member[static_cast<size_t>(i)] != 0;
      for (size_t k = 0; k < others.size() && !found; ++k) {
        if (!others[k]->IsValid(i)) {
          saw_null = true;
          continue;
        }
        auto c = CompareValues(GetValue(*subject, subject_->type(), i), GetValue(*others[k], subject_->type(), i));
        found = c && *c == 0;
      }
      if (!found && saw_null) {
        validity[static_cast<size_t>(i)] = 0;
        nulls = true;
        continue;
      }
      d[i] = found != negated_;
    }
    if (nulls) out->validity = std::move(validity);
    return VectorPtr(out);
  }

 private:
  ExprNodePtr subject_;
  std::vector<ExprNodePtr> items_;
  std::vector<const ExprNode*> variable_;
  KeyTable set_;
  bool ContainsInt(int64_t v) const {
    for (size_t s = HashInt64(v) & int_mask_; int_used_[s]; s = (s + 1) & int_mask_) {
      if (int_slots_[s] == v) return true;
    }
    return false;
  }

  bool InBitmap(int64_t v) const {
    uint64_t at = static_cast<uint64_t>(v) - static_cast<uint64_t>(bitmap_low_);
    // Out of range reads word 0 and masks the answer away: no branch.
    bool inside = at < bitmap_span_;
    uint64_t word = bitmap_[inside ? at / 64 : 0];
    return inside & ((word >> (at % 64)) & 1);
  }

  // A bitmap over at most 2^20 values (128 KiB) stays in cache.
  static constexpr uint64_t kMaxBitmapSpan = uint64_t{1} << 20;
  std::vector<int64_t> int_values_;  // The constant items, sorted, when the subject is int64.
  std::vector<uint64_t> bitmap_;     // Or as bits from bitmap_low_, when their range is small.
  int64_t bitmap_low_ = 0;
  uint64_t bitmap_span_ = 0;
  std::vector<int64_t> int_slots_;   // And as a set when there are more than a few.
  std::vector<uint8_t> int_used_;
  size_t int_mask_ = 0;
  bool constant_null_ = false;
  bool negated_;
};

// Assembles a result from pieces computed for subsets of rows.
VectorPtr Assemble(const SqlType& type, int64_t n, const std::vector<VectorPtr>& pieces, const std::vector<int32_t>& piece_of,
                   const std::vector<uint32_t>& position) {
  auto out = NewVector(type, n);
  for (int64_t i = 0; i < n; ++i) {
    int32_t p = piece_of[static_cast<size_t>(i)];
    if (p < 0) {
      out->AppendNull();
    } else {
      AppendFrom(*out, *pieces[static_cast<size_t>(p)], position[static_cast<size_t>(i)]);
    }
  }
  return out;
}

class CaseNode final : public ExprNode {
 public:
  CaseNode(SqlType type, std::vector<ExprNodePtr> whens, std::vector<ExprNodePtr> thens, ExprNodePtr otherwise)
      : ExprNode(std::move(type)), whens_(std::move(whens)), thens_(std::move(thens)), else_(std::move(otherwise)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    int64_t n = chunk.rows;
    std::vector<int32_t> piece_of(static_cast<size_t>(n), -1);
    std::vector<uint32_t> position(static_cast<size_t>(n), 0);
    std::vector<VectorPtr> pieces;
    std::vector<uint32_t> remaining(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) remaining[static_cast<size_t>(i)] = static_cast<uint32_t>(i);
    DataChunk current = chunk;
    auto take = [&](const ExprNode& branch, const std::vector<uint32_t>& local, const DataChunk& from) -> Status {
      if (local.empty()) return OkStatus();
      DataChunk sub = local.size() == static_cast<size_t>(from.rows) ? from : GatherChunk(from, local);
      FLOE_ASSIGN_OR_RETURN(VectorPtr values, branch.Evaluate(sub, context));
      auto piece = static_cast<int32_t>(pieces.size());
      pieces.push_back(std::move(values));
      for (size_t k = 0; k < local.size(); ++k) {
        uint32_t row = remaining[local[k]];
        piece_of[row] = piece;
        position[row] = static_cast<uint32_t>(k);
      }
      return OkStatus();
    };
    for (size_t w = 0; w < whens_.size() && !remaining.empty(); ++w) {
      FLOE_ASSIGN_OR_RETURN(auto selected, SelectTrueRows(*whens_[w], current, context));
      FLOE_RETURN_IF_ERROR(take(*thens_[w], selected, current));
      if (selected.empty()) continue;
      std::vector<uint32_t> rest, rest_rows;
      size_t s = 0;
      for (uint32_t k = 0; k < remaining.size(); ++k) {
        if (s < selected.size() && selected[s] == k) {
          ++s;
          continue;
        }
        rest.push_back(k);
        rest_rows.push_back(remaining[k]);
      }
      current = GatherChunk(current, rest);
      remaining = std::move(rest_rows);
    }
    if (else_ && !remaining.empty()) {
      std::vector<uint32_t> all(remaining.size());
      for (uint32_t k = 0; k < all.size(); ++k) all[k] = k;
      FLOE_RETURN_IF_ERROR(take(*else_, all, current));
    }
    return Assemble(type(), n, pieces, piece_of, position);
  }

 private:
  std::vector<ExprNodePtr> whens_, thens_;
  ExprNodePtr else_;
};

// ---- casts

class CastNode final : public ExprNode {
 public:
  CastNode(SqlType type, ExprNodePtr arg, bool try_cast) : ExprNode(std::move(type)), arg_(std::move(arg)), try_cast_(try_cast) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, arg_->Evaluate(chunk, context));
    const SqlType& from = arg_->type();
    const SqlType& to = type();
    int64_t n = chunk.rows;
    if (from.IsUnknown()) return ConstantVector(Value::Null(to), n);
    TypeKind fk = from.kind(), tk = to.kind();
    bool from_int = from.IsInteger();
    // Same representation, no range to check: reuse the vector.
    if ((from_int && tk == TypeKind::kBigint) || (from_int && to.IsInteger() && IntegerRank(to) >= IntegerRank(from)) ||
        ((fk == TypeKind::kTimestamp || fk == TypeKind::kTimestampTz) && (tk == TypeKind::kTimestamp || tk == TypeKind::kTimestampTz)) ||
        (fk == TypeKind::kReal && tk == TypeKind::kDouble) || (fk == TypeKind::kVarchar && tk == TypeKind::kVarbinary)) {
      return in;
    }
    if (from_int && (tk == TypeKind::kDouble || tk == TypeKind::kReal)) {
      auto out = FixedResult(to, n);
      const int64_t* s = in->Data<int64_t>();
      double* d = out->MutableData<double>();
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<double>(s[i]);
      if (tk == TypeKind::kReal) RoundToReal(d, n);
      out->validity = in->validity;
      return VectorPtr(out);
    }
    if (from_int && tk == TypeKind::kDecimal && to.precision() - to.scale() >= 19) {
      auto out = FixedResult(to, n);
      const int64_t* s = in->Data<int64_t>();
      Int128 f = PowerOfTen(to.scale());
      for (int64_t i = 0; i < n; ++i) {
        Int128 v = static_cast<Int128>(s[i]) * f;
        std::memcpy(out->values.data() + i * 16, &v, 16);
      }
      out->validity = in->validity;
      return VectorPtr(out);
    }
    if (fk == TypeKind::kDecimal && tk == TypeKind::kDecimal && to.scale() >= from.scale() &&
        to.precision() - to.scale() >= from.precision() - from.scale()) {
      auto out = FixedResult(to, n);
      Int128 f = PowerOfTen(to.scale() - from.scale());
      for (int64_t i = 0; i < n; ++i) {
        Int128 v = LoadI128(*in, i) * f;
        std::memcpy(out->values.data() + i * 16, &v, 16);
      }
      out->validity = in->validity;
      return VectorPtr(out);
    }
    if (fk == TypeKind::kDecimal && (tk == TypeKind::kDouble || tk == TypeKind::kReal)) {
      auto out = FixedResult(to, n);
      double* d = out->MutableData<double>();
      double f = static_cast<double>(PowerOfTen(from.scale()));
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<double>(LoadI128(*in, i)) / f;
      if (tk == TypeKind::kReal) RoundToReal(d, n);
      out->validity = in->validity;
      return VectorPtr(out);
    }
    if (fk == TypeKind::kDate && (tk == TypeKind::kTimestamp || tk == TypeKind::kTimestampTz)) {
      auto out = FixedResult(to, n);
      const int64_t* s = in->Data<int64_t>();
      int64_t* d = out->MutableData<int64_t>();
      for (int64_t i = 0; i < n; ++i) d[i] = s[i] * kMicrosPerDay;
      out->validity = in->validity;
      return VectorPtr(out);
    }
    if ((fk == TypeKind::kTimestamp || fk == TypeKind::kTimestampTz) && tk == TypeKind::kDate) {
      auto out = FixedResult(to, n);
      const int64_t* s = in->Data<int64_t>();
      int64_t* d = out->MutableData<int64_t>();
      for (int64_t i = 0; i < n; ++i) d[i] = FloorDiv(s[i], kMicrosPerDay);
      out->validity = in->validity;
      return VectorPtr(out);
    }
    // Row by row through the constant caster.
    auto out = NewVector(to, n);
    for (int64_t i = 0; i < n; ++i) {
      Value v = GetValue(*in, from, i);
      auto cast = CastValue(v, to);
      if (!cast) {
        if (try_cast_) {
          out->AppendNull();
          continue;
        }
        std::string shown = fk == TypeKind::kVarchar ? fmt::format("'{}'", v.ToText()) : v.ToText();
        return std::unexpected(context.ErrorAt(location, Error(ErrorKind::kInvalidArgument,
                                                               fmt::format("Cannot cast {} {} to {}", from.ToString(), shown, to.ToString()))));
      }
      AppendValue(*out, *cast);
    }
    return VectorPtr(out);
  }

 private:
  static int IntegerRank(const SqlType& t) {
    switch (t.kind()) {
      case TypeKind::kTinyint: return 1;
      case TypeKind::kSmallint: return 2;
      case TypeKind::kInteger: return 3;
      default: return 4;
    }
  }

  ExprNodePtr arg_;
  bool try_cast_;
};

// ---- vectorized functions

class LikeNode final : public ExprNode {
 public:
  LikeNode(ExprNodePtr text, std::string pattern, char escape, bool ignore_case)
      : ExprNode(SqlType::Boolean()), text_(std::move(text)), pattern_(std::move(pattern)), escape_(escape), ignore_case_(ignore_case) {
    if (ignore_case_) {
      for (char& c : pattern_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    // A pattern of literals and '%' only ('%special%requests%', 'abc%', '%BRASS') is its
    // literal segments found in order: a substring search each, no backtracking.
    segments_ = escape_ == '\0' && pattern_.find('_') == std::string::npos;
    if (segments_) {
      size_t at = 0;
      while (true) {
        size_t percent = pattern_.find('%', at);
        parts_.push_back(pattern_.substr(at, percent == std::string::npos ? std::string::npos : percent - at));
        if (percent == std::string::npos) break;
        at = percent + 1;
      }
    }
  }

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, text_->Evaluate(chunk, context));
    auto out = FixedResult(SqlType::Boolean(), chunk.rows);
    uint8_t* d = out->MutableData<uint8_t>();
    std::string lowered;
    auto matches = [&](std::string_view s) -> uint8_t {
      if (ignore_case_) {
        lowered.assign(s);
        for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        s = lowered;
      }
      return segments_ ? MatchesSegments(s) : LikeMatches(s, pattern_, escape_);
    };
    if (in->HasDictionary() && in->dictionary->length < chunk.rows) {
      // Each distinct value once (strings straight from a Parquet dictionary).
      const ColumnVector& dictionary = *in->dictionary;
      std::vector<uint8_t> per_value(static_cast<size_t>(dictionary.length));
      for (int64_t v = 0; v < dictionary.length; ++v) per_value[static_cast<size_t>(v)] = matches(dictionary.StringAt(v));
      for (int64_t i = 0; i < chunk.rows; ++i) d[i] = per_value[in->dictionary_codes[static_cast<size_t>(i)]];
    } else {
      for (int64_t i = 0; i < chunk.rows; ++i) d[i] = matches(in->StringAt(i));
    }
    out->validity = in->validity;
    return VectorPtr(out);
  }

 private:
  // parts_[0] must start the text and parts_.back() end it (each may be empty: a pattern that
  // starts or ends with '%'); the others appear in order between them without overlapping.
  uint8_t MatchesSegments(std::string_view s) const {
    if (parts_.size() == 1) return s == parts_[0];
    const std::string& head = parts_.front();
    const std::string& tail = parts_.back();
    if (s.size() < head.size() + tail.size() || !s.starts_with(head) || !s.ends_with(tail)) return 0;
    size_t at = head.size(), end = s.size() - tail.size();
    for (size_t i = 1; i + 1 < parts_.size(); ++i) {
      const std::string& part = parts_[i];
      if (part.empty()) continue;
      size_t found = s.substr(0, end).find(part, at);
      if (found == std::string_view::npos) return 0;
      at = found + part.size();
    }
    return 1;
  }

  ExprNodePtr text_;
  std::string pattern_;
  char escape_;
  bool ignore_case_;
  bool segments_ = false;
  std::vector<std::string> parts_;
};

class DateTruncNode final : public ExprNode {
 public:
  DateTruncNode(SqlType type, std::string unit, ExprNodePtr arg) : ExprNode(std::move(type)), unit_(std::move(unit)), arg_(std::move(arg)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, arg_->Evaluate(chunk, context));
    bool is_date = arg_->type().kind() == TypeKind::kDate;
    auto out = FixedResult(type(), chunk.rows);
    const int64_t* s = in->Data<int64_t>();
    int64_t* d = out->MutableData<int64_t>();
    int64_t step = unit_ == "second" ? kMicrosPerSecond : unit_ == "minute" ? 60 * kMicrosPerSecond
                 : unit_ == "hour" ? 3600 * kMicrosPerSecond : unit_ == "day" ? kMicrosPerDay : 0;
    if (step > 0 && !is_date) {
      for (int64_t i = 0; i < chunk.rows; ++i) d[i] = FloorDiv(s[i], step) * step;
    } else {
      for (int64_t i = 0; i < chunk.rows; ++i) {
        int64_t micros = is_date ? s[i] * kMicrosPerDay : s[i];
        int64_t t = TruncateMicros(unit_, micros).value_or(micros);
        d[i] = is_date ? FloorDiv(t, kMicrosPerDay) : t;
      }
    }
    out->validity = in->validity;
    return VectorPtr(out);
  }

 private:
  std::string unit_;
  ExprNodePtr arg_;
};

class ExtractNode final : public ExprNode {
 public:
  ExtractNode(SqlType type, std::string field, ExprNodePtr arg) : ExprNode(std::move(type)), field_(std::move(field)), arg_(std::move(arg)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, arg_->Evaluate(chunk, context));
    bool is_date = arg_->type().kind() == TypeKind::kDate;
    auto out = FixedResult(type(), chunk.rows);
    const int64_t* s = in->Data<int64_t>();
    int64_t* d = out->MutableData<int64_t>();
    for (int64_t i = 0; i < chunk.rows; ++i) {
      if (!in->IsValid(i)) continue;
      d[i] = ExtractField(field_, is_date ? s[i] * kMicrosPerDay : s[i]).value_or(0);
    }
    out->validity = in->validity;
    return VectorPtr(out);
  }

 private:
  std::string field_;
  ExprNodePtr arg_;
};

// now(), random(), uuid(), current_date, ...: values that are not functions of their input.
class VolatileNode final : public ExprNode {
 public:
  VolatileNode(std::string name, SqlType type, std::vector<ExprNodePtr> args)
      : ExprNode(std::move(type)), name_(std::move(name)), args_(std::move(args)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    int64_t n = chunk.rows;
    if (name_ == "now" || name_ == "current_timestamp" || name_ == "localtimestamp") {
      return ConstantVector(Value::Int(type(), context.start_micros()), n);
    }
    if (name_ == "current_date") return ConstantVector(Value::Int(type(), FloorDiv(context.start_micros(), kMicrosPerDay)), n);
    if (name_ == "current_user") return ConstantVector(Value::String(type(), "floe"), n);
    if (name_ == "current_catalog") return ConstantVector(Value::String(type(), context.session_catalog), n);
    if (name_ == "current_schema") return ConstantVector(Value::String(type(), context.session_schema), n);
    thread_local std::mt19937_64 rng{std::random_device{}()};
    auto out = NewVector(type(), n);
    if (name_ == "uuid") {
      for (int64_t i = 0; i < n; ++i) {
        uint64_t hi = rng(), lo = rng();
        hi = (hi & ~0xF000ull) | 0x4000ull;
        lo = (lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
        std::string h = fmt::format("{:016x}{:016x}", hi, lo);
        out->AppendString(h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20));
      }
      return VectorPtr(out);
    }
    if (type().kind() == TypeKind::kBigint) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr bound, args_[0]->Evaluate(chunk, context));
      for (int64_t i = 0; i < n; ++i) {
        int64_t limit = bound->Data<int64_t>()[i];
        if (!bound->IsValid(i)) {
          out->AppendNull();
          continue;
        }
        if (limit <= 0) return std::unexpected(context.ErrorAt(location, Error(ErrorKind::kInvalidArgument, "bound must be positive")));
        out->Append<int64_t>(static_cast<int64_t>(rng() % static_cast<uint64_t>(limit)));
      }
      return VectorPtr(out);
    }
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) out->Append<double>(uniform(rng));
    return VectorPtr(out);
  }

 private:
  std::string name_;
  std::vector<ExprNodePtr> args_;
};

// ---- subqueries

class SubqueryNode final : public ExprNode {
 public:
  SubqueryNode(const BoundSubquery& expr, ExprNodePtr left, std::vector<std::pair<ColumnId, ExprNodePtr>> correlated,
               std::map<ColumnId, Value> fixed_outer)
      : ExprNode(expr.type),
        kind_(expr.subquery_kind),
        plan_(expr.plan),
        compare_op_(expr.compare_op),
        all_(expr.quantifier_all),
        left_(std::move(left)),
        correlated_(std::move(correlated)),
        fixed_outer_(std::move(fixed_outer)) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    int64_t n = chunk.rows;
    VectorPtr left;
    if (left_) {
      FLOE_ASSIGN_OR_RETURN(left, left_->Evaluate(chunk, context));
    }
    if (correlated_.empty()) {
      FLOE_ASSIGN_OR_RETURN(const Outcome* outcome, Get(fixed_outer_, context));
      return Apply(*outcome, left, 0, n, context);
    }
    std::vector<VectorPtr> inputs;
    for (const auto& [id, node] : correlated_) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, node->Evaluate(chunk, context));
      inputs.push_back(std::move(v));
    }
    auto out = NewVector(type(), n);
    for (int64_t i = 0; i < n; ++i) {
      std::map<ColumnId, Value> outer = fixed_outer_;
      for (size_t k = 0; k < correlated_.size(); ++k) {
        outer[correlated_[k].first] = GetValue(*inputs[k], correlated_[k].second->type(), i);
      }
      FLOE_ASSIGN_OR_RETURN(const Outcome* outcome, Get(outer, context));
      FLOE_ASSIGN_OR_RETURN(VectorPtr one, Apply(*outcome, left, i, 1, context));
      AppendFrom(*out, *one, 0);
    }
    return VectorPtr(out);
  }

 private:
  struct Outcome {
    std::vector<DataChunk> chunks;
    int64_t rows = 0;
    KeyTable set;        // kIn: the subquery's values.
    bool has_null = false;
    std::vector<Value> values;  // kQuantified.
  };

  Result<const Outcome*> Get(const std::map<ColumnId, Value>& outer, QueryContext& context) const {
    std::string key;
    for (const auto& [id, v] : outer) key += v.ToSql() + '\x01';
    {
      std::lock_guard lock(mutex_);
      auto it = cache_.find(key);
      if (it != cache_.end()) return it->second.get();
    }
    if (context.subqueries == nullptr) return std::unexpected(Error(ErrorKind::kInternal, "no subquery runner"));
    // An uncorrelated subquery runs once: the pipeline's other workers, which all reach it at
    // the start, wait for it rather than run it too. Correlated ones run per key in parallel.
    std::unique_lock run(run_mutex_, std::defer_lock);
    if (correlated_.empty()) run.lock();
    {
      std::lock_guard lock(mutex_);
      auto it = cache_.find(key);
      if (it != cache_.end()) return it->second.get();
    }
    FLOE_ASSIGN_OR_RETURN(auto chunks, context.subqueries->RunSubquery(*plan_, outer));
    auto outcome = std::make_unique<Outcome>();
    for (const auto& c : chunks) outcome->rows += c.rows;
    if (kind_ == SubqueryKind::kIn) {
      KeyEncoder encoder;
      for (const auto& c : chunks) {
        encoder.Encode({c.columns[0].get()}, c.rows);
        for (int64_t i = 0; i < c.rows; ++i) {
          if (encoder.has_null(i)) {
            outcome->has_null = true;
            continue;
          }
          bool inserted;
          outcome->set.FindOrInsert(encoder.key(i), encoder.hash(i), inserted);
        }
      }
    } else if (kind_ == SubqueryKind::kQuantified) {
      for (const auto& c : chunks) {
        for (int64_t i = 0; i < c.rows; ++i) outcome->values.push_back(GetValue(*c.columns[0], plan_->output[0].type, i));
      }
    }
    if (kind_ == SubqueryKind::kScalar && outcome->rows > 1) {
      return std::unexpected(context.ErrorAt(location, Error(ErrorKind::kInvalidArgument, "Scalar sub-query has returned multiple rows")));
    }
    outcome->chunks = std::move(chunks);
    std::lock_guard lock(mutex_);
    auto& slot = cache_[key];
    if (!slot) slot = std::move(outcome);
    return slot.get();
  }

  // The subquery's answer for rows [first, first + count) of the outer chunk.
  Result<VectorPtr> Apply(const Outcome& outcome, const VectorPtr& left, int64_t first, int64_t count, QueryContext& context) const {
    switch (kind_) {
      case SubqueryKind::kScalar: {
        Value v = Value::Null(type());
        for (const auto& c : outcome.chunks) {
          if (c.rows > 0) v = GetValue(*c.columns[0], type(), 0);
        }
        return ConstantVector(v, count);
      }
      case SubqueryKind::kExists:
        return ConstantVector(Value::Boolean(outcome.rows > 0), count);
      case SubqueryKind::kIn: {
        auto out = FixedResult(SqlType::Boolean(), count);
        uint8_t* d = out->MutableData<uint8_t>();
        DataChunk slice;
        slice.columns.push_back(left);
        slice.rows = left->length;
        DataChunk part = SliceChunk(slice, first, count);
        KeyEncoder encoder;
        encoder.Encode({part.columns[0].get()}, count);
        std::vector<uint8_t> validity(static_cast<size_t>(count), 1);
        bool nulls = false;
        for (int64_t i = 0; i < count; ++i) {
          if (outcome.rows == 0) continue;  // x IN (empty) is false, even for NULL x.
          if (encoder.has_null(i)) {
            validity[static_cast<size_t>(i)] = 0;
            nulls = true;
            continue;
          }
          bool found = outcome.set.Find(encoder.key(i), encoder.hash(i)) >= 0;
          if (!found && outcome.has_null) {
            validity[static_cast<size_t>(i)] = 0;
            nulls = true;
            continue;
          }
          d[i] = found;
        }
        if (nulls) out->validity = std::move(validity);
        return VectorPtr(out);
      }
      case SubqueryKind::kQuantified: {
        auto out = NewVector(SqlType::Boolean(), count);
        const SqlType& lt = left_->type();
        for (int64_t i = 0; i < count; ++i) {
          Value x = GetValue(*left, lt, first + i);
          // ALL: true unless some comparison is false (null if unknown); ANY: the dual.
          bool saw_null = false, decided = false;
          for (const Value& y : outcome.values) {
            if (x.is_null() || y.is_null()) {
              saw_null = true;
              continue;
            }
            auto r = EvaluateScalarCall(compare_op_, SqlType::Boolean(), {x, y});
            if (!r.has_value()) return std::unexpected(context.ErrorAt(location, r.error()));
            if (r->is_null()) {
              saw_null = true;
            } else if (r->as_bool() != all_) {
              decided = true;
              break;
            }
          }
          if (decided) {
            out->Append<uint8_t>(all_ ? 0 : 1);
          } else if (saw_null) {
            out->AppendNull();
          } else {
            out->Append<uint8_t>(all_ ? 1 : 0);
          }
        }
        return VectorPtr(out);
      }
    }
    return std::unexpected(Error(ErrorKind::kInternal, "unknown subquery kind"));
  }

  SubqueryKind kind_;
  std::shared_ptr<const LogicalOperator> plan_;
  std::string compare_op_;
  bool all_;
  ExprNodePtr left_;
  std::vector<std::pair<ColumnId, ExprNodePtr>> correlated_;
  std::map<ColumnId, Value> fixed_outer_;
  mutable std::mutex run_mutex_;  // Held while an uncorrelated subquery runs (mutex_ guards cache_).
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<Outcome>> cache_;
};

std::optional<CompareOp> ComparisonOf(const std::string& name) {
  if (name == "eq") return CompareOp::kEq;
  if (name == "neq") return CompareOp::kNeq;
  if (name == "lt") return CompareOp::kLt;
  if (name == "lte") return CompareOp::kLte;
  if (name == "gt") return CompareOp::kGt;
  if (name == "gte") return CompareOp::kGte;
  return std::nullopt;
}

std::optional<ArithOp> ArithmeticOf(const std::string& name) {
  if (name == "add") return ArithOp::kAdd;
  if (name == "subtract") return ArithOp::kSubtract;
  if (name == "multiply") return ArithOp::kMultiply;
  if (name == "divide") return ArithOp::kDivide;
  if (name == "modulus") return ArithOp::kModulus;
  return std::nullopt;
}

Result<ExprNodePtr> Compile(const BoundExpr& e, const ColumnLayout& layout);

// ---- casts of arrays and maps

bool IsNestedCast(const SqlType& from, const SqlType& to) {
  return (from.kind() == TypeKind::kArray && to.kind() == TypeKind::kArray) ||
         (from.kind() == TypeKind::kMap && to.kind() == TypeKind::kMap) ||
         (from.kind() == TypeKind::kRow && to.kind() == TypeKind::kRow && from.fields().size() == to.fields().size()) ||
         (from.IsUnknown() && CanCarry(to));
}

Result<ExprNodePtr> CompileNestedCast(const SqlType& to, ExprNodePtr arg, bool try_cast);

// A cast of one vector's values, nested or not, compiled over a one-column chunk.
Result<ExprNodePtr> CompileCastOf(const SqlType& to, const SqlType& from, bool try_cast) {
  ExprNodePtr column = std::make_unique<ColumnNode>(from, 0);
  if (from == to) return column;
  if (IsNestedCast(from, to)) return CompileNestedCast(to, std::move(column), try_cast);
  if (!IsExecutable(to) || !IsExecutable(from)) {
    return NotImplemented("casts from {} to {} are not supported by the executor yet", from.ToString(), to.ToString());
  }
  return ExprNodePtr(std::make_unique<CastNode>(to, std::move(column), try_cast));
}

// CAST(array(A) AS array(B)), CAST(map(K,V) AS map(K2,V2)) and CAST(row(A, ...) AS row(B, ...)):
// the element (key, value, field) vectors are cast as columns of their own, the offsets and
// nulls kept. A failed element cast fails the query; under TRY_CAST it makes the whole array,
// map or row NULL, as in Trino (an element whose cast gave NULL from a non-NULL value failed).
class NestedCastNode final : public ExprNode {
 public:
  NestedCastNode(SqlType type, ExprNodePtr arg, std::vector<ExprNodePtr> child_casts, bool try_cast)
      : ExprNode(std::move(type)), arg_(std::move(arg)), child_casts_(std::move(child_casts)), try_cast_(try_cast) {}

  Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const override {
    FLOE_ASSIGN_OR_RETURN(VectorPtr in, arg_->Evaluate(chunk, context));
    auto out = NewVector(type());
    out->length = in->length;
    out->validity = in->validity;
    out->offsets = in->offsets;
    for (size_t c = 0; c < child_casts_.size(); ++c) {
      DataChunk elements;
      elements.columns.push_back(VectorPtr(in, &in->children[c]));
      elements.rows = in->children[c].length;
      FLOE_ASSIGN_OR_RETURN(VectorPtr cast, child_casts_[c]->Evaluate(elements, context));
      out->children[c] = *cast;
      if (try_cast_) NullWhereAnElementFailed(in->children[c], out->children[c], *out);
    }
    return VectorPtr(out);
  }

 private:
  static void NullWhereAnElementFailed(const ColumnVector& before, const ColumnVector& after, ColumnVector& out) {
    bool row = out.offsets.empty();  // A row's field c of slot i is child slot i.
    for (int64_t slot = 0; slot < out.length; ++slot) {
      if (!out.IsValid(slot)) continue;
      int32_t begin = row ? static_cast<int32_t>(slot) : out.offsets[static_cast<size_t>(slot)];
      int32_t end = row ? begin + 1 : out.offsets[static_cast<size_t>(slot) + 1];
      for (int32_t e = begin; e < end; ++e) {
        if (before.IsValid(e) && !after.IsValid(e)) {
          if (out.validity.empty()) out.validity.assign(static_cast<size_t>(out.length), 1);
          out.validity[static_cast<size_t>(slot)] = 0;
          break;
        }
      }
    }
  }

  ExprNodePtr arg_;
  std::vector<ExprNodePtr> child_casts_;
  bool try_cast_;
};

Result<ExprNodePtr> CompileNestedCast(const SqlType& to, ExprNodePtr arg, bool try_cast) {
  SqlType from = arg->type();
  if (from.IsUnknown()) return ExprNodePtr(std::make_unique<CastNode>(to, std::move(arg), try_cast));
  std::vector<ExprNodePtr> child_casts;
  if (to.kind() == TypeKind::kRow) {
    for (size_t f = 0; f < to.fields().size(); ++f) {
      FLOE_ASSIGN_OR_RETURN(auto field, CompileCastOf(to.fields()[f].type, from.fields()[f].type, try_cast));
      child_casts.push_back(std::move(field));
    }
    return ExprNodePtr(std::make_unique<NestedCastNode>(to, std::move(arg), std::move(child_casts), try_cast));
  }
  FLOE_ASSIGN_OR_RETURN(auto first, CompileCastOf(to.element(), from.element(), try_cast));
  child_casts.push_back(std::move(first));
  if (to.kind() == TypeKind::kMap) {
    FLOE_ASSIGN_OR_RETURN(auto values, CompileCastOf(to.value(), from.value(), try_cast));
    child_casts.push_back(std::move(values));
  }
  return ExprNodePtr(std::make_unique<NestedCastNode>(to, std::move(arg), std::move(child_casts), try_cast));
}

Result<std::vector<ExprNodePtr>> CompileArgs(const BoundExpr& e, const ColumnLayout& layout) {
  std::vector<ExprNodePtr> out;
  for (const auto& arg : e.args) {
    FLOE_ASSIGN_OR_RETURN(auto node, Compile(*arg, layout));
    out.push_back(std::move(node));
  }
  return out;
}

Result<ExprNodePtr> CompileCall(const BoundExpr& e, const ColumnLayout& layout) {
  const std::string& name = e.As<BoundCall>().name;
  if (name == "field_access" && e.args.size() == 2 && e.args[0]->type.kind() == TypeKind::kRow && CanCarry(e.args[0]->type) &&
      CanCarry(e.type) && e.args[1]->kind == BoundKind::kConstant) {
    const std::string& field = e.args[1]->As<BoundConstant>().value.as_string();
    const auto& fields = e.args[0]->type.fields();
    for (size_t f = 0; f < fields.size(); ++f) {
      if (fields[f].name != field) continue;
      FLOE_ASSIGN_OR_RETURN(auto row, Compile(*e.args[0], layout));
      return ExprNodePtr(std::make_unique<FieldAccessNode>(e.type, std::move(row), f));
    }
  }
  if (IsNestedFunction(name) || (name == "concat" && e.type.kind() == TypeKind::kArray)) {
    // Array and map functions: their kernels read and build nested vectors.
    for (const auto& arg : e.args) {
      if (!CanCarry(arg->type))
        return NotImplemented("{}() on values of type {} is not supported by the executor yet", name,
                              arg->type.ToString());
    }
    if (!CanCarry(e.type))
      return NotImplemented("{}() of type {} is not supported by the executor yet", name, e.type.ToString());
    FLOE_ASSIGN_OR_RETURN(auto args, CompileArgs(e, layout));
    const VectorKernel& kernel =
        name == "concat" ? ArrayConcatKernel() : FunctionRegistry::BuiltIn().Find(name)->kernel;
    return ExprNodePtr(std::make_unique<KernelCallNode>(kernel, e.type, std::move(args)));
  }
  if (name == "field_access") {
    return NotImplemented("{} on nested types is not supported by the executor yet", name);
  }
  bool chooses = (name == "if" || name == "coalesce") && CanCarry(e.type);
  if (!IsExecutable(e.type) && !chooses) {
    return NotImplemented("expressions of type {} are not supported by the executor yet", e.type.ToString());
  }
  FLOE_ASSIGN_OR_RETURN(auto args, CompileArgs(e, layout));
  if (auto op = ComparisonOf(name); op && args.size() == 2 && args[0]->type() == args[1]->type() && IsExecutable(args[0]->type())) {
    return ExprNodePtr(std::make_unique<CompareNode>(*op, std::move(args[0]), std::move(args[1])));
  }
  if (auto op = ArithmeticOf(name); op && args.size() == 2) {
    const SqlType& t = e.type;
    bool ints = t.IsInteger() && args[0]->type().IsInteger() && args[1]->type().IsInteger();
    bool doubles = t.kind() == TypeKind::kDouble && args[0]->type().kind() == TypeKind::kDouble && args[1]->type().kind() == TypeKind::kDouble;
    bool decimals = t.kind() == TypeKind::kDecimal && args[0]->type().kind() == TypeKind::kDecimal &&
                    args[1]->type().kind() == TypeKind::kDecimal &&
                    (*op == ArithOp::kAdd || *op == ArithOp::kSubtract || *op == ArithOp::kMultiply);
    if (ints || doubles || decimals) return ExprNodePtr(std::make_unique<ArithmeticNode>(*op, t, std::move(args[0]), std::move(args[1])));
  }
  if ((name == "like" || name == "ilike") && args.size() >= 2 && args[1]->constant() != nullptr &&
      (args.size() == 2 || args[2]->constant() != nullptr)) {
    const Value& pattern = *args[1]->constant();
    std::optional<Value> escape = args.size() > 2 ? std::optional<Value>(*args[2]->constant()) : std::nullopt;
    if (!pattern.is_null() && !(escape && escape->is_null())) {
      char esc = escape && !escape->as_string().empty() ? escape->as_string()[0] : '\0';
      return ExprNodePtr(std::make_unique<LikeNode>(std::move(args[0]), pattern.as_string(), esc, name == "ilike"));
    }
  }
  if (name == "date_trunc" && args.size() == 2 && args[0]->constant() != nullptr && !args[0]->constant()->is_null()) {
    return ExprNodePtr(std::make_unique<DateTruncNode>(e.type, args[0]->constant()->as_string(), std::move(args[1])));
  }
  if (name == "extract" && args.size() == 2 && args[0]->constant() != nullptr && !args[0]->constant()->is_null() &&
      args[1]->type().IsTemporal() && args[1]->type().kind() != TypeKind::kTime) {
    return ExprNodePtr(std::make_unique<ExtractNode>(e.type, args[0]->constant()->as_string(), std::move(args[1])));
  }
  static const char* kFields[] = {"year", "quarter", "month", "week", "day", "day_of_week", "dow", "day_of_year", "doy",
                                  "hour", "minute", "second", "millisecond", "day_of_month"};
  for (const char* field : kFields) {
    if (name == field && args.size() == 1 && args[0]->type().IsTemporal() && args[0]->type().kind() != TypeKind::kTime) {
      return ExprNodePtr(std::make_unique<ExtractNode>(e.type, name, std::move(args[0])));
    }
  }
  if (name == "if" && (args.size() == 2 || args.size() == 3)) {
    std::vector<ExprNodePtr> whens, thens;
    whens.push_back(std::move(args[0]));
    thens.push_back(std::move(args[1]));
    ExprNodePtr otherwise = args.size() == 3 ? std::move(args[2]) : nullptr;
    return ExprNodePtr(std::make_unique<CaseNode>(e.type, std::move(whens), std::move(thens), std::move(otherwise)));
  }
  static const char* kVolatile[] = {"now", "current_timestamp", "localtimestamp", "current_date", "random", "rand", "uuid",
                                    "current_user", "current_catalog", "current_schema"};
  for (const char* v : kVolatile) {
    if (name == v) return ExprNodePtr(std::make_unique<VolatileNode>(name, e.type, std::move(args)));
  }
  if (const FunctionInfo* f = FunctionRegistry::BuiltIn().Find(name); f != nullptr && f->kernel) {
    return ExprNodePtr(std::make_unique<KernelCallNode>(f->kernel, e.type, std::move(args)));
  }
  return ExprNodePtr(std::make_unique<RowCallNode>(name, e.type, std::move(args)));
}

// Rows, arrays and maps are carried, read by field access and the array and map functions, and
// cast element by element; anything else computing on one (comparing, passing it to another
// function) is refused rather than computed wrong.
Status CheckRowUse(const BoundExpr& e) {
  static const std::string kNotACall;
  const std::string& name = e.kind == BoundKind::kCall ? e.As<BoundCall>().name : kNotACall;
  if (e.kind == BoundKind::kColumn || e.kind == BoundKind::kConstant || e.kind == BoundKind::kIsNull ||
      e.kind == BoundKind::kCast) {
    return OkStatus();
  }
  if (e.kind == BoundKind::kCall && (name == "field_access" || name == "typeof" || IsNestedFunction(name)))
    return OkStatus();
  if (e.kind == BoundKind::kCall && name == "concat" && e.type.kind() == TypeKind::kArray) return OkStatus();
  // CASE, if and coalesce choose whole values: their vectors are assembled slot by slot, as any
  // carried vector can be.
  bool chooses = e.kind == BoundKind::kCase || (e.kind == BoundKind::kCall && (name == "if" || name == "coalesce"));
  if (chooses && CanCarry(e.type)) return OkStatus();
  // =, <>, IS DISTINCT FROM, <, <=, >, >= of arrays, maps and rows run row by row (scalar_evaluation's
  // nested comparison: element by element, field by field).
  bool comparison = e.kind == BoundKind::kCall &&
                    (name == "eq" || name == "neq" || name == "is_distinct_from" || name == "lt" || name == "lte" ||
                     name == "gt" || name == "gte") &&
                    e.args.size() == 2;
  if (comparison && !IsExecutable(e.args[0]->type) && CanCarry(e.args[0]->type)) {
    return OkStatus();
  }
  bool rows = !IsExecutable(e.type);
  for (const auto& arg : e.args) rows = rows || !IsExecutable(arg->type);
  if (!rows) return OkStatus();
  return NotImplemented(
      "{} on values of type row/array/map is not supported by the executor yet; read their fields (payload.name)",
      e.kind == BoundKind::kCall ? name + "()" : std::string("this expression"));
}

Result<ExprNodePtr> Compile(const BoundExpr& e, const ColumnLayout& layout) {
  FLOE_RETURN_IF_ERROR(CheckRowUse(e));
  ExprNodePtr node;
  switch (e.kind) {
    case BoundKind::kConstant:
      node = std::make_unique<ConstantNode>(e.As<BoundConstant>().value);
      break;
    case BoundKind::kColumn: {
      ColumnId column = e.As<BoundColumnRef>().column;
      auto it = layout.positions.find(column.value());
      if (it != layout.positions.end()) {
        node = std::make_unique<ColumnNode>(e.type, it->second);
        break;
      }
      if (layout.outer != nullptr) {
        auto outer = layout.outer->find(column);
        if (outer != layout.outer->end()) {
          node = std::make_unique<ConstantNode>(outer->second);
          break;
        }
      }
      return Internal("column {} is not available here", e.ToString());
    }
    case BoundKind::kParameter:
      return InvalidArgument("parameter ${} has no value", e.As<BoundParameter>().parameter_index);
    case BoundKind::kCall: {
      FLOE_ASSIGN_OR_RETURN(node, CompileCall(e, layout));
      break;
    }
    case BoundKind::kCast: {
      FLOE_ASSIGN_OR_RETURN(auto arg, Compile(*e.args[0], layout));
      if (arg->type() == e.type) return arg;
      if (IsNestedCast(arg->type(), e.type)) {
        FLOE_ASSIGN_OR_RETURN(node, CompileNestedCast(e.type, std::move(arg), e.As<BoundCast>().try_cast));
        break;
      }
      if (!IsExecutable(e.type) || !IsExecutable(arg->type())) {
        return NotImplemented("casts involving {} are not supported by the executor yet", e.type.ToString());
      }
      node = std::make_unique<CastNode>(e.type, std::move(arg), e.As<BoundCast>().try_cast);
      break;
    }
    case BoundKind::kCase: {
      FLOE_ASSIGN_OR_RETURN(auto args, CompileArgs(e, layout));
      std::vector<ExprNodePtr> whens, thens;
      bool has_else = e.As<BoundCase>().has_else;
      size_t pairs = (args.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i) {
        whens.push_back(std::move(args[2 * i]));
        thens.push_back(std::move(args[2 * i + 1]));
      }
      ExprNodePtr otherwise = has_else ? std::move(args.back()) : nullptr;
      node = std::make_unique<CaseNode>(e.type, std::move(whens), std::move(thens), std::move(otherwise));
      break;
    }
    case BoundKind::kAnd:
    case BoundKind::kOr: {
      FLOE_ASSIGN_OR_RETURN(auto args, CompileArgs(e, layout));
      node = std::make_unique<LogicalNode>(e.kind == BoundKind::kAnd, std::move(args));
      break;
    }
    case BoundKind::kNot: {
      FLOE_ASSIGN_OR_RETURN(auto arg, Compile(*e.args[0], layout));
      node = std::make_unique<NotNode>(std::move(arg));
      break;
    }
    case BoundKind::kIsNull: {
      FLOE_ASSIGN_OR_RETURN(auto arg, Compile(*e.args[0], layout));
      node = std::make_unique<IsNullNode>(std::move(arg), e.As<BoundIsNull>().negated);
      break;
    }
    case BoundKind::kInList: {
      FLOE_ASSIGN_OR_RETURN(auto args, CompileArgs(e, layout));
      ExprNodePtr subject = std::move(args[0]);
      args.erase(args.begin());
      node = std::make_unique<InListNode>(std::move(subject), std::move(args), e.As<BoundInList>().negated);
      break;
    }
    case BoundKind::kSubquery: {
      const auto& subquery = e.As<BoundSubquery>();
      ExprNodePtr left;
      if (!e.args.empty()) {
        FLOE_ASSIGN_OR_RETURN(left, Compile(*e.args[0], layout));
      }
      std::vector<std::pair<ColumnId, ExprNodePtr>> correlated;
      std::map<ColumnId, Value> fixed;
      for (ColumnId id : subquery.correlated) {
        if (layout.positions.contains(id.value())) {
          // The column's type is found from the plan's references; a column node needs it.
          FLOE_ASSIGN_OR_RETURN(auto column, Compile(*MakeColumn(id, layout.types[layout.positions.at(id.value())], "outer"), layout));
          correlated.emplace_back(id, std::move(column));
        } else if (layout.outer != nullptr && layout.outer->contains(id)) {
          fixed[id] = layout.outer->at(id);
        }
      }
      node = std::make_unique<SubqueryNode>(subquery, std::move(left), std::move(correlated), std::move(fixed));
      break;
    }
  }
  node->location = e.location;
  return node;
}

}  // namespace

ColumnLayout ColumnLayout::Of(const std::vector<OutputColumn>& columns, const std::map<ColumnId, Value>* outer) {
  ColumnLayout layout;
  for (size_t i = 0; i < columns.size(); ++i) {
    layout.positions.emplace(columns[i].id.value(), i);
    layout.types.push_back(columns[i].type);
  }
  layout.outer = outer;
  return layout;
}

Result<EvaluatedKeys> EvaluateKeys(const std::vector<ExprNodePtr>& keys, const DataChunk& chunk, QueryContext& context) {
  EvaluatedKeys out;
  for (const auto& k : keys) {
    FLOE_ASSIGN_OR_RETURN(VectorPtr v, k->Evaluate(chunk, context));
    out.columns.push_back(v.get());
    out.vectors.push_back(std::move(v));
  }
  return out;
}

Result<ExprNodePtr> CompileExpression(const BoundExpr& expr, const ColumnLayout& layout) { return Compile(expr, layout); }

Result<std::vector<uint32_t>> SelectTrueRows(const ExprNode& predicate, const DataChunk& chunk, QueryContext& context) {
  std::vector<uint32_t> out;
  if (const Value* v = predicate.constant()) {
    if (!v->is_null() && v->as_bool()) {
      out.resize(static_cast<size_t>(chunk.rows));
      for (int64_t i = 0; i < chunk.rows; ++i) out[static_cast<size_t>(i)] = static_cast<uint32_t>(i);
    }
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(VectorPtr v, predicate.Evaluate(chunk, context));
  const uint8_t* d = v->Data<uint8_t>();
  // Branch-free: every row index is written, and the cursor moves past the kept ones (a branch
  // per row mispredicts on predicates that keep about half).
  out.resize(static_cast<size_t>(chunk.rows));
  uint32_t* o = out.data();
  size_t kept = 0;
  if (v->validity.empty()) {
    for (int64_t i = 0; i < chunk.rows; ++i) {
      o[kept] = static_cast<uint32_t>(i);
      kept += d[i] != 0;
    }
  } else {
    const uint8_t* valid = v->validity.data();
    for (int64_t i = 0; i < chunk.rows; ++i) {
      o[kept] = static_cast<uint32_t>(i);
      kept += (d[i] != 0) & (valid[i] != 0);
    }
  }
  out.resize(kept);
  return out;
}

}  // namespace floe::sql
