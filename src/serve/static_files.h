// Serves the console's static files from a web root: GET / is index.html, other paths map to
// files under the root (never outside it), with a content type by extension. Immutable after
// construction; any HTTP thread may call Serve.
#pragma once

#include <string>

#include "net/http_message.h"

namespace floe::serve {

class StaticFiles {
 public:
  // An empty root serves nothing (404 naming --web-root).
  explicit StaticFiles(std::string root);

  net::HttpResponse Serve(const net::HttpRequest& request) const;
  const std::string& root() const { return root_; }

  // The console beside the binary's build: the first `web/index.html` found walking up from
  // the binary's folder (build/release/floe -> <source>/web); empty when there is none.
  static std::string FindDefaultRoot();

 private:
  std::string root_;  // Canonical, or empty.
};

}  // namespace floe::serve
