// Vector kernels of string functions (vector_kernel.h). They answer as the row form
// (scalar_evaluation.cc) does, valid UTF-8 or not (string_kernels_test.cc): substr walks
// characters told by their lead byte, length counts the bytes that are not continuation bytes.
#include <algorithm>

#include "sql/function/function_registry.h"

namespace floe::sql {
namespace {

// The byte length of the character starting with `lead` (1 for bytes that start none).
inline size_t CharBytes(unsigned char lead) { return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1; }

// length(varchar): the bytes that start a character, i.e. every byte but UTF-8's continuation
// bytes (10xxxxxx), as the row form counts (and Trino: invalid UTF-8 is counted, not refused).
// A loop without a data-dependent stride, which the compiler vectorizes.
int64_t CountCodePoints(std::string_view s) {
  int64_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

int64_t CountChars(std::string_view s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size(); i += std::min(CharBytes(static_cast<unsigned char>(s[i])), s.size() - i)) ++n;
  return n;
}

// Byte offset of character `k` (0-based) of `s`, or s.size() past the end.
size_t CharOffset(std::string_view s, int64_t k) {
  size_t i = 0;
  for (; i < s.size() && k > 0; --k) i += std::min(CharBytes(static_cast<unsigned char>(s[i])), s.size() - i);
  return i;
}

// substr(s, start[, length]): 1-based characters; a negative start counts from the end; start 0,
// a start outside the string or a length <= 0 give ''.
std::string_view Substring(std::string_view s, int64_t start, bool has_length, int64_t length) {
  if (start == 0 || (has_length && length <= 0)) return {};
  int64_t n = -1;
  if (start < 0) {
    n = CountChars(s);
    start = n + start + 1;
    if (start < 1) return {};
  }
  size_t begin = CharOffset(s, start - 1);
  if (begin >= s.size()) return {};
  if (!has_length) return s.substr(begin);
  size_t end = begin + CharOffset(s.substr(begin), length);
  return s.substr(begin, end - begin);
}

Result<VectorPtr> SubstringKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  bool has_length = args.size() > 2;
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i) || (has_length && !args[2].valid(i))) {
      out->AppendNull();
      continue;
    }
    std::string_view s = args[0].vector->StringAt(args[0].row(i));
    int64_t start = args[1].vector->Data<int64_t>()[args[1].row(i)];
    int64_t length = has_length ? args[2].vector->Data<int64_t>()[args[2].row(i)] : 0;
    out->AppendString(Substring(s, start, has_length, length));
  }
  return VectorPtr(out);
}

Result<VectorPtr> CharLengthKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i)) {
      out->AppendNull();
      continue;
    }
    std::string_view s = args[0].vector->StringAt(args[0].row(i));
    // length(varbinary) counts bytes.
    out->Append<int64_t>(args[0].type.kind() == TypeKind::kVarchar ? CountCodePoints(s)
                                                                   : static_cast<int64_t>(s.size()));
  }
  return VectorPtr(out);
}

}  // namespace

void RegisterStringKernels(FunctionRegistry& registry) {
  registry.SetKernel("substr", SubstringKernel);
  registry.SetKernel("substring", SubstringKernel);
  registry.SetKernel("length", CharLengthKernel);
  registry.SetKernel("char_length", CharLengthKernel);
}

}  // namespace floe::sql
