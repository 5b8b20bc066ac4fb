// Array functions (Trino's names and null rules) and their vector kernels: ARRAY[...],
// a[i] and element_at, cardinality, contains, array_join. An array vector is a list
// ColumnVector: slot i's elements are children[0] at [offsets[i], offsets[i + 1]).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sql/function/nested_functions.h"
#include "sql/types/temporal.h"
#include "sql/types/type_rules.h"
#include "sql/types/value_cast.h"

namespace floe::sql {
namespace {

using Resolver = std::function<Result<ResolvedCall>(const std::vector<SqlType>&)>;

// Elements [begin, end) of row i of an array or map argument.
struct Entries {
  int32_t begin;
  int32_t end;
};
Entries EntriesAt(const KernelArgument& arg, int64_t i) {
  auto r = static_cast<size_t>(arg.row(i));
  return {arg.vector->offsets[r], arg.vector->offsets[r + 1]};
}

// ARRAY[x, y, ...]: the binder has coerced every argument to the element type.
Result<VectorPtr> ArrayConstructorKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  for (int64_t i = 0; i < rows; ++i) {
    for (const KernelArgument& arg : args) AppendFrom(out->children[0], *arg.vector, arg.row(i));
    out->AppendListEnd(true);
  }
  return VectorPtr(out);
}

Result<VectorPtr> CardinalityKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i)) {
      out->AppendNull();
      continue;
    }
    Entries e = EntriesAt(args[0], i);
    out->Append<int64_t>(e.end - e.begin);
  }
  return VectorPtr(out);
}

// contains(a, x): true when an element equals x; otherwise NULL when an element is NULL (it
// might have been x), else false. A NULL x gives NULL.
Result<VectorPtr> ContainsKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  if (!IsExecutable(args[1].type))
    return NotImplemented("contains() on arrays of {} is not supported yet", args[1].type.ToString());
  auto out = NewVector(result, rows);
  const ColumnVector& elements = args[0].vector->children[0];
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i)) {
      out->AppendNull();
      continue;
    }
    Entries e = EntriesAt(args[0], i);
    bool found = false, saw_null = false;
    for (int32_t k = e.begin; k < e.end && !found; ++k) {
      if (!elements.IsValid(k)) {
        saw_null = true;
      } else {
        found = SameElement(elements, k, *args[1].vector, args[1].row(i));
      }
    }
    if (!found && saw_null) {
      out->AppendNull();
    } else {
      out->Append<uint8_t>(found ? 1 : 0);
    }
  }
  return VectorPtr(out);
}

// array_join(a, delimiter [, null_replacement]): the elements as varchar, NULL elements left
// out unless a replacement is given.
Result<VectorPtr> ArrayJoinKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  const SqlType& element_type = args[0].type.element();
  const ColumnVector& elements = args[0].vector->children[0];
  for (int64_t i = 0; i < rows; ++i) {
    bool null = false;
    for (const KernelArgument& arg : args) null = null || !arg.valid(i);
    if (null) {
      out->AppendNull();
      continue;
    }
    std::string_view delimiter = args[1].vector->StringAt(args[1].row(i));
    Entries e = EntriesAt(args[0], i);
    std::string text;
    bool first = true;
    for (int32_t k = e.begin; k < e.end; ++k) {
      std::string piece;
      if (!elements.IsValid(k)) {
        if (args.size() < 3) continue;
        piece = args[2].vector->StringAt(args[2].row(i));
      } else if (element_type.kind() == TypeKind::kVarchar) {
        piece = elements.StringAt(k);
      } else {
        auto cast = CastValue(GetValue(elements, element_type, k), SqlType::Varchar());
        if (!cast) return InvalidArgument("Cannot cast {} to varchar", element_type.ToString());
        piece = cast->as_string();
      }
      if (!first) text.append(delimiter);
      text += piece;
      first = false;
    }
    out->AppendString(text);
  }
  return VectorPtr(out);
}

// sequence(start, stop [, step]): start, start + step, ... up to stop (down to it for a negative
// step); bigints, or dates by whole days (the step a day-time interval of whole days, one day
// when left out). Trino's limits and errors: a zero step, a step away from stop, more than
// 10000 entries.
constexpr int64_t kMaxSequenceEntries = 10000;

