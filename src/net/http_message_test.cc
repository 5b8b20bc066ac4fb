#include "net/http_message.h"

#include <gtest/gtest.h>

namespace floe::net {
namespace {

TEST(PercentCoding, EncodesAllButUnreservedBytes) {
  EXPECT_EQ(PercentEncode("aZ09-_.~"), "aZ09-_.~");
  EXPECT_EQ(PercentEncode("a b/c$d"), "a%20b%2Fc%24d");
  EXPECT_EQ(PercentEncode("a b/c", /*keep_slash=*/true), "a%20b/c");
  EXPECT_EQ(PercentEncode(std::string("\x00\xff\x1f", 3)), "%00%FF%1F");
}

TEST(PercentCoding, DecodesWhatItEncodes) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  EXPECT_EQ(PercentDecode(PercentEncode(all)).value(), all);
  EXPECT_EQ(PercentDecode("a+b%2b", /*plus_is_space=*/true).value(), "a b+");
  EXPECT_EQ(PercentDecode("a+b").value(), "a+b");
}

TEST(PercentCoding, RefusesTruncatedAndBadEscapes) {
  for (std::string_view bad : {"%", "%4", "abc%", "abc%2", "%zz", "%4g", "%g4"}) {
    auto r = PercentDecode(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().kind(), ErrorKind::kInvalidArgument);
  }
}

TEST(ParseQuery, SplitsAndDecodes) {
  auto q = ParseQuery("a=1&b=x%20y&&c&d=&e=a=b").value();
  ASSERT_EQ(q.size(), 5u);
  EXPECT_EQ(q[0], (std::pair<std::string, std::string>{"a", "1"}));
  EXPECT_EQ(q[1], (std::pair<std::string, std::string>{"b", "x y"}));
  EXPECT_EQ(q[2], (std::pair<std::string, std::string>{"c", ""}));
  EXPECT_EQ(q[3], (std::pair<std::string, std::string>{"d", ""}));
  EXPECT_EQ(q[4], (std::pair<std::string, std::string>{"e", "a=b"}));
  EXPECT_TRUE(ParseQuery("").value().empty());
  EXPECT_FALSE(ParseQuery("a=%2"));
}

TEST(ParseQuery, SurvivesGarbage) {
  uint32_t x = 1;
  for (int round = 0; round < 2000; ++round) {
    std::string junk(round % 40, '\0');
    for (char& c : junk) {
      x = x * 1103515245u + 12345u;
      c = "%&=+a0\xff\x00"[(x >> 16) % 8];
    }
    auto r = ParseQuery(junk);  // Must return, value or error, never crash.
    if (r) {
      for (auto& [k, v] : *r) EXPECT_LE(k.size() + v.size(), junk.size());
    }
  }
}

TEST(HttpHeaders, NamesCompareCaseInsensitively) {
  HttpHeaders h;
  h.Add("Content-Type", "a");
  h.Add("X-Thing", "1");
  h.Add("x-thing", "2");
  EXPECT_EQ(h.Get("content-type").value(), "a");
  EXPECT_EQ(h.Get("X-THING").value(), "1");
  h.Set("x-Thing", "3");
  EXPECT_EQ(h.Get("x-thing").value(), "3");
  EXPECT_EQ(h.fields().size(), 2u);
  EXPECT_FALSE(h.Get("missing"));
}

TEST(HttpRequest, QueryAndParams) {
  HttpRequest r;
  r.query_string = "pageToken=a%2Fb&pageSize=10";
  r.path_params["table"] = "t1";
  EXPECT_EQ(r.Query("pageToken").value(), "a/b");
  EXPECT_EQ(r.Query("pageSize").value(), "10");
  EXPECT_FALSE(r.Query("missing"));
  EXPECT_EQ(r.Param("table"), "t1");
  EXPECT_EQ(r.Param("nope"), "");
}

}  // namespace
}  // namespace floe::net
