#include "serve/pg_messages.h"

#include <gtest/gtest.h>

namespace floe::serve::pg {
namespace {

std::string Int16(int16_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v & 0xff)}; }
std::string Int32(int32_t v) {
  std::string out;
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((static_cast<uint32_t>(v) >> (8 * i)) & 0xff));
  return out;
}

TEST(PgMessagesTest, WritesFramedBackendMessages) {
  std::string out;
  MessageWriter writer(&out);
  writer.ReadyForQuery('I');
  EXPECT_EQ(out, std::string("Z\0\0\0\x05I", 6));
  out.clear();
  writer.CommandComplete("SELECT 1");
  EXPECT_EQ(out, "C" + Int32(13) + std::string("SELECT 1\0", 9));
  out.clear();
  writer.DataRow({std::string("ab"), std::nullopt});
  EXPECT_EQ(out, "D" + Int32(4 + 2 + 6 + 4) + Int16(2) + Int32(2) + "ab" + Int32(-1));
  out.clear();
  writer.Error({.severity = "ERROR", .sqlstate = "42P01", .message = "no", .position = 8});
  EXPECT_EQ(out[0], 'E');
  EXPECT_NE(out.find(std::string("C42P01\0", 7)), std::string::npos);
  EXPECT_NE(out.find(std::string("P8\0", 3)), std::string::npos);
  EXPECT_EQ(out.back(), '\0');
}

TEST(PgMessagesTest, ReadsParseAndBind) {
  auto parse = ReadParse(std::string("s1\0SELECT $1\0", 13) + Int16(1) + Int32(23));
  ASSERT_TRUE(parse.has_value()) << parse.error().ToString();
  EXPECT_EQ(parse->name, "s1");
  EXPECT_EQ(parse->query, "SELECT $1");
  EXPECT_EQ(parse->parameter_oids, std::vector<int32_t>{23});
  std::string bind = std::string("p\0s1\0", 5) + Int16(1) + Int16(0) + Int16(2) + Int32(2) + "42" + Int32(-1) +
                     Int16(1) + Int16(1);
  auto bound = ReadBind(bind);
  ASSERT_TRUE(bound.has_value()) << bound.error().ToString();
  EXPECT_EQ(bound->portal, "p");
  EXPECT_EQ(bound->statement, "s1");
  ASSERT_EQ(bound->parameters.size(), 2u);
  EXPECT_EQ(bound->parameters[0], "42");
  EXPECT_EQ(bound->parameters[1], std::nullopt);
  EXPECT_EQ(bound->result_formats, std::vector<int16_t>{1});
}

TEST(PgMessagesTest, GarbageTruncationAndOversizeAreErrorsNotCrashes) {
  std::string bind = std::string("p\0s1\0", 5) + Int16(1) + Int16(0) + Int16(1) + Int32(2) + "42" + Int16(0);
  // Every truncation of a valid message fails cleanly.
  for (size_t n = 0; n < bind.size(); ++n) EXPECT_FALSE(ReadBind(bind.substr(0, n)).has_value()) << n;
  std::string parse = std::string("s\0q\0", 4) + Int16(2) + Int32(23) + Int32(25);
  for (size_t n = 0; n < parse.size(); ++n) EXPECT_FALSE(ReadParse(parse.substr(0, n)).has_value()) << n;
  // Counts and lengths far beyond the body.
  EXPECT_FALSE(ReadBind(std::string("\0\0", 2) + Int16(32767)).has_value());
  EXPECT_FALSE(ReadBind(std::string("\0\0", 2) + Int16(0) + Int16(1) + Int32(0x7fffffff)).has_value());
  EXPECT_FALSE(ReadBind(std::string("\0\0", 2) + Int16(0) + Int16(1) + Int32(-5)).has_value());
  EXPECT_FALSE(ReadBind(std::string("\0\0", 2) + Int16(-1)).has_value());
  EXPECT_FALSE(ReadBind(std::string("\0\0", 2) + Int16(1) + Int16(7)).has_value());  // Format neither 0 nor 1.
  EXPECT_FALSE(ReadParse(std::string("s\0q\0", 4) + Int16(-3)).has_value());
  EXPECT_FALSE(ReadParse(std::string("\xff\xfe\xfd", 3)).has_value());
  EXPECT_FALSE(ReadStartupParameters(std::string("user\0bob", 8)).has_value());
  auto ok = ReadStartupParameters(std::string("user\0bob\0\0", 10));
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->at(0).second, "bob");
}

}  // namespace
}  // namespace floe::serve::pg
