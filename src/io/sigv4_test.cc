// AWS's published Signature Version 4 examples: the general test suite ("get-vanilla" and
// friends: AKIDEXAMPLE, service "service", 20150830T123600Z) and the worked S3 examples of the
// S3 API reference (examplebucket, 20130524T000000Z). Expected values are AWS's.
#include "io/sigv4.h"

#include <gtest/gtest.h>

namespace floe::io {
namespace {

const AwsCredentials kSuite{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};
const AwsCredentials kS3Docs{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
constexpr std::string_view kEmptySha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

TEST(SigV4, EmptyPayloadHash) { EXPECT_EQ(Sha256Hex(""), kEmptySha); }

TEST(SigV4, SuiteGetVanilla) {
  SigV4Request req{.method = "GET",
                   .canonical_uri = "/",
                   .headers = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}},
                   .payload_hash = std::string(kEmptySha)};
  SigV4Result r = SignV4(req, kSuite, "us-east-1", "service", "20150830T123600Z");
  EXPECT_EQ(r.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
                std::string(kEmptySha));
  EXPECT_EQ(r.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4, SuiteGetVanillaQueryOrderKeyCase) {
  SigV4Request req{.method = "GET",
                   .canonical_uri = "/",
                   .query = {{"Param2", "value2"}, {"Param1", "value1"}},
                   .headers = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}},
                   .payload_hash = std::string(kEmptySha)};
  SigV4Result r = SignV4(req, kSuite, "us-east-1", "service", "20150830T123600Z");
  EXPECT_EQ(r.signature, "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

TEST(SigV4, S3GetObjectWithRange) {
  SigV4Request req{.method = "GET",
                   .canonical_uri = "/test.txt",
                   .headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                               {"Range", "bytes=0-9"},
                               {"x-amz-content-sha256", std::string(kEmptySha)},
                               {"x-amz-date", "20130524T000000Z"}},
                   .payload_hash = std::string(kEmptySha)};
  SigV4Result r = SignV4(req, kS3Docs, "us-east-1", "s3", "20130524T000000Z");
  EXPECT_EQ(Sha256Hex(r.canonical_request), "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(r.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, S3PutObject) {
  std::string body = "Welcome to Amazon S3.";
  std::string hash = Sha256Hex(body);
  EXPECT_EQ(hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SigV4Request req{.method = "PUT",
                   .canonical_uri = "/test%24file.text",
                   .headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                               {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                               {"x-amz-date", "20130524T000000Z"},
                               {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                               {"x-amz-content-sha256", hash}},
                   .payload_hash = hash};
  SigV4Result r = SignV4(req, kS3Docs, "us-east-1", "s3", "20130524T000000Z");
  EXPECT_EQ(Sha256Hex(r.canonical_request), "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
  EXPECT_EQ(r.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  EXPECT_NE(r.authorization.find("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class"),
            std::string::npos);
}

TEST(SigV4, S3GetBucketLifecycleValuelessQuery) {
  SigV4Request req{.method = "GET",
                   .canonical_uri = "/",
                   .query = {{"lifecycle", ""}},
                   .headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                               {"x-amz-content-sha256", std::string(kEmptySha)},
                               {"x-amz-date", "20130524T000000Z"}},
                   .payload_hash = std::string(kEmptySha)};
  SigV4Result r = SignV4(req, kS3Docs, "us-east-1", "s3", "20130524T000000Z");
  EXPECT_EQ(Sha256Hex(r.canonical_request), "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca");
  EXPECT_EQ(r.signature, "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST(SigV4, S3ListObjectsSortsQuery) {
  SigV4Request req{.method = "GET",
                   .canonical_uri = "/",
                   .query = {{"prefix", "J"}, {"max-keys", "2"}},
                   .headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                               {"x-amz-content-sha256", std::string(kEmptySha)},
                               {"x-amz-date", "20130524T000000Z"}},
                   .payload_hash = std::string(kEmptySha)};
  SigV4Result r = SignV4(req, kS3Docs, "us-east-1", "s3", "20130524T000000Z");
  EXPECT_EQ(r.signature, "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4, CanonicalizesHeaderValuesAndQueryEncoding) {
  SigV4Request req{.method = "GET",
                   .canonical_uri = "/",
                   .query = {{"b", "x y/z"}, {"a", "~-_."}},
                   .headers = {{"My-Header", "  a   b  "}, {"my-header", "c"}},
                   .payload_hash = "UNSIGNED-PAYLOAD"};
  SigV4Result r = SignV4(req, kSuite, "us-east-1", "s3", "20150830T123600Z");
  EXPECT_EQ(r.canonical_request, "GET\n/\na=~-_.&b=x%20y%2Fz\nmy-header:a b,c\n\nmy-header\nUNSIGNED-PAYLOAD");
}

TEST(SigV4, Md5Base64) { EXPECT_EQ(Md5Base64(""), "1B2M2Y8AsgTpgAmY7PhCfg=="); }

}  // namespace
}  // namespace floe::io
