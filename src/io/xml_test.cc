#include "io/xml.h"

#include <gtest/gtest.h>

#include "io/s3_responses.h"

namespace floe::io {
namespace {

constexpr std::string_view kList = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name><Prefix>w/</Prefix><KeyCount>3</KeyCount><MaxKeys>2</MaxKeys>
  <IsTruncated>true</IsTruncated>
  <Contents><Key>w/a&amp;b &lt;1&gt;</Key><LastModified>2009-10-12T17:50:30.000Z</LastModified>
    <ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag><Size>434234</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key><![CDATA[w/c]]></Key><Size>0</Size></Contents>
  <CommonPrefixes><Prefix>w/d/</Prefix></CommonPrefixes>
  <!-- a comment -->
  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
</ListBucketResult>)";

TEST(Xml, ParsesElementsTextEntitiesAndCdata) {
  auto root = ParseXml("<?xml version=\"1.0\"?><a x='1' y=\"a>b\"><b>t&#65;&#x42;&#x20AC;</b><c/><ns:d>x</ns:d></a>");
  ASSERT_TRUE(root) << root.error().ToString();
  EXPECT_EQ(root->name, "a");
  ASSERT_EQ(root->children.size(), 3u);
  EXPECT_EQ(root->ChildText("b"), "tAB\xE2\x82\xAC");
  EXPECT_NE(root->Child("c"), nullptr);
  EXPECT_EQ(root->ChildText("d"), "x");
  EXPECT_EQ(root->ChildText("missing"), "");
}

TEST(Xml, RefusesMalformedDocuments) {
  for (std::string_view bad : {"", "   ", "text", "<a>", "<a></b>", "<a><b></a></b>", "<a>&bogus;</a>", "<a>&amp</a>",
                               "<a>&#xZZ;</a>", "<a>&#xD800;</a>", "<a>&#1114112;</a>", "<a x=1></a>", "<a x='1></a>",
                               "<a></a><b></b>", "<a></a>trailing", "<a><!-- unterminated</a>", "<a><![CDATA[x</a>",
                               "<?xml", "<>", "</a>", "<a/ >", "<a"}) {
    auto r = ParseXml(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << bad;
  }
}

TEST(Xml, BoundsNestingDepth) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  auto r = ParseXml(deep);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("deeply"), std::string::npos);
  std::string ok;
  for (int i = 0; i < kMaxXmlDepth; ++i) ok += "<a>";
  for (int i = 0; i < kMaxXmlDepth; ++i) ok += "</a>";
  EXPECT_TRUE(ParseXml(ok));
}

TEST(Xml, EveryTruncationOfAResponseFailsCleanly) {
  for (size_t cut = 0; cut < kList.size(); ++cut) {
    std::string_view prefix = kList.substr(0, cut);
    auto r = ParseListObjectsV2(prefix);
    // Trailing whitespace/comment cuts after </ListBucketResult> cannot happen: it is last.
    EXPECT_FALSE(r) << "cut at " << cut;
  }
  EXPECT_TRUE(ParseListObjectsV2(kList));
}

TEST(Xml, GarbageNeverCrashes) {
  uint32_t x = 7;
  const std::string alphabet = "<>/&;#x!?-[]='\" abAB\x00\xff";
  for (int round = 0; round < 5000; ++round) {
    std::string junk;
    size_t n = round % 64;
    for (size_t i = 0; i < n; ++i) {
      x = x * 1103515245u + 12345u;
      junk.push_back(alphabet[(x >> 16) % alphabet.size()]);
    }
    (void)ParseXml(junk);
    (void)ParseListObjectsV2(junk);
    (void)ParseS3Error(junk);
  }
  // Mutations of a real response: every byte flipped.
  std::string doc(kList);
  for (size_t i = 0; i < doc.size(); ++i) {
    std::string mutated = doc;
    mutated[i] = static_cast<char>(mutated[i] ^ 0x5a);
    (void)ParseListObjectsV2(mutated);
  }
}

TEST(Xml, OversizeInputIsJustLong) {
  std::string big = "<a>" + std::string(8 << 20, 'x') + "</a>";
  auto r = ParseXml(big);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text.size(), 8u << 20);
}

TEST(Xml, EscapeRoundTrips) {
  std::string text = "a&b<c>d\"e'f";
  auto r = ParseXml("<k>" + XmlEscape(text) + "</k>");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text, text);
}

