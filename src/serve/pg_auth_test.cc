#include "serve/pg_auth.h"

#include <gtest/gtest.h>

namespace floe::serve::pg {
namespace {

TEST(PgAuthTest, Md5ResponseIsPostgresSaltedHash) {
  // md5(md5("secret" + "alice") + salt) computed independently (Python hashlib).
  EXPECT_EQ(Md5Response("alice", "secret", std::string("\x01\x02\x03\x04", 4)), "md598a0412b9c31436fc53776e863350083");
}

}  // namespace
}  // namespace floe::serve::pg
