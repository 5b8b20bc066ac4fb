#include "net/http_message.h"

#include <strings.h>

namespace floe::net {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string_view> HttpHeaders::Get(std::string_view name) const {
  for (const auto& [n, v] : fields_) {
    if (EqualsIgnoreCase(n, name)) return std::string_view(v);
  }
  return std::nullopt;
}

void HttpHeaders::Set(std::string_view name, std::string_view value) {
  std::erase_if(fields_, [&](const auto& f) { return EqualsIgnoreCase(f.first, name); });
  Add(name, value);
}

void HttpHeaders::Add(std::string_view name, std::string_view value) { fields_.emplace_back(name, value); }

std::optional<std::string> HttpRequest::Query(std::string_view name) const {
  auto pairs = ParseQuery(query_string);
  if (!pairs) return std::nullopt;
  for (auto& [k, v] : *pairs) {
    if (k == name) return std::move(v);
  }
  return std::nullopt;
}

std::string_view HttpRequest::Param(std::string_view name) const {
  auto it = path_params.find(std::string(name));
  return it == path_params.end() ? std::string_view() : std::string_view(it->second);
}

HttpResponse HttpResponse::Text(int status, std::string body) {
  HttpResponse r{.status = status, .body = std::move(body)};
  r.headers.Set("Content-Type", "text/plain; charset=utf-8");
  return r;
}

HttpResponse HttpResponse::Json(int status, std::string body) {
  HttpResponse r{.status = status, .body = std::move(body)};
  r.headers.Set("Content-Type", "application/json");
  return r;
}

std::string_view StatusReason(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 419: return "Authentication Timeout";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
  }
  return "";
}

Result<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) {
        return InvalidArgument("truncated percent escape at byte {} of '{}'", i, text);
      }
      int hi = HexValue(text[i + 1]);
      int lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return InvalidArgument("bad percent escape at byte {} of '{}'", i, text);
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string PercentEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3 / 2);
  for (unsigned char c : text) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || c == '.' || c == '~' || (c == '/' && keep_slash);
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> ParseQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    FLOE_ASSIGN_OR_RETURN(std::string key, PercentDecode(item.substr(0, eq), true));
    std::string value;
    if (eq != std::string_view::npos) {
      FLOE_ASSIGN_OR_RETURN(value, PercentDecode(item.substr(eq + 1), true));
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

}  // namespace floe::net
