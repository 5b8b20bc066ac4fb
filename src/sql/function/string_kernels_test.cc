#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sql/execution/vector.h"
#include "sql/function/function_registry.h"
#include "sql/function/scalar_evaluation.h"

namespace floe::sql {
namespace {

// Inputs a Parquet file or a Kafka event can carry: ASCII, multi-byte characters, and bytes that
// are not UTF-8 (a lone continuation byte, a lead byte cut short, a lead without its tail).
const std::vector<std::string>& KernelInputs() {
  static const std::vector<std::string> inputs = {
      "",         "abc",   "h\xC3\xA9llo", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x98\x80x", "\x80",
      "\xE2\x41", "a\xC3", "\xFF\xFE",
  };
  return inputs;
}

// The kernel of `name` over a varchar column of KernelInputs() (and a NULL), row by row against
// the row form on the same arguments.
void ExpectKernelAgreesWithRowForm(const std::string& name, const std::vector<std::vector<Value>>& extra_args,
                                   const SqlType& result) {
  const FunctionInfo* info = FunctionRegistry::BuiltIn().Find(name);
  ASSERT_NE(info, nullptr) << name;
  ASSERT_TRUE(info->kernel) << name << " has no kernel";
  const auto& inputs = KernelInputs();
  auto text = NewVector(SqlType::Varchar(), static_cast<int64_t>(inputs.size()) + 1);
  for (const std::string& s : inputs) text->AppendString(s);
  text->AppendNull();
  const auto rows = static_cast<int64_t>(inputs.size()) + 1;
  for (const std::vector<Value>& extra : extra_args) {
    std::vector<KernelArgument> args = {{text.get(), false, SqlType::Varchar()}};
    std::vector<MutableVectorPtr> constants;
    for (const Value& v : extra) {
      constants.push_back(NewVector(v.type(), 1));
      AppendValue(*constants.back(), v);
      args.push_back({constants.back().get(), true, v.type()});
    }
    auto out = info->kernel(args, result, rows);
    ASSERT_TRUE(out.has_value()) << out.error().ToString();
    for (int64_t i = 0; i < rows; ++i) {
      std::vector<Value> row = {i < rows - 1 ? Value::String(SqlType::Varchar(), inputs[static_cast<size_t>(i)])
                                             : Value::Null(SqlType::Varchar())};
      row.insert(row.end(), extra.begin(), extra.end());
      Value expected = Value::Null(result);
      if (!row[0].is_null()) {
        auto evaluated = EvaluateScalarCall(name, result, row);
        ASSERT_TRUE(evaluated.has_value()) << evaluated.error().ToString();
        expected = *evaluated;
      }
      EXPECT_TRUE(GetValue(**out, result, i) == expected) << name << " of row " << i;
    }
  }
}

TEST(StringKernelsTest, LengthCountsAsTheRowFormDoes) {
  ExpectKernelAgreesWithRowForm("length", {{}}, SqlType::Bigint());
  ExpectKernelAgreesWithRowForm("char_length", {{}}, SqlType::Bigint());
}

TEST(StringKernelsTest, SubstrCutsAsTheRowFormDoes) {
  const SqlType bigint = SqlType::Bigint();
  ExpectKernelAgreesWithRowForm("substr",
                                {{Value::Int(bigint, 1)},
                                 {Value::Int(bigint, 2)},
                                 {Value::Int(bigint, -1)},
                                 {Value::Int(bigint, 2), Value::Int(bigint, 1)},
                                 {Value::Int(bigint, -2), Value::Int(bigint, 5)}},
                                SqlType::Varchar());
}

}  // namespace
}  // namespace floe::sql