Result<VectorPtr> SequenceKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  bool dates = result.element().kind() == TypeKind::kDate;
  auto out = NewVector(result, rows);
  ColumnVector& elements = out->children[0];
  for (int64_t i = 0; i < rows; ++i) {
    bool null = false;
    for (const KernelArgument& arg : args) null = null || !arg.valid(i);
    if (null) {
      out->AppendNull();
      continue;
    }
    int64_t start = args[0].vector->Data<int64_t>()[args[0].row(i)];
    int64_t stop = args[1].vector->Data<int64_t>()[args[1].row(i)];
    int64_t step = 1;
    if (args.size() == 3) {
      step = args[2].vector->Data<int64_t>()[args[2].row(i)];
      if (dates) {
        if (step % kMicrosPerDay != 0)
          return InvalidArgument("sequence step must be a day interval if start and end values are dates");
        step /= kMicrosPerDay;
      }
    }
    if (step == 0) return InvalidArgument("step must not be zero");
    if ((step > 0 && stop < start) || (step < 0 && stop > start)) {
      return InvalidArgument(
          "sequence stop value should be greater than or equal to start value if step is greater than zero otherwise "
          "stop should "
          "be less than or equal to start");
    }
    // The count in 128 bits: (stop - start) may not fit 64.
    __int128 count = (static_cast<__int128>(stop) - start) / step + 1;
    if (count > kMaxSequenceEntries) {
      return InvalidArgument("result of sequence function must not have more than {} entries", kMaxSequenceEntries);
    }
    for (int64_t k = 0; k < static_cast<int64_t>(count); ++k) elements.Append<int64_t>(start + k * step);
    out->AppendListEnd(true);
  }
  return VectorPtr(out);
}

Result<ResolvedCall> ResolveSequence(const std::vector<SqlType>& in) {
  if ((in.size() == 2 || in.size() == 3) && CanCoerce(in[0], SqlType::Bigint()) &&
      CanCoerce(in[1], SqlType::Bigint()) && (in.size() == 2 || CanCoerce(in[2], SqlType::Bigint()))) {
    return ResolvedCall{SqlType::Array(SqlType::Bigint()), std::vector<SqlType>(in.size(), SqlType::Bigint())};
  }
  bool date = [&] {
    for (size_t k = 0; k < 2 && k < in.size(); ++k) {
      if (in[k].kind() != TypeKind::kDate && !in[k].IsUnknown()) return false;
    }
    return in.size() >= 2 && (in.size() == 2 || in[2].kind() == TypeKind::kIntervalDayTime || in[2].IsUnknown());
  }();
  if (date) {
    std::vector<SqlType> arguments{SqlType::Date(), SqlType::Date()};
    if (in.size() == 3) arguments.push_back(SqlType(TypeKind::kIntervalDayTime));
    return ResolvedCall{SqlType::Array(SqlType::Date()), std::move(arguments)};
  }
  return CodedError(ErrorCode::kTypeMismatch,
                    "Unexpected parameters for function sequence. Expected: sequence(bigint, bigint [, bigint]), "
                    "sequence(date, date [, interval day to second])");
}

Result<ResolvedCall> ResolveArrayConstructor(const std::vector<SqlType>& in) {
  SqlType element = SqlType::Unknown();
  for (const SqlType& t : in) {
    auto common = CommonSuperType(element, t);
    if (!common) return CodedError(ErrorCode::kTypeMismatch, "All ARRAY elements must be the same type");
    element = *common;
  }
  return ResolvedCall{SqlType::Array(element), std::vector<SqlType>(in.size(), element)};
}

Result<ResolvedCall> ResolveCardinality(const std::vector<SqlType>& in) {
  if (in.size() != 1 || (in[0].kind() != TypeKind::kArray && in[0].kind() != TypeKind::kMap)) {
    return CodedError(
        ErrorCode::kTypeMismatch,
        "Unexpected parameters for function cardinality. Expected: cardinality(array(E)), cardinality(map(K,V))");
  }
  return ResolvedCall{SqlType::Bigint(), {in[0]}};
}

Result<ResolvedCall> ResolveContains(const std::vector<SqlType>& in) {
  if (in.size() != 2 || in[0].kind() != TypeKind::kArray) {
    return CodedError(ErrorCode::kTypeMismatch,
                      "Unexpected parameters for function contains. Expected: contains(array(T), T)");
  }
  auto common = CommonSuperType(in[0].element(), in[1]);
  if (!common) {
    return CodedError(ErrorCode::kTypeMismatch, "contains: {} cannot be compared with {}", in[0].element().ToString(),
                      in[1].ToString());
  }
  return ResolvedCall{SqlType::Boolean(), {SqlType::Array(*common), *common}};
}

Result<ResolvedCall> ResolveArrayJoin(const std::vector<SqlType>& in) {
  bool ok = (in.size() == 2 || in.size() == 3) && in[0].kind() == TypeKind::kArray &&
            CanCoerce(in[1], SqlType::Varchar()) && (in.size() == 2 || CanCoerce(in[2], SqlType::Varchar())) &&
            (IsExecutable(in[0].element()) && in[0].element().kind() != TypeKind::kVarbinary);
  if (!ok) {
    return CodedError(
        ErrorCode::kTypeMismatch,
        "Unexpected parameters for function array_join. Expected: array_join(array(T), varchar [, varchar])");
  }
  std::vector<SqlType> arguments{in[0].element().IsUnknown() ? SqlType::Array(SqlType::Varchar()) : in[0],
                                 SqlType::Varchar()};
  if (in.size() == 3) arguments.push_back(SqlType::Varchar());
  return ResolvedCall{SqlType::Varchar(), std::move(arguments)};
}

}  // namespace

