// HttpRouter: maps a method and a path pattern to a handler, for every floe HTTP server
// (Iceberg REST catalog, Trino protocol, console, /metrics).
//
// Patterns are literal segments and captures: "/v1/namespaces/{namespace}/tables/{table}".
// A capture matches one non-empty segment and is percent-decoded into request.path_params;
// "{rest*}" as the last segment captures the remaining path (possibly empty). When several
// routes match, the one with the most literal segments wins, then the first added. A path that
// matches with another method gets 405 with an Allow header; HEAD falls back to GET.
// Built before the server starts, then read-only: Dispatch may run on many threads at once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_message.h"

namespace floe::net {

// Handlers run on a server thread and may block it; they must not throw (a throw becomes 500).
using HttpHandler = std::function<HttpResponse(HttpRequest& request)>;

class HttpRouter {
 public:
  Status Add(std::string_view method, std::string_view pattern, HttpHandler handler);

  // Routes `request` (filling its path_params) and runs the handler, or answers 404/405/400.
  // `guarded`: the caller already ran Guard on this request's method, target and headers.
  HttpResponse Dispatch(HttpRequest& request, bool guarded = false) const;
  // Runs before every matched handler; a response it returns (a 401, say) is sent instead.
  // It must decide from the method, target and headers alone: the HttpServer runs it before
  // reading the body, so the unauthenticated cannot make it buffer one.
  void SetGuard(std::function<std::optional<HttpResponse>(const HttpRequest&)> guard) { guard_ = std::move(guard); }
  // The guard's answer for `request` (without its body yet), or nullopt to go on.
  std::optional<HttpResponse> Guard(const HttpRequest& request) const {
    return guard_ ? guard_(request) : std::nullopt;
  }

 private:
  struct Segment {
    std::string text;  // Literal text, or the capture's name.
    bool capture = false;
    bool rest = false;  // "{name*}"
  };
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<Segment> segments;
    HttpHandler handler;
  };

  // Literal-segment count when `route` matches the split path, -1 otherwise.
  static int Match(const Route& route, const std::vector<std::string_view>& parts,
                   std::map<std::string, std::string>* captures);

  std::vector<Route> routes_;
  std::function<std::optional<HttpResponse>(const HttpRequest&)> guard_;
};

}  // namespace floe::net
