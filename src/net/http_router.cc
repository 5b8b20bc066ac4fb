#include "net/http_router.h"

#include <set>

namespace floe::net {
namespace {

// "/a/b/" -> {"a", "b", ""}; "/" -> {""}.
std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (true) {
    size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

HttpResponse ErrorResponse(int status, std::string_view message) {
  return HttpResponse::Json(status, fmt::format(R"({{"error":{{"code":{},"message":"{}"}}}})", status, message));
}

}  // namespace

Status HttpRouter::Add(std::string_view method, std::string_view pattern, HttpHandler handler) {
  if (pattern.empty() || pattern.front() != '/') {
    return InvalidArgument("route pattern '{}' must start with '/'", pattern);
  }
  Route route{.method = std::string(method), .pattern = std::string(pattern), .handler = std::move(handler)};
  std::vector<std::string_view> parts = SplitPath(pattern);
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    Segment segment;
    if (part.size() >= 2 && part.front() == '{' && part.back() == '}') {
      std::string_view name = part.substr(1, part.size() - 2);
      segment.capture = true;
      if (name.ends_with('*')) {
        if (i + 1 != parts.size()) return InvalidArgument("route '{}': '{{{}}}' must be the last segment", pattern, name);
        segment.rest = true;
        name.remove_suffix(1);
      }
      if (name.empty()) return InvalidArgument("route '{}' has an unnamed capture", pattern);
      segment.text = std::string(name);
    } else {
      if (part.find_first_of("{}") != std::string_view::npos) {
        return InvalidArgument("route '{}': a capture must be a whole segment", pattern);
      }
      segment.text = std::string(part);
    }
    route.segments.push_back(std::move(segment));
  }
  routes_.push_back(std::move(route));
  return OkStatus();
}

int HttpRouter::Match(const Route& route, const std::vector<std::string_view>& parts,
                      std::map<std::string, std::string>* captures) {
  int literals = 0;
  captures->clear();
  for (size_t i = 0; i < route.segments.size(); ++i) {
    const Segment& segment = route.segments[i];
    if (segment.rest) {
      if (i >= parts.size()) return -1;
      std::string rest;
      for (size_t j = i; j < parts.size(); ++j) {
        if (j > i) rest += '/';
        rest += parts[j];
      }
      auto decoded = PercentDecode(rest);
      if (!decoded) return -1;
      (*captures)[segment.text] = std::move(*decoded);
      return literals;
    }
    if (i >= parts.size()) return -1;
    if (segment.capture) {
      if (parts[i].empty()) return -1;
      auto decoded = PercentDecode(parts[i]);
      if (!decoded) return -1;
      (*captures)[segment.text] = std::move(*decoded);
    } else {
      if (parts[i] != segment.text) return -1;
      literals++;
    }
  }
  return parts.size() == route.segments.size() ? literals : -1;
}

HttpResponse HttpRouter::Dispatch(HttpRequest& request, bool guarded) const {
  std::vector<std::string_view> parts = SplitPath(request.path);
  const Route* best = nullptr;
  int best_score = -1;
  std::map<std::string, std::string> best_captures;
  std::set<std::string> allowed;
  auto consider = [&](std::string_view method) {
    std::map<std::string, std::string> captures;
    for (const Route& route : routes_) {
      int score = Match(route, parts, &captures);
      if (score < 0) continue;
      allowed.insert(route.method);
      if (route.method == method && score > best_score) {
        best = &route;
        best_score = score;
        best_captures = captures;
      }
    }
  };
  consider(request.method);
  if (best == nullptr && request.method == "HEAD") consider("GET");
  if (best == nullptr) {
    if (allowed.empty()) return ErrorResponse(404, "no such resource");
    std::string allow;
    for (const std::string& m : allowed) allow += (allow.empty() ? "" : ", ") + m;
    HttpResponse response = ErrorResponse(405, "method not allowed");
    response.headers.Set("Allow", allow);
    return response;
  }
  request.path_params = std::move(best_captures);
  if (guard_ && !guarded) {
    if (auto refused = guard_(request)) return std::move(*refused);
  }
  return best->handler(request);
}

}  // namespace floe::net