const VectorKernel& ArrayConcatKernel() {
  static const VectorKernel kernel = [](const std::vector<KernelArgument>& args, const SqlType& result,
                                        int64_t rows) -> Result<VectorPtr> {
    auto out = NewVector(result, rows);
    ColumnVector& elements = out->children[0];
    for (int64_t i = 0; i < rows; ++i) {
      bool null = false;
      for (const KernelArgument& arg : args) null = null || !arg.valid(i);
      if (null) {
        out->AppendNull();
        continue;
      }
      for (const KernelArgument& arg : args) {
        if (!(arg.type == result)) {  // an element (the binder cast it to the element type)
          AppendFrom(elements, *arg.vector, arg.row(i));
          continue;
        }
        Entries e = EntriesAt(arg, i);
        for (int32_t k = e.begin; k < e.end; ++k) AppendFrom(elements, arg.vector->children[0], k);
      }
      out->AppendListEnd(true);
    }
    return VectorPtr(out);
  };
  return kernel;
}

std::optional<Result<ResolvedCall>> ResolveArrayConcat(const std::vector<SqlType>& in) {
  // The deepest arrays are concatenated; an argument one level shallower is an element of them
  // (ARRAY[ARRAY[1]] || ARRAY[2] appends ARRAY[2]).
  auto depth = [](const SqlType& t) {
    int d = 0;
    for (const SqlType* x = &t; x->kind() == TypeKind::kArray; x = &x->element()) ++d;
    return d;
  };
  int deepest = 0;
  for (const SqlType& t : in) deepest = std::max(deepest, depth(t));
  if (deepest == 0) return std::nullopt;
  SqlType element = SqlType::Unknown();
  for (const SqlType& t : in) {
    bool array = depth(t) == deepest;
    auto common = CommonSuperType(element, array ? t.element() : t);
    if (!common || (!array && !t.IsUnknown() && depth(t) != deepest - 1)) {
      return Result<ResolvedCall>(CodedError(ErrorCode::kTypeMismatch, "Cannot concatenate {} and {}",
                                             SqlType::Array(element).ToString(), t.ToString()));
    }
    element = *common;
  }
  std::vector<SqlType> arguments;
  for (const SqlType& t : in) arguments.push_back(depth(t) == deepest ? SqlType::Array(element) : element);
  return Result<ResolvedCall>(ResolvedCall{SqlType::Array(element), std::move(arguments)});
}

bool SameElement(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j) {
  switch (a.type().id) {
    case formats::TypeId::kBoolean:
      return a.Data<uint8_t>()[i] == b.Data<uint8_t>()[j];
    case formats::TypeId::kInt64:
      return a.Data<int64_t>()[i] == b.Data<int64_t>()[j];
    case formats::TypeId::kDouble:
      return a.Data<double>()[i] == b.Data<double>()[j];
    case formats::TypeId::kDecimal:
      return std::memcmp(a.values.data() + i * 16, b.values.data() + j * 16, 16) == 0;
    case formats::TypeId::kString:
      return a.StringAt(i) == b.StringAt(j);
    default:
      return false;
  }
}

Result<VectorPtr> ArrayElementKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows,
                                     bool strict) {
  auto out = NewVector(result, rows);
  const ColumnVector& elements = args[0].vector->children[0];
  const int64_t* indexes = args[1].vector->Data<int64_t>();
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i)) {
      out->AppendNull();
      continue;
    }
    Entries e = EntriesAt(args[0], i);
    int64_t size = e.end - e.begin;
    int64_t index = indexes[args[1].row(i)];
    if (index == 0) return InvalidArgument("SQL array indices start at 1");
    if (strict && index < 0) return InvalidArgument("Array subscript is negative: {}", index);
    if (strict && index > size)
      return InvalidArgument("Array subscript must be less than or equal to array length: {} > {}", index, size);
    int64_t position = index > 0 ? index - 1 : size + index;  // element_at counts a negative index from the end
    if (position < 0 || position >= size) {
      out->AppendNull();
      continue;
    }
    AppendFrom(*out, elements, e.begin + position);
  }
  return VectorPtr(out);
}

void RegisterArrayFunctions(FunctionRegistry& registry) {
  AddKernelFunction(registry, "array_constructor", "ARRAY[T, ...] -> array(T)", ResolveArrayConstructor,
                    ArrayConstructorKernel);
  AddKernelFunction(registry, "cardinality", "cardinality(array(E)) -> bigint; cardinality(map(K,V)) -> bigint",
                    ResolveCardinality, CardinalityKernel);
  AddKernelFunction(registry, "contains", "contains(array(T), T) -> boolean", ResolveContains, ContainsKernel);
  AddKernelFunction(
      registry, "sequence",
      "sequence(bigint, bigint [, bigint]) -> array(bigint); sequence(date, date [, interval]) -> array(date)",
      ResolveSequence, SequenceKernel);
  AddKernelFunction(registry, "array_join", "array_join(array(T), varchar [, varchar]) -> varchar", ResolveArrayJoin,
                    ArrayJoinKernel);
}

}  // namespace floe::sql
