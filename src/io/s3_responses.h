// Decoders for the XML bodies S3 answers with, and the encoder for DeleteObjects. Each checks
// the root element and required fields, so a wrong or truncated body is a Corruption error
// naming what was missing. Stateless; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "io/object_store.h"

namespace floe::io {

struct S3ListPage {
  std::vector<ObjectInfo> objects;  // Keys as the bucket names them (store prefix included).
  std::vector<std::string> common_prefixes;
  std::optional<std::string> next_token;
};

struct S3ErrorBody {
  std::string code;     // "NoSuchKey", "SignatureDoesNotMatch", ...
  std::string message;  // The server's explanation.
};

struct S3DeleteFailure {
  std::string key;
  std::string code;
  std::string message;
};

Result<S3ListPage> ParseListObjectsV2(std::string_view xml);
Result<S3ErrorBody> ParseS3Error(std::string_view xml);
Result<std::string> ParseInitiateMultipartUpload(std::string_view xml);
// The keys that failed; empty when all were deleted.
Result<std::vector<S3DeleteFailure>> ParseDeleteResult(std::string_view xml);
// CompleteMultipartUpload can answer 200 with an <Error> body; that becomes an error here.
Status CheckCompleteMultipartUpload(std::string_view xml);

std::string DeleteObjectsBody(const std::vector<std::string>& keys);
std::string CompleteMultipartUploadBody(const std::vector<std::string>& etags);

// "2009-10-12T17:50:30.000Z" -> milliseconds since the epoch.
Result<int64_t> ParseIso8601Millis(std::string_view text);
// "Wed, 21 Oct 2015 07:28:00 GMT" -> milliseconds since the epoch.
Result<int64_t> ParseHttpDateMillis(std::string_view text);

}  // namespace floe::io
