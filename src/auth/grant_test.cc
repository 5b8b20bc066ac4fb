// [[grant]] entries of the auth file (issue #27): what parses, what is refused and how the
// refusal names its line, and that grants survive a rewrite of the file.
#include <gtest/gtest.h>

#include <string>

#include "auth/users.h"

namespace floe::auth {
namespace {

// Two users on lines 1-3 and 4-6, then `grants` from line 7.
const std::string kUsers =
    "[[user]]\nname = \"ana\"\npassword = \"x\"\n"
    "[[user]]\nname = \"bo\"\npassword = \"x\"\n";

Result<std::vector<AuthUser>> Parse(const std::string& grants) { return ParseAuthToml(kUsers + grants, "users.toml"); }

// The refusal of `grants`, which must fail with kInvalidArgument.
std::string Refusal(const std::string& grants) {
  auto parsed = Parse(grants);
  if (parsed.has_value()) return "(accepted)";
  EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument);
  return parsed.error().message();
}

TEST(AuthGrants, GrantsAttachToTheirUserInFileOrder) {
  auto users = Parse(
      "[[grant]]\nuser = \"ana\"\ntopic = \"orders\"\nallow = [\"read\", \"write\"]\n"
      "[[grant]]\nuser = \"ana\"\nnamespace = \"shop*\"\ndeny = [\"delete\"]\n"
      "[[grant]]\nuser = \"bo\"\ngroup = \"dash-*\"\nallow = [\"read\"]\ndeny = [\"delete\"]\n");
  ASSERT_TRUE(users.has_value()) << users.error().ToString();
  const AuthUser& ana = (*users)[0];
  ASSERT_EQ(ana.grants.size(), 2u);
  EXPECT_EQ(ana.grants[0].resource.kind, ResourceKind::kTopic);
  EXPECT_EQ(ana.grants[0].resource.Text(), "orders");
  EXPECT_FALSE(ana.grants[0].resource.prefix);
  EXPECT_TRUE(ana.grants[0].allow.Has(Operation::kRead));
  EXPECT_TRUE(ana.grants[0].allow.Has(Operation::kWrite));
  EXPECT_FALSE(ana.grants[0].allow.Has(Operation::kCreate));
  EXPECT_EQ(ana.grants[0].line, 7);
  EXPECT_EQ(ana.grants[1].resource.kind, ResourceKind::kNamespace);
  EXPECT_TRUE(ana.grants[1].resource.prefix);
  EXPECT_EQ(ana.grants[1].resource.name, "shop");
  EXPECT_TRUE(ana.grants[1].deny.Has(Operation::kDelete));
  EXPECT_TRUE(ana.grants[1].allow.empty());
  ASSERT_EQ((*users)[1].grants.size(), 1u);
  EXPECT_EQ((*users)[1].grants[0].resource.kind, ResourceKind::kGroup);
}

TEST(AuthGrants, EveryMistakeIsRefusedNamingItsLine) {
  struct Case {
    std::string grants;
    std::string expected;  // A piece of the message.
  };
  const Case cases[] = {
      {"[[grant]]\ntopic = \"t\"\nallow = [\"read\"]\n", "users.toml:7: a [[grant]] needs user"},
      {"[[grant]]\nuser = \"\"\ntopic = \"t\"\nallow = [\"read\"]\n", "users.toml:7: a [[grant]] needs user"},
      {"[[grant]]\nuser = \"cy\"\ntopic = \"t\"\nallow = [\"read\"]\n", "users.toml:7: [[grant]] for user 'cy', who has no [[user]]"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [\"publish\"]\n", "users.toml:7: allow: unknown operation 'publish'"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [\"READ\"]\n", "unknown operation 'READ'"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = \"read\"\n", "users.toml:7: allow must be an array"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [1]\n", "users.toml:7: allow must be an array of operations (strings)"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [\"read\", \"read\"]\n", "allow names read twice"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [\"read\"]\ndeny = [\"read\"]\n", "both allows and denies read"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\n", "users.toml:7: a [[grant]] needs allow or deny"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = []\n", "needs allow or deny"},
      {"[[grant]]\nuser = \"ana\"\nallow = [\"read\"]\n", "exactly one of topic, namespace or group"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nnamespace = \"n\"\nallow = [\"read\"]\n", "exactly one of"},
      {"[[grant]]\nuser = \"ana\"\ntopic = 7\nallow = [\"read\"]\n", "topic must be a string"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"\"\nallow = [\"read\"]\n", "an empty topic name"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"a*b\"\nallow = [\"read\"]\n", "'*' may only end a name"},
      {"[[grant]]\nuser = \"ana\"\ntopic = \"a\\u0001\"\nallow = [\"read\"]\n", "control character"},
      {"[[grant]]\nuser = \"ana\"\ngroup = \"g\"\nallow = [\"write\"]\n", "a group takes read or delete, not write"},
      {"[[grant]]\nuser = \"ana\"\ntopics = \"t\"\nallow = [\"read\"]\n", "users.toml:7: unknown key 'topics'"},
      // A key after the last [[user]] is that user's: a misplaced one is unknown there.
      {"grant = \"everything\"\n", "users.toml:7: unknown key 'grant' (a [[user]] takes"},
      // Two grants for one user and resource: refused, naming both lines.
      {"[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [\"read\"]\n[[grant]]\nuser = \"ana\"\ntopic = \"t\"\ndeny = [\"write\"]\n",
       "users.toml:11: a second [[grant]] for user 'ana' on topic 't' (the first is on line 7)"},
      // TOML that does not parse at all: the line of the damage.
      {"[[grant]]\nuser = \"ana\ntopic = \"t\"\n", "users.toml:8:"},
      {"[[grant\n", "users.toml:7:"},
  };
  for (const Case& c : cases) {
    std::string message = Refusal(c.grants);
    EXPECT_NE(message.find(c.expected), std::string::npos) << "grants:\n" << c.grants << "message: " << message;
  }
  // Grants that are not tables.
  for (std::string bad : {"grant = \"everything\"\n" + kUsers, "grant = [1]\n" + kUsers}) {
    auto parsed = ParseAuthToml(bad, "users.toml");
    ASSERT_FALSE(parsed.has_value());
    EXPECT_NE(parsed.error().message().find("users.toml:1: "), std::string::npos) << parsed.error().message();
  }
  // The same pattern for two users, or two patterns for one user, is fine.
  EXPECT_TRUE(Parse("[[grant]]\nuser = \"ana\"\ntopic = \"t\"\nallow = [\"read\"]\n"
                    "[[grant]]\nuser = \"bo\"\ntopic = \"t\"\nallow = [\"read\"]\n"
                    "[[grant]]\nuser = \"ana\"\ntopic = \"t*\"\nallow = [\"read\"]\n"
                    "[[grant]]\nuser = \"ana\"\nnamespace = \"t\"\nallow = [\"read\"]\n")
                  .has_value());
}

TEST(AuthGrants, GarbageAndOversizeInputNeverCrashTheParser) {
  // Bytes that are not TOML, truncations of a valid file at every length, and a huge file.
  const std::string valid = kUsers + "[[grant]]\nuser = \"ana\"\ntopic = \"orders*\"\nallow = [\"read\", \"write\"]\n";
  for (size_t cut = 0; cut <= valid.size(); ++cut) {
    auto parsed = ParseAuthToml(valid.substr(0, cut), "cut.toml");
    if (!parsed.has_value()) {
      EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument) << cut;
    }
  }
  for (std::string garbage : {std::string("\xff\xfe\x00\x01", 4), std::string(4096, '['), std::string("[[grant]]\n") + std::string(1 << 16, '"'),
                              std::string("[[grant]]\nuser = \"ana\"\ntopic = \"") + std::string(1 << 20, 'x') + "\"\nallow = [\"read\"]\n"}) {
    auto parsed = ParseAuthToml(kUsers + garbage, "garbage.toml");
    if (!parsed.has_value()) {
      EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument);
    }
  }
  std::string many = kUsers;
  for (int i = 0; i < 2000; ++i) many += "[[grant]]\nuser = \"ana\"\ntopic = \"t" + std::to_string(i) + "\"\nallow = [\"read\"]\n";
  auto parsed = ParseAuthToml(many, "many.toml");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  EXPECT_EQ((*parsed)[0].grants.size(), 2000u);
}

TEST(AuthGrants, GrantsSurviveRewritingTheFile) {
  auto users = Parse("[[grant]]\nuser = \"bo\"\ngroup = \"*\"\nallow = [\"read\"]\ndeny = [\"delete\"]\n"
                     "[[grant]]\nuser = \"ana\"\nnamespace = \"shop\"\nallow = [\"create\", \"alter\"]\n");
  ASSERT_TRUE(users.has_value()) << users.error().ToString();
  std::string formatted = FormatAuthToml(*users);
  auto again = ParseAuthToml(formatted, "formatted.toml");
  ASSERT_TRUE(again.has_value()) << again.error().ToString() << "\n" << formatted;
  for (size_t u = 0; u < users->size(); ++u) {
    ASSERT_EQ((*again)[u].grants.size(), (*users)[u].grants.size()) << formatted;
    for (size_t g = 0; g < (*users)[u].grants.size(); ++g) {
      EXPECT_EQ((*again)[u].grants[g].resource, (*users)[u].grants[g].resource);
      EXPECT_EQ((*again)[u].grants[g].allow, (*users)[u].grants[g].allow);
      EXPECT_EQ((*again)[u].grants[g].deny, (*users)[u].grants[g].deny);
    }
  }
}

}  // namespace
}  // namespace floe::auth
