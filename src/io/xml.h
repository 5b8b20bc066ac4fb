// A small XML reader for S3 responses (ListObjectsV2, errors, multipart, DeleteObjects):
// elements, text, entities and CDATA; attributes, comments, processing instructions and
// namespace prefixes are skipped. Bytes come from the network, so every malformation is an
// error (never a crash), and nesting depth is bounded. Stateless; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::io {

struct XmlElement {
  std::string name;  // Local name, without a namespace prefix.
  std::string text;  // Decoded character data directly inside this element.
  std::vector<XmlElement> children;

  // The first child named `name`, or null.
  const XmlElement* Child(std::string_view name) const;
  // The text of the first child named `name`, or "".
  std::string_view ChildText(std::string_view name) const;
};

inline constexpr int kMaxXmlDepth = 32;

// Parses a document with exactly one root element.
Result<XmlElement> ParseXml(std::string_view xml);

// Escapes text for an element body: & < > " '.
std::string XmlEscape(std::string_view text);

}  // namespace floe::io
