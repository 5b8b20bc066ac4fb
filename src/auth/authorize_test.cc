// The one authorization decision (issue #27): roles by default, grants widening and narrowing
// them per topic, namespace and group, deny over allow, group ownership by name.
#include <gtest/gtest.h>

#include "auth/authorize.h"

namespace floe::auth {
namespace {

constexpr Operation kAll[] = {Operation::kRead, Operation::kWrite, Operation::kCreate, Operation::kDelete,
                              Operation::kAlter};

std::vector<AuthUser> Users(const std::string& text) {
  auto users = ParseAuthToml(text, "users.toml");
  EXPECT_TRUE(users.has_value()) << users.error().ToString();
  return users.value_or(std::vector<AuthUser>{});
}

const std::string kRoles =
    "[[user]]\nname = \"r\"\npassword = \"x\"\nrole = \"reader\"\n"
    "[[user]]\nname = \"w\"\npassword = \"x\"\nrole = \"writer\"\n"
    "[[user]]\nname = \"a\"\npassword = \"x\"\nrole = \"admin\"\n";

Resource Topic(std::string_view name) { return {ResourceKind::kTopic, name}; }
Resource Namespace(std::string_view name) { return {ResourceKind::kNamespace, name}; }
Resource Group(std::string_view name) { return {ResourceKind::kGroup, name}; }

TEST(AuthAuthorize, WithoutGrantsTheRolesDecideAsBefore) {
  auto users = Users(kRoles);
  for (Resource resource : {Topic("orders"), Namespace("shop")}) {
    EXPECT_TRUE(Authorize(users, "r", resource, Operation::kRead));
    EXPECT_FALSE(Authorize(users, "r", resource, Operation::kWrite));
    EXPECT_TRUE(Authorize(users, "w", resource, Operation::kWrite));
    for (Operation structural : {Operation::kCreate, Operation::kDelete, Operation::kAlter}) {
      EXPECT_FALSE(Authorize(users, "r", resource, structural));
      EXPECT_FALSE(Authorize(users, "w", resource, structural));
      EXPECT_TRUE(Authorize(users, "a", resource, structural));
    }
  }
  // No users configured: nothing is restricted. An unknown user is a reader.
  for (Operation operation : kAll) EXPECT_TRUE(Authorize({}, "anyone", Topic("t"), operation));
  EXPECT_TRUE(Authorize(users, "nobody", Topic("t"), Operation::kRead));
  EXPECT_FALSE(Authorize(users, "nobody", Topic("t"), Operation::kWrite));
  // The principal form agrees with the lookup form.
  Principal reader = PrincipalOf(users, "r");
  EXPECT_EQ(reader.role, Role::kReader);
  EXPECT_TRUE(Authorize(reader, Topic("t"), Operation::kRead));
  EXPECT_FALSE(Authorize(reader, Topic("t"), Operation::kWrite));
  EXPECT_TRUE(Authorize(Principal{}, Topic("t"), Operation::kDelete));
}

TEST(AuthAuthorize, GrantsWidenAndNarrowOnlyWhatTheyName) {
  auto users = Users(kRoles +
                     "[[grant]]\nuser = \"r\"\ntopic = \"clicks\"\nallow = [\"write\"]\n"
                     "[[grant]]\nuser = \"r\"\nnamespace = \"sandbox*\"\nallow = [\"create\", \"delete\", \"write\"]\n"
                     "[[grant]]\nuser = \"w\"\ntopic = \"audit\"\ndeny = [\"write\"]\n"
                     "[[grant]]\nuser = \"w\"\nnamespace = \"finance\"\ndeny = [\"read\", \"write\"]\n"
                     "[[grant]]\nuser = \"a\"\ntopic = \"orders\"\ndeny = [\"delete\"]\n");
  // Widened: the reader writes one topic and works in the sandbox namespaces, nowhere else.
  EXPECT_TRUE(Authorize(users, "r", Topic("clicks"), Operation::kWrite));
  EXPECT_FALSE(Authorize(users, "r", Topic("clicks2"), Operation::kWrite));  // Exact, not a prefix.
  EXPECT_FALSE(Authorize(users, "r", Topic("orders"), Operation::kWrite));
  EXPECT_FALSE(Authorize(users, "r", Topic("clicks"), Operation::kDelete));
  EXPECT_TRUE(Authorize(users, "r", Namespace("sandbox"), Operation::kCreate));
  EXPECT_TRUE(Authorize(users, "r", Namespace("sandbox_ana"), Operation::kDelete));
  EXPECT_FALSE(Authorize(users, "r", Namespace("sandbox"), Operation::kAlter));
  EXPECT_FALSE(Authorize(users, "r", Namespace("shop"), Operation::kCreate));
  // A topic grant does not reach a namespace of the same name.
  EXPECT_FALSE(Authorize(users, "r", Namespace("clicks"), Operation::kWrite));
  // Narrowed: the writer keeps the rest of its role.
  EXPECT_FALSE(Authorize(users, "w", Topic("audit"), Operation::kWrite));
  EXPECT_TRUE(Authorize(users, "w", Topic("audit"), Operation::kRead));
  EXPECT_TRUE(Authorize(users, "w", Topic("orders"), Operation::kWrite));
  EXPECT_FALSE(Authorize(users, "w", Namespace("finance"), Operation::kRead));
  EXPECT_TRUE(Authorize(users, "w", Namespace("finance2"), Operation::kRead));
  // A deny binds an admin too, on what it names alone.
  EXPECT_FALSE(Authorize(users, "a", Topic("orders"), Operation::kDelete));
  EXPECT_TRUE(Authorize(users, "a", Topic("orders"), Operation::kAlter));
  EXPECT_TRUE(Authorize(users, "a", Topic("other"), Operation::kDelete));
  // Grants are per user: another user's grant changes nothing.
  EXPECT_FALSE(Authorize(users, "w", Namespace("sandbox"), Operation::kCreate));
}

TEST(AuthAuthorize, DenyWinsOverAnyAllowWhateverTheOrder) {
  for (std::string grants : {std::string("[[grant]]\nuser = \"r\"\ntopic = \"logs*\"\nallow = [\"write\"]\n"
                                         "[[grant]]\nuser = \"r\"\ntopic = \"logs.secret\"\ndeny = [\"write\", \"read\"]\n"),
                             std::string("[[grant]]\nuser = \"r\"\ntopic = \"logs.secret\"\ndeny = [\"write\", \"read\"]\n"
                                         "[[grant]]\nuser = \"r\"\ntopic = \"logs*\"\nallow = [\"write\"]\n")}) {
    auto users = Users(kRoles + grants);
    EXPECT_TRUE(Authorize(users, "r", Topic("logs.web"), Operation::kWrite));
    EXPECT_FALSE(Authorize(users, "r", Topic("logs.secret"), Operation::kWrite));
    EXPECT_FALSE(Authorize(users, "r", Topic("logs.secret"), Operation::kRead));
    EXPECT_TRUE(Authorize(users, "r", Topic("logs.web"), Operation::kRead));
  }
}

TEST(AuthAuthorize, GroupsBelongToTheirOwnersByName) {
  EXPECT_TRUE(OwnsGroupByName("ana", "ana"));
  EXPECT_TRUE(OwnsGroupByName("ana", "ana-dash"));
  EXPECT_TRUE(OwnsGroupByName("ana", "ana.etl"));
  EXPECT_TRUE(OwnsGroupByName("ana", "ana_x"));
  EXPECT_FALSE(OwnsGroupByName("ana", "anab"));     // Another user's name, not ana's.
  EXPECT_FALSE(OwnsGroupByName("ana", "an"));
  EXPECT_FALSE(OwnsGroupByName("ana", "x-ana"));
  EXPECT_FALSE(OwnsGroupByName("", "-x"));
  EXPECT_FALSE(OwnsGroupByName("floe", "floe-stream-orders"));  // floe's own clients' groups.
  EXPECT_FALSE(OwnsGroupByName("floe-stream", "floe-stream-orders"));

  auto users = Users(kRoles + "[[user]]\nname = \"floe\"\npassword = \"x\"\n"
                              "[[grant]]\nuser = \"r\"\ngroup = \"dash-*\"\nallow = [\"read\"]\n"
                              "[[grant]]\nuser = \"w\"\ngroup = \"w-locked\"\ndeny = [\"read\"]\n");
  // A reader or writer uses its own groups, granted ones, and no other; an admin uses any.
  EXPECT_TRUE(Authorize(users, "r", Group("r-console"), Operation::kRead));
  EXPECT_TRUE(Authorize(users, "r", Group("dash-sales"), Operation::kRead));
  EXPECT_FALSE(Authorize(users, "r", Group("dash-sales"), Operation::kDelete));
  EXPECT_FALSE(Authorize(users, "r", Group("floe-stream-orders"), Operation::kRead));
  EXPECT_FALSE(Authorize(users, "w", Group("floe-stream-orders"), Operation::kRead));
  EXPECT_FALSE(Authorize(users, "floe", Group("floe-stream-orders"), Operation::kRead));
  EXPECT_FALSE(Authorize(users, "w", Group("r-console"), Operation::kRead));
  EXPECT_TRUE(Authorize(users, "w", Group("w"), Operation::kDelete));
  EXPECT_FALSE(Authorize(users, "w", Group("w-locked"), Operation::kRead));  // Its own, but denied.
  EXPECT_TRUE(Authorize(users, "a", Group("floe-stream-orders"), Operation::kRead));
  EXPECT_TRUE(Authorize(users, "a", Group("anything"), Operation::kDelete));
}

TEST(AuthAuthorize, SomewhereAndEverywhere) {
  auto users = Users(kRoles +
                     "[[grant]]\nuser = \"r\"\nnamespace = \"sandbox\"\nallow = [\"create\"]\n"
                     "[[grant]]\nuser = \"w\"\nnamespace = \"finance\"\ndeny = [\"read\"]\n"
                     "[[grant]]\nuser = \"w\"\ntopic = \"*\"\nallow = [\"alter\"]\n");
  Principal reader = PrincipalOf(users, "r");
  Principal writer = PrincipalOf(users, "w");
  Principal admin = PrincipalOf(users, "a");
  EXPECT_TRUE(AllowedSomewhere(reader, ResourceKind::kNamespace, Operation::kCreate));
  EXPECT_FALSE(AllowedSomewhere(reader, ResourceKind::kNamespace, Operation::kDelete));
  EXPECT_FALSE(AllowedSomewhere(reader, ResourceKind::kTopic, Operation::kCreate));
  EXPECT_TRUE(AllowedSomewhere(reader, ResourceKind::kGroup, Operation::kRead));  // Its own groups.
  EXPECT_TRUE(AllowedSomewhere(writer, ResourceKind::kNamespace, Operation::kRead));
  EXPECT_TRUE(AllowedSomewhere(admin, ResourceKind::kTopic, Operation::kDelete));

  EXPECT_TRUE(AllowedEverywhere(reader, ResourceKind::kNamespace, Operation::kRead));
  EXPECT_FALSE(AllowedEverywhere(reader, ResourceKind::kNamespace, Operation::kCreate));  // One namespace only.
  EXPECT_FALSE(AllowedEverywhere(writer, ResourceKind::kNamespace, Operation::kRead));   // Not finance.
  EXPECT_TRUE(AllowedEverywhere(writer, ResourceKind::kTopic, Operation::kAlter));       // topic = "*".
  EXPECT_TRUE(AllowedEverywhere(admin, ResourceKind::kNamespace, Operation::kDelete));
  EXPECT_TRUE(AllowedEverywhere(admin, ResourceKind::kGroup, Operation::kRead));
  EXPECT_FALSE(AllowedEverywhere(reader, ResourceKind::kGroup, Operation::kRead));
}

}  // namespace
}  // namespace floe::auth
