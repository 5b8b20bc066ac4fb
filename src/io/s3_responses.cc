#include "io/s3_responses.h"

#include <charconv>
#include <cstdio>
#include <ctime>

#include "base/civil_date.h"
#include "io/xml.h"

namespace floe::io {
namespace {

Result<XmlElement> ParseRoot(std::string_view xml, std::string_view expected_root) {
  FLOE_ASSIGN_OR_RETURN_CTX(XmlElement root, ParseXml(xml), fmt::format("S3 {} response", expected_root));
  if (root.name != expected_root) {
    return Corruption("S3 response: expected <{}>, got <{}>", expected_root, root.name);
  }
  return root;
}

Result<uint64_t> ParseU64(std::string_view text, std::string_view what) {
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return Corruption("S3 response: {} '{}' is not a number", what, text);
  }
  return v;
}

Result<int64_t> CivilMillis(int year, int month, int day, int hour, int minute, int second, int millis,
                            std::string_view text) {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || millis < 0) {
    return Corruption("S3 response: bad timestamp '{}'", text);
  }
  int64_t days = DaysFromCivil({year, month, day});
  return ((days * 24 + hour) * 60 + minute) * 60'000 + int64_t{second} * 1000 + millis;
}

}  // namespace

Result<int64_t> ParseIso8601Millis(std::string_view text) {
  int year, month, day, hour, minute, second, consumed = 0;
  std::string s(text);
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed) != 6) {
    return Corruption("S3 response: bad timestamp '{}'", text);
  }
  int millis = 0;
  std::string_view rest = text.substr(static_cast<size_t>(consumed));
  if (rest.starts_with('.')) {
    size_t digits = 1;
    int scale = 100;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
      millis += (rest[digits] - '0') * scale;
      scale /= 10;
      digits++;
    }
    rest.remove_prefix(digits);
  }
  if (rest != "Z" && rest != "+00:00") return Corruption("S3 response: bad timestamp '{}'", text);
  return CivilMillis(year, month, day, hour, minute, second, millis, text);
}

Result<int64_t> ParseHttpDateMillis(std::string_view text) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char weekday[4] = {}, month_name[4] = {};
  int day, year, hour, minute, second;
  std::string s(text);
  if (std::sscanf(s.c_str(), "%3s, %2d %3s %4d %2d:%2d:%2d GMT", weekday, &day, month_name, &year, &hour, &minute,
                  &second) != 7) {
    return Corruption("bad HTTP date '{}'", text);
  }
  for (int m = 0; m < 12; ++m) {
    if (kMonths[m] == month_name) return CivilMillis(year, m + 1, day, hour, minute, second, 0, text);
  }
  return Corruption("bad HTTP date '{}'", text);
}

Result<S3ListPage> ParseListObjectsV2(std::string_view xml) {
  FLOE_ASSIGN_OR_RETURN(XmlElement root, ParseRoot(xml, "ListBucketResult"));
  S3ListPage page;
  for (const XmlElement& child : root.children) {
    if (child.name == "Contents") {
      const XmlElement* key = child.Child("Key");
      if (key == nullptr) return Corruption("S3 ListObjectsV2 response: <Contents> without <Key>");
      ObjectInfo info{.key = key->text};
      FLOE_ASSIGN_OR_RETURN(info.size, ParseU64(child.ChildText("Size"), "Size"));
      if (const XmlElement* modified = child.Child("LastModified")) {
        FLOE_ASSIGN_OR_RETURN(info.last_modified_millis, ParseIso8601Millis(modified->text));
      }
      info.etag = std::string(child.ChildText("ETag"));
      page.objects.push_back(std::move(info));
    } else if (child.name == "CommonPrefixes") {
      const XmlElement* prefix = child.Child("Prefix");
      if (prefix == nullptr) return Corruption("S3 ListObjectsV2 response: <CommonPrefixes> without <Prefix>");
      page.common_prefixes.push_back(prefix->text);
    }
  }
  if (root.ChildText("IsTruncated") == "true") {
    const XmlElement* token = root.Child("NextContinuationToken");
    if (token == nullptr || token->text.empty()) {
      return Corruption("S3 ListObjectsV2 response: truncated listing without <NextContinuationToken>");
    }
    page.next_token = token->text;
  }
  return page;
}

Result<S3ErrorBody> ParseS3Error(std::string_view xml) {
  FLOE_ASSIGN_OR_RETURN(XmlElement root, ParseRoot(xml, "Error"));
  S3ErrorBody body{.code = std::string(root.ChildText("Code")), .message = std::string(root.ChildText("Message"))};
  if (body.code.empty()) return Corruption("S3 error response without <Code>");
  return body;
}

Result<std::string> ParseInitiateMultipartUpload(std::string_view xml) {
  FLOE_ASSIGN_OR_RETURN(XmlElement root, ParseRoot(xml, "InitiateMultipartUploadResult"));
  std::string_view id = root.ChildText("UploadId");
  if (id.empty()) return Corruption("S3 CreateMultipartUpload response without <UploadId>");
  return std::string(id);
}

Result<std::vector<S3DeleteFailure>> ParseDeleteResult(std::string_view xml) {
  FLOE_ASSIGN_OR_RETURN(XmlElement root, ParseRoot(xml, "DeleteResult"));
  std::vector<S3DeleteFailure> failures;
  for (const XmlElement& child : root.children) {
    if (child.name != "Error") continue;
    failures.push_back({std::string(child.ChildText("Key")), std::string(child.ChildText("Code")),
                        std::string(child.ChildText("Message"))});
  }
  return failures;
}

Status CheckCompleteMultipartUpload(std::string_view xml) {
  FLOE_ASSIGN_OR_RETURN(XmlElement root, ParseXml(xml));
  if (root.name == "Error") {
    return Unavailable("S3 CompleteMultipartUpload failed: {}: {}", root.ChildText("Code"), root.ChildText("Message"));
  }
  if (root.name != "CompleteMultipartUploadResult") {
    return Corruption("S3 CompleteMultipartUpload response: unexpected <{}>", root.name);
  }
  return OkStatus();
}

std::string DeleteObjectsBody(const std::vector<std::string>& keys) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>";
  for (const std::string& key : keys) out += fmt::format("<Object><Key>{}</Key></Object>", XmlEscape(key));
  out += "</Delete>";
  return out;
}

std::string CompleteMultipartUploadBody(const std::vector<std::string>& etags) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload>";
  for (size_t i = 0; i < etags.size(); ++i) {
    out += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>{}</ETag></Part>", i + 1, XmlEscape(etags[i]));
  }
  out += "</CompleteMultipartUpload>";
  return out;
}

}  // namespace floe::io
