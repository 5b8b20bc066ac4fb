#include "io/xml.h"

#include <charconv>

namespace floe::io {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view xml) : xml_(xml) {}

  Result<XmlElement> Document() {
    FLOE_RETURN_IF_ERROR(SkipMisc());
    if (pos_ >= xml_.size()) return Fail("no root element");
    XmlElement root;
    FLOE_RETURN_IF_ERROR(Element(&root, 1));
    FLOE_RETURN_IF_ERROR(SkipMisc());
    if (pos_ != xml_.size()) return Fail("content after the root element");
    return root;
  }

 private:
  std::unexpected<Error> Fail(std::string_view what) const {
    return Corruption("XML: {} at byte {} of {}", what, pos_, xml_.size());
  }

  bool StartsWith(std::string_view s) const { return xml_.substr(pos_).starts_with(s); }

  void SkipSpace() {
    while (pos_ < xml_.size() && (xml_[pos_] == ' ' || xml_[pos_] == '\t' || xml_[pos_] == '\r' || xml_[pos_] == '\n')) {
      pos_++;
    }
  }

  // Skips to just past `end`.
  Status SkipPast(std::string_view end) {
    size_t at = xml_.find(end, pos_);
    if (at == std::string_view::npos) return Fail(fmt::format("unterminated construct (no '{}')", end));
    pos_ = at + end.size();
    return OkStatus();
  }

  // Whitespace, comments, processing instructions and DOCTYPE outside the root.
  Status SkipMisc() {
    while (true) {
      SkipSpace();
      if (StartsWith("<?")) {
        FLOE_RETURN_IF_ERROR(SkipPast("?>"));
      } else if (StartsWith("<!--")) {
        FLOE_RETURN_IF_ERROR(SkipPast("-->"));
      } else if (StartsWith("<!")) {
        FLOE_RETURN_IF_ERROR(SkipPast(">"));
      } else {
        return OkStatus();
      }
    }
  }

  static bool NameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
  }

  Result<std::string_view> Name() {
    size_t start = pos_;
    while (pos_ < xml_.size() && NameChar(xml_[pos_])) pos_++;
    if (pos_ == start) return Fail("expected a name");
    return xml_.substr(start, pos_ - start);
  }

  Status Entity(std::string* out) {
    size_t semi = xml_.find(';', pos_);
    if (semi == std::string_view::npos || semi - pos_ > 12) return Fail("unterminated entity");
    std::string_view ent = xml_.substr(pos_ + 1, semi - pos_ - 1);
    if (ent == "amp") out->push_back('&');
    else if (ent == "lt") out->push_back('<');
    else if (ent == "gt") out->push_back('>');
    else if (ent == "quot") out->push_back('"');
    else if (ent == "apos") out->push_back('\'');
    else if (ent.size() > 1 && ent[0] == '#') {
      uint32_t cp = 0;
      bool hex = ent[1] == 'x' || ent[1] == 'X';
      std::string_view digits = ent.substr(hex ? 2 : 1);
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || cp > 0x10FFFF ||
          (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Fail("bad character reference");
      }
      AppendUtf8(cp, out);
    } else {
      return Fail("unknown entity");
    }
    pos_ = semi + 1;
    return OkStatus();
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  static std::string_view LocalName(std::string_view name) {
    size_t colon = name.rfind(':');
    return colon == std::string_view::npos ? name : name.substr(colon + 1);
  }

  // Parses one element starting at '<'.
  Status Element(XmlElement* out, int depth) {
    if (depth > kMaxXmlDepth) return Fail("elements nested too deeply");
    if (pos_ >= xml_.size() || xml_[pos_] != '<') return Fail("expected '<'");
    pos_++;
    FLOE_ASSIGN_OR_RETURN(std::string_view name, Name());
    out->name = std::string(LocalName(name));
    // Attributes: skipped, honouring quotes.
    while (true) {
      SkipSpace();
      if (pos_ >= xml_.size()) return Fail("unterminated start tag");
      char c = xml_[pos_];
      if (c == '>') {
        pos_++;
        break;
      }
      if (c == '/') {
        if (!StartsWith("/>")) return Fail("bad '/' in start tag");
        pos_ += 2;
        return OkStatus();
      }
      FLOE_RETURN_IF_ERROR(Name());
      SkipSpace();
      if (pos_ >= xml_.size() || xml_[pos_] != '=') return Fail("expected '=' after attribute name");
      pos_++;
      SkipSpace();
      if (pos_ >= xml_.size() || (xml_[pos_] != '"' && xml_[pos_] != '\'')) return Fail("expected a quoted attribute");
      char quote = xml_[pos_++];
      size_t end = xml_.find(quote, pos_);
      if (end == std::string_view::npos) return Fail("unterminated attribute value");
      pos_ = end + 1;
    }
    // Content.
    while (true) {
      if (pos_ >= xml_.size()) return Fail(fmt::format("unterminated element <{}>", out->name));
      char c = xml_[pos_];
      if (c == '&') {
        FLOE_RETURN_IF_ERROR(Entity(&out->text));
      } else if (c != '<') {
        out->text.push_back(c);
        pos_++;
      } else if (StartsWith("</")) {
        pos_ += 2;
        FLOE_ASSIGN_OR_RETURN(std::string_view end_name, Name());
        if (LocalName(end_name) != out->name) {
          return Fail(fmt::format("end tag </{}> does not match <{}>", end_name, out->name));
        }
        SkipSpace();
        if (pos_ >= xml_.size() || xml_[pos_] != '>') return Fail("unterminated end tag");
        pos_++;
        return OkStatus();
      } else if (StartsWith("<![CDATA[")) {
        size_t start = pos_ + 9;
        FLOE_RETURN_IF_ERROR(SkipPast("]]>"));
        out->text.append(xml_.substr(start, pos_ - 3 - start));
      } else if (StartsWith("<!--")) {
        FLOE_RETURN_IF_ERROR(SkipPast("-->"));
      } else if (StartsWith("<?")) {
        FLOE_RETURN_IF_ERROR(SkipPast("?>"));
      } else {
        out->children.emplace_back();
        FLOE_RETURN_IF_ERROR(Element(&out->children.back(), depth + 1));
      }
    }
  }

  std::string_view xml_;
  size_t pos_ = 0;
};

}  // namespace

const XmlElement* XmlElement::Child(std::string_view child) const {
  for (const XmlElement& c : children) {
    if (c.name == child) return &c;
  }
  return nullptr;
}

std::string_view XmlElement::ChildText(std::string_view child) const {
  const XmlElement* c = Child(child);
  return c == nullptr ? std::string_view() : std::string_view(c->text);
}

Result<XmlElement> ParseXml(std::string_view xml) { return Parser(xml).Document(); }

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace floe::io
