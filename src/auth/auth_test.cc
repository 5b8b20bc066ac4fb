// The shared users file and the server side of SCRAM-SHA-256.
#include <gtest/gtest.h>

#include "auth/role.h"
#include "auth/scram.h"
#include "auth/users.h"
#include "base/base64.h"

namespace floe::auth {
namespace {

TEST(Scram, ScramMatchesRfc7677Example) {
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

TEST(Scram, ScramRefusesAWrongProofAndMalformedMessages) {
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

TEST(AuthUsers, AuthFileParsesUsersAndRejectsBadOnes) {
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

TEST(Scram, ClientUserIsDecoded) {
  EXPECT_EQ(ScramClientUser("n,,n=alice,r=abc"), "alice");
  EXPECT_EQ(ScramClientUser("n,,n=a=2Cb=3Dc,r=abc"), "a,b=c");
  EXPECT_EQ(ScramClientUser("n,,n=,r=abc"), "");
  for (std::string_view bad : {"", "n,,r=abc", "n,,n=a=2,r=x", "n,,n=a=ZZ,r=x", "p=x,,n=a,r=b", "n,n=a"}) {
    EXPECT_FALSE(ScramClientUser(bad).has_value()) << bad;
  }
}

TEST(AuthUsers, CheckPasswordNeedsTheRightUserAndPassword) {
  auto users = ParseAuthToml("[[user]]\nname = \"alice\"\npassword = \"s3cret\"\n", "users.toml");
  ASSERT_TRUE(users.has_value());
  EXPECT_TRUE(CheckPassword(*users, "alice", "s3cret"));
  EXPECT_FALSE(CheckPassword(*users, "alice", "s3cre"));
  EXPECT_FALSE(CheckPassword(*users, "alice", "s3cret!"));
  EXPECT_FALSE(CheckPassword(*users, "bob", "s3cret"));
  EXPECT_FALSE(CheckPassword(*users, "", ""));
}

}  // namespace
}  // namespace floe::auth

namespace floe::auth {
namespace {

TEST(AuthRoles, EachRolePermitsItsOwnAccessAndLess) {
  EXPECT_TRUE(Permits(Role::kReader, Access::kRead));
  EXPECT_FALSE(Permits(Role::kReader, Access::kWrite));
  EXPECT_FALSE(Permits(Role::kReader, Access::kAlter));
  EXPECT_TRUE(Permits(Role::kWriter, Access::kWrite));
  EXPECT_FALSE(Permits(Role::kWriter, Access::kAlter));
  EXPECT_TRUE(Permits(Role::kAdmin, Access::kAlter));
}

TEST(AuthRoles, RoleOfFollowsTheAuthFile) {
  auto users = ParseAuthToml(
      "[[user]]\nname = \"r\"\npassword = \"x\"\nrole = \"reader\"\n"
      "[[user]]\nname = \"w\"\npassword = \"x\"\n"
      "[[user]]\nname = \"a\"\npassword = \"x\"\nrole = \"admin\"\n",
      "test");
  ASSERT_TRUE(users.has_value());
  EXPECT_EQ(RoleOf(*users, "r"), Role::kReader);
  EXPECT_EQ(RoleOf(*users, "w"), Role::kWriter);  // The default.
  EXPECT_EQ(RoleOf(*users, "a"), Role::kAdmin);
  EXPECT_EQ(RoleOf(*users, "nobody"), Role::kReader);
  EXPECT_EQ(RoleOf({}, "anyone"), Role::kAdmin);  // No users: nothing authenticates or is restricted.
  EXPECT_FALSE(ParseRole("root").has_value());
}

}  // namespace
}  // namespace floe::auth
