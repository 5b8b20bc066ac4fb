#include "base/result.h"

#include <cerrno>

#include <gtest/gtest.h>

namespace floe {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return InvalidArgument("value {} is not positive", v);
  return v;
}

Result<int> Doubled(int v) {
  FLOE_ASSIGN_OR_RETURN_CTX(int parsed, ParsePositive(v), "doubling");
  return parsed * 2;
}

Status CheckBoth(int a, int b) {
  FLOE_RETURN_IF_ERROR(ParsePositive(a));
  FLOE_RETURN_IF_ERROR_CTX(ParsePositive(b), fmt::format("second argument"));
  return OkStatus();
}

TEST(Result, ValuesPassThrough) {
  auto r = Doubled(21);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, 42);
  EXPECT_TRUE(CheckBoth(1, 2).has_value());
}

TEST(Result, ErrorsPropagateWithContext) {
  auto r = Doubled(-1);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(r.error().message(), "doubling: value -1 is not positive");
  EXPECT_EQ(r.error().ToString(), "invalid argument: doubling: value -1 is not positive");

  auto s = CheckBoth(1, 0);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message(), "second argument: value 0 is not positive");
}

TEST(Result, CodesAndPositionsSurviveContext) {
  Status s = CodedError(ErrorCode::kNoSuchTable, "no such table: {}", "db.t");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().kind(), ErrorKind::kNotFound);
  Error wrapped = Error(s.error()).WithPosition({3, 14}).WithContext("loading");
  EXPECT_EQ(wrapped.code(), ErrorCode::kNoSuchTable);
  ASSERT_TRUE(wrapped.position().has_value());
  EXPECT_EQ(wrapped.position()->line, 3);
  EXPECT_EQ(wrapped.position()->column, 14);
  EXPECT_EQ(wrapped.message(), "loading: no such table: db.t");
  // Without a code, an error's text never stands for one.
  EXPECT_EQ(Error(ErrorKind::kNotFound, "no such table: db.t").code(), ErrorCode::kUnspecified);
}

TEST(Result, EveryCodeHasAKindAndAName) {
  for (ErrorCode code :
       {ErrorCode::kNoSuchCatalog, ErrorCode::kNoSuchNamespace, ErrorCode::kNoSuchTable, ErrorCode::kNoSuchView,
        ErrorCode::kNoSuchColumn, ErrorCode::kNoSuchFunction, ErrorCode::kNamespaceNotEmpty, ErrorCode::kSyntaxError,
        ErrorCode::kTypeMismatch, ErrorCode::kDivisionByZero, ErrorCode::kInvalidParameterValue,
        ErrorCode::kMergeTargetRowMultipleMatches}) {
    EXPECT_NE(ErrorCodeKind(code), ErrorKind::kInternal) << ErrorCodeName(code);
    EXPECT_FALSE(ErrorCodeName(code).empty());
  }
}

TEST(Result, RetryableKinds) {
  EXPECT_TRUE(Error(ErrorKind::kConflict, "x").IsRetryable());
  EXPECT_TRUE(Error(ErrorKind::kUnavailable, "x").IsRetryable());
  EXPECT_FALSE(Error(ErrorKind::kCorruption, "x").IsRetryable());
}

TEST(Result, ErrnoMapsToKinds) {
  EXPECT_EQ(ErrnoError(ENOENT, "open", "/a").error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(ErrnoError(ENOSPC, "write", "/a").error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_EQ(ErrnoError(EIO, "fsync", "/a").error().kind(), ErrorKind::kIo);
  EXPECT_NE(ErrnoError(ENOENT, "open", "/a/b").error().message().find("open /a/b"), std::string::npos);
}

}  // namespace
}  // namespace floe