TEST(S3Responses, ListObjectsV2) {
  auto page = ParseListObjectsV2(kList);
  ASSERT_TRUE(page) << page.error().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "w/a&b <1>");
  EXPECT_EQ(page->objects[0].size, 434234u);
  EXPECT_EQ(page->objects[0].last_modified_millis, 1255369830000);
  EXPECT_EQ(page->objects[0].etag, "\"fba9dede5f27731c9771645a39863328\"");
  EXPECT_EQ(page->objects[1].key, "w/c");
  EXPECT_EQ(page->common_prefixes, std::vector<std::string>{"w/d/"});
  EXPECT_EQ(page->next_token.value(), "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
}

TEST(S3Responses, ListObjectsV2RefusesInconsistentBodies) {
  EXPECT_FALSE(ParseListObjectsV2("<Error><Code>X</Code></Error>"));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>"));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>"));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>99999999999999999999999</Size></Contents></ListBucketResult>"));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>1</Size><LastModified>yesterday</LastModified></Contents></ListBucketResult>"));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>"));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><CommonPrefixes></CommonPrefixes></ListBucketResult>"));
  auto empty = ParseListObjectsV2("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->objects.empty());
  EXPECT_FALSE(empty->next_token);
}

TEST(S3Responses, ErrorsUploadsAndDeletes) {
  auto err = ParseS3Error("<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match</Message></Error>");
  ASSERT_TRUE(err);
  EXPECT_EQ(err->code, "SignatureDoesNotMatch");
  EXPECT_FALSE(ParseS3Error("<Error><Message>no code</Message></Error>"));
  EXPECT_EQ(ParseInitiateMultipartUpload("<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>abc</UploadId></InitiateMultipartUploadResult>").value(), "abc");
  EXPECT_FALSE(ParseInitiateMultipartUpload("<InitiateMultipartUploadResult></InitiateMultipartUploadResult>"));
  auto deleted = ParseDeleteResult("<DeleteResult><Deleted><Key>a</Key></Deleted><Error><Key>b</Key><Code>AccessDenied</Code><Message>no</Message></Error></DeleteResult>");
  ASSERT_TRUE(deleted);
  ASSERT_EQ(deleted->size(), 1u);
  EXPECT_EQ((*deleted)[0].key, "b");
  EXPECT_TRUE(CheckCompleteMultipartUpload("<CompleteMultipartUploadResult><ETag>x</ETag></CompleteMultipartUploadResult>"));
  EXPECT_FALSE(CheckCompleteMultipartUpload("<Error><Code>InternalError</Code></Error>"));
  EXPECT_FALSE(CheckCompleteMultipartUpload("garbage"));
}

TEST(S3Responses, Dates) {
  EXPECT_EQ(ParseIso8601Millis("1970-01-01T00:00:00Z").value(), 0);
  EXPECT_EQ(ParseIso8601Millis("2009-10-12T17:50:30.123Z").value(), 1255369830123);
  EXPECT_EQ(ParseHttpDateMillis("Wed, 21 Oct 2015 07:28:00 GMT").value(), 1445412480000);
  for (std::string_view bad : {"", "2009-13-12T17:50:30Z", "2009-10-12", "2009-10-12T17:50:30", "2009-10-12T17:50:30Zjunk"}) {
    EXPECT_FALSE(ParseIso8601Millis(bad)) << bad;
  }
  EXPECT_FALSE(ParseHttpDateMillis("Wed, 21 Foo 2015 07:28:00 GMT"));
  EXPECT_FALSE(ParseHttpDateMillis("nonsense"));
}

TEST(S3Responses, RequestBodiesEscapeKeys) {
  std::string body = DeleteObjectsBody({"a&b", "c<d"});
  auto parsed = ParseXml(body);
  ASSERT_TRUE(parsed) << body;
  ASSERT_EQ(parsed->children.size(), 3u);
  EXPECT_EQ(parsed->children[1].ChildText("Key"), "a&b");
  EXPECT_EQ(parsed->children[2].ChildText("Key"), "c<d");
  EXPECT_NE(CompleteMultipartUploadBody({"\"e1\"", "\"e2\""}).find("<PartNumber>2</PartNumber><ETag>&quot;e2&quot;</ETag>"),
            std::string::npos);
}

}  // namespace
}  // namespace floe::io
