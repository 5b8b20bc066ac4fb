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
  ScramExchange scram(DeriveScramVerifier("pencil", *salt, 4096), "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
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
  ScramExchange scram(DeriveScramVerifier("not pencil", *salt, 4096), "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
  ASSERT_TRUE(scram.ServerFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO").has_value());
  auto refused = scram.ServerFinal(
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kUnauthenticated);
  for (std::string_view garbage : {"", "p=", "c=biws,r=wrongnonce,p=AAAA", "c=biws,r=x", "\xff\xfe,p=%%%%"}) {
    ScramExchange fresh(*MakeScramVerifier("pencil"));
    ASSERT_TRUE(fresh.ServerFirst("n,,n=,r=abc").has_value());
    EXPECT_FALSE(fresh.ServerFinal(garbage).has_value()) << garbage;
  }
  for (std::string_view garbage : {"", "p=tls-server-end-point,,n=,r=x", "n,,n=user", "n,", "nonsense"}) {
    ScramExchange fresh(*MakeScramVerifier("pencil"));
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

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "auth/secure_random.h"

namespace floe::auth {
namespace {

// Issue #27, finding 7: the auth file keeps verifiers, not passwords, and only its owner reads it.
TEST(AuthSecrets, VerifierRoundTripsAndChecksOnlyTheRightPassword) {
  auto verifier = MakeScramVerifier("correct horse");
  ASSERT_TRUE(verifier.has_value());
  std::string text = FormatScramVerifier(*verifier);
  EXPECT_TRUE(text.starts_with("SCRAM-SHA-256$4096:")) << text;
  EXPECT_EQ(text.find("correct horse"), std::string::npos);
  auto parsed = ParseScramVerifier(text);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  EXPECT_EQ(parsed->salt, verifier->salt);
  EXPECT_EQ(parsed->stored_key, verifier->stored_key);
  EXPECT_EQ(parsed->server_key, verifier->server_key);
  EXPECT_TRUE(VerifyPassword(*parsed, "correct horse"));
  EXPECT_FALSE(VerifyPassword(*parsed, "correct horsE"));
  EXPECT_FALSE(VerifyPassword(*parsed, ""));
  // Two verifiers of one password differ (fresh salts): equal passwords are not visible.
  EXPECT_NE(FormatScramVerifier(*MakeScramVerifier("correct horse")), text);
  for (std::string_view bad : {"", "SCRAM-SHA-256$", "SCRAM-SHA-256$4096:AAAA$AAAA:AAAA", "MD5$x",
                               "SCRAM-SHA-256$12:W22ZaJ0SNY7soEsUEjb6gQ==$" /* too few iterations */}) {
    auto refused = ParseScramVerifier(bad);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
  }
}

TEST(AuthSecrets, RfcVerifierMatchesPostgresStoredForm) {
  // The RFC 7677 example's keys, as PostgreSQL would store "pencil" with that salt.
  auto salt = Base64Decode("W22ZaJ0SNY7soEsUEjb6gQ==");
  ScramVerifier derived = DeriveScramVerifier("pencil", *salt, 4096);
  auto parsed = ParseScramVerifier(FormatScramVerifier(derived));
  ASSERT_TRUE(parsed.has_value());
  ScramExchange scram(*parsed, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
  ASSERT_TRUE(scram.ServerFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO").has_value());
  auto final_message = scram.ServerFinal(
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  ASSERT_TRUE(final_message.has_value());
  EXPECT_EQ(*final_message, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
}

TEST(AuthSecrets, AuthFileTakesVerifiersAndStillLoadsPlaintext) {
  auto verifier = FormatScramVerifier(*MakeScramVerifier("v-pass"));
  auto users = ParseAuthToml("[[user]]\nname = \"v\"\nverifier = \"" + verifier +
                                 "\"\nrole = \"reader\"\n[[user]]\nname = \"p\"\npassword = \"p-pass\"\n",
                             "users.toml");
  ASSERT_TRUE(users.has_value()) << users.error().ToString();
  EXPECT_TRUE(CheckPassword(*users, "v", "v-pass"));
  EXPECT_FALSE(CheckPassword(*users, "v", "p-pass"));
  EXPECT_TRUE(CheckPassword(*users, "p", "p-pass"));  // Plaintext: checked through a derived verifier.
  EXPECT_FALSE(CheckPassword(*users, "nobody", "v-pass"));
  EXPECT_TRUE((*users)[0].password.empty());
  // Both, neither, MD5 without the plaintext, twice the same name: refused.
  for (std::string bad : {"[[user]]\nname = \"x\"\npassword = \"a\"\nverifier = \"" + verifier + "\"\n",
                          std::string("[[user]]\nname = \"x\"\n"),
                          "[[user]]\nname = \"x\"\nmethod = \"md5\"\nverifier = \"" + verifier + "\"\n",
                          "[[user]]\nname = \"x\"\nverifier = \"" + verifier + "\"\n[[user]]\nname = \"x\"\npassword = \"b\"\n"}) {
    auto refused = ParseAuthToml(bad, "users.toml");
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
  }
  // What `floe user add` writes reads back the same, and holds no password of a verifier user.
  std::string formatted = FormatAuthToml(*users);
  EXPECT_EQ(formatted.find("v-pass"), std::string::npos);
  auto again = ParseAuthToml(formatted, "formatted");
  ASSERT_TRUE(again.has_value()) << again.error().ToString() << "\n" << formatted;
  ASSERT_EQ(again->size(), 2u);
  EXPECT_EQ((*again)[0].role, "reader");
  EXPECT_TRUE(CheckPassword(*again, "v", "v-pass"));
  EXPECT_TRUE(CheckPassword(*again, "p", "p-pass"));
}

TEST(AuthSecrets, AGroupOrWorldReadableAuthFileIsRefused) {
  auto dir = std::filesystem::temp_directory_path() / ("floe-auth-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "users.toml").string();
  auto user = MakeAuthUser("alice", "wonder land", "admin");
  ASSERT_TRUE(user.has_value());
  ASSERT_TRUE(SaveAuthFile(path, {*user}).has_value());
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  auto loaded = LoadAuthFile(path);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_TRUE(CheckPassword(*loaded, "alice", "wonder land"));
  for (mode_t wide : {0644, 0640, 0604}) {
    ::chmod(path.c_str(), wide);
    auto refused = LoadAuthFile(path);
    ASSERT_FALSE(refused.has_value()) << wide;
    EXPECT_EQ(refused.error().kind(), ErrorKind::kPermissionDenied);
  }
  std::filesystem::remove_all(dir);
}

TEST(AuthSecrets, SecureRandomBytesAreFreshEachCall) {
  auto a = SecureRandomBytes(32);
  auto b = SecureRandomBytes(32);
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(a->size(), 32u);
  EXPECT_NE(*a, *b);
}

}  // namespace
}  // namespace floe::auth
