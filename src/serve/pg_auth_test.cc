#include "serve/pg_auth.h"

#include <gtest/gtest.h>

namespace floe::serve::pg {
namespace {

TEST(PgAuthTest, ScramMatchesRfc7677Example) {
  // RFC 7677 section 3: user "user", password "pencil".
  auto salt = Base64Decode("W22ZaJ0SNY7soEsUEjb6gQ==");
  ASSERT_TRUE(salt.has_value());
  ScramExchange scram("pencil", 4096, *salt, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
  auto first = scram.ServerFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(*first, "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
  auto final_message = scram.ServerFinal(
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  ASSERT_TRUE(final_message.has_value()) << final_message.error().ToString();
  EXPECT_EQ(*final_message, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
}

TEST(PgAuthTest, ScramRefusesAWrongProofAndMalformedMessages) {
  auto salt = Base64Decode("W22ZaJ0SNY7soEsUEjb6gQ==");
  ScramExchange scram("not pencil", 4096, *salt, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
  ASSERT_TRUE(scram.ServerFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO").has_value());
  auto refused = scram.ServerFinal(
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kUnauthenticated);
  for (std::string_view garbage : {"", "p=", "c=biws,r=wrongnonce,p=AAAA", "c=biws,r=x", "\xff\xfe,p=%%%%"}) {
    ScramExchange fresh("pencil");
    ASSERT_TRUE(fresh.ServerFirst("n,,n=,r=abc").has_value());
    EXPECT_FALSE(fresh.ServerFinal(garbage).has_value()) << garbage;
  }
  for (std::string_view garbage : {"", "p=tls-server-end-point,,n=,r=x", "n,,n=user", "n,", "nonsense"}) {
    ScramExchange fresh("pencil");
    EXPECT_FALSE(fresh.ServerFirst(garbage).has_value()) << garbage;
  }
}

TEST(PgAuthTest, Md5ResponseIsPostgresSaltedHash) {
  // md5(md5("secret" + "alice") + salt) computed independently (Python hashlib).
  EXPECT_EQ(Md5Response("alice", "secret", std::string("\x01\x02\x03\x04", 4)), "md598a0412b9c31436fc53776e863350083");
}

TEST(PgAuthTest, AuthFileParsesUsersAndRejectsBadOnes) {
  auto users = ParseAuthToml("[[user]]\nname = \"a\"\npassword = \"p\"\n[[user]]\nname = \"b\"\npassword = \"q\"\nmethod = \"md5\"\n",
                             "users.toml");
  ASSERT_TRUE(users.has_value()) << users.error().ToString();
  ASSERT_EQ(users->size(), 2u);
  EXPECT_EQ((*users)[0].method, "scram-sha-256");
  EXPECT_EQ((*users)[1].method, "md5");
  EXPECT_FALSE(ParseAuthToml("[[user]]\nname = \"a\"\n", "x").has_value());
  EXPECT_FALSE(ParseAuthToml("[[user]]\nname = \"a\"\npassword = \"p\"\nmethod = \"trust\"\n", "x").has_value());
  EXPECT_FALSE(ParseAuthToml("user = [", "x").has_value());
  EXPECT_FALSE(ParseAuthToml("", "x").has_value());
}

TEST(PgAuthTest, Base64RoundTripsAndRejectsGarbage) {
  for (const std::string& text : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    auto decoded = Base64Decode(Base64(text));
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, text);
  }
  for (std::string_view garbage : {"a", "abc", "ab=c", "@@@@", "a===", "=abc"}) EXPECT_FALSE(Base64Decode(garbage).has_value()) << garbage;
}

}  // namespace
}  // namespace floe::serve::pg
