#include "registry/registry_http.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/base64.h"

namespace floe::registry {
namespace {

class DiscardingLog : public RecordLog {
 public:
  Status Append(const std::string&, const std::optional<std::string>&) override { return OkStatus(); }
};

struct Answer {
  int status;
  nlohmann::json body;
  std::string content_type;
};

Answer Call(const net::HttpRouter& router, std::string method, std::string target, std::string body = "",
            std::string credentials = "") {
  net::HttpRequest request;
  request.method = std::move(method);
  request.target = target;
  size_t question = target.find('?');
  request.path = target.substr(0, question);
  if (question != std::string::npos) request.query_string = target.substr(question + 1);
  request.body = std::move(body);
  if (!credentials.empty()) request.headers.Set("Authorization", "Basic " + Base64Encode(credentials));
  net::HttpResponse response = router.Dispatch(request);
  return {response.status, nlohmann::json::parse(response.body, nullptr, false),
          std::string(response.headers.Get("Content-Type").value_or(""))};
}

TEST(RegistryHttp, ErrorBodiesCarryConfluentCodes) {
  DiscardingLog log;
  SchemaRegistry registry(log);
  auto router = MakeRegistryRouter(registry, {});
  ASSERT_TRUE(router.has_value());
  auto garbage = Call(*router, "POST", "/subjects/s/versions", "{\"schema\": ");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(garbage.body["error_code"], 400);
  EXPECT_EQ(garbage.content_type, "application/vnd.schemaregistry.v1+json");
  auto deep = Call(*router, "POST", "/subjects/s/versions", std::string(1000, '[') + std::string(1000, ']'));
  EXPECT_EQ(deep.body["error_code"], 400);
  auto unknown_type = Call(*router, "POST", "/subjects/s/versions", R"({"schemaType":"XML","schema":"<a/>"})");
  EXPECT_EQ(unknown_type.status, 422);
  EXPECT_EQ(unknown_type.body["error_code"], 42201);
  auto invalid = Call(*router, "POST", "/subjects/s/versions", R"({"schema":"{\"type\":\"nosuch\"}"})");
  EXPECT_EQ(invalid.body["error_code"], 42201);
  EXPECT_EQ(Call(*router, "GET", "/subjects/none/versions").body["error_code"], 40401);
  EXPECT_EQ(Call(*router, "GET", "/subjects/none/versions/zero").body["error_code"], 42202);
  EXPECT_EQ(Call(*router, "GET", "/schemas/ids/12").body["error_code"], 40403);
  EXPECT_EQ(Call(*router, "PUT", "/config", R"({"compatibility":"MAYBE"})").body["error_code"], 42203);

  auto registered = Call(*router, "POST", "/subjects/s/versions", R"({"schema":"\"string\""})");
  EXPECT_EQ(registered.status, 200);
  EXPECT_EQ(registered.body, nlohmann::json({{"id", 1}}));
  EXPECT_EQ(Call(*router, "GET", "/subjects/s/versions/7").body["error_code"], 40402);
  EXPECT_EQ(Call(*router, "GET", "/subjects/s/versions/latest").body["id"], 1);
  EXPECT_EQ(Call(*router, "DELETE", "/subjects/s?permanent=true").body["error_code"], 40405);
  EXPECT_EQ(Call(*router, "DELETE", "/subjects/s").body, nlohmann::json::array({1}));
}

TEST(RegistryHttp, RolesDecideWhatEachUserMayDo) {
  DiscardingLog log;
  SchemaRegistry registry(log);
  RegistryServerOptions options;
  options.users = {*auth::MakeAuthUser("rita", "r", "reader"), *auth::MakeAuthUser("wes", "w", "writer"),
                   *auth::MakeAuthUser("ada", "a", "admin")};
  auto router = MakeRegistryRouter(registry, options);
  ASSERT_TRUE(router.has_value());
  std::string schema = R"({"schema":"\"string\""})";
  auto anonymous = Call(*router, "GET", "/subjects");
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_EQ(anonymous.body["error_code"], 401);
  EXPECT_EQ(Call(*router, "POST", "/subjects/s/versions", schema, "rita:r").status, 403);
  EXPECT_EQ(Call(*router, "POST", "/subjects/s/versions", schema, "wes:w").status, 200);
  EXPECT_EQ(Call(*router, "POST", "/subjects/s", schema, "rita:r").body["id"], 1);  // A lookup reads.
  EXPECT_EQ(Call(*router, "POST", "/compatibility/subjects/s/versions/latest", schema, "rita:r").status, 200);
  EXPECT_EQ(Call(*router, "PUT", "/config/s", R"({"compatibility":"NONE"})", "wes:w").status, 403);
  EXPECT_EQ(Call(*router, "DELETE", "/subjects/s", "", "wes:w").status, 403);
  EXPECT_EQ(Call(*router, "PUT", "/mode", R"({"mode":"READONLY"})", "ada:a").status, 200);
  EXPECT_EQ(Call(*router, "POST", "/subjects/t/versions", schema, "wes:w").body["error_code"], 42205);
}

}  // namespace
}  // namespace floe::registry
