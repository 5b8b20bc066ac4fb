#include "serve/static_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace floe::serve {
namespace {

namespace fs = std::filesystem;

std::string_view ContentType(const fs::path& path) {
  std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace

StaticFiles::StaticFiles(std::string root) {
  if (root.empty()) return;
  std::error_code error;
  fs::path canonical = fs::canonical(root, error);
  if (!error) root_ = canonical.string();
}

std::string StaticFiles::FindDefaultRoot() {
  std::error_code error;
  fs::path dir = fs::read_symlink("/proc/self/exe", error).parent_path();
  if (error) return "";
  for (int up = 0; up < 5 && !dir.empty(); ++up) {
    if (fs::exists(dir / "web" / "index.html", error)) return (dir / "web").string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return "";
}

net::HttpResponse StaticFiles::Serve(const net::HttpRequest& request) const {
  if (root_.empty()) return net::HttpResponse::Text(404, "no console here: start the server with --web-root DIR\n");
  auto decoded = net::PercentDecode(request.path);
  if (!decoded) return net::HttpResponse::Text(400, "bad path\n");
  std::string relative = *decoded;
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  if (relative.empty()) relative = "index.html";
  std::error_code error;
  fs::path path = fs::weakly_canonical(fs::path(root_) / relative, error);
  std::string text = path.string();
  if (error || !(text == root_ || text.starts_with(root_ + "/"))) return net::HttpResponse::Text(404, "not found\n");
  if (fs::is_directory(path, error)) path /= "index.html";
  std::ifstream in(path, std::ios::binary);
  if (!in) return net::HttpResponse::Text(404, "not found\n");
  std::stringstream body;
  body << in.rdbuf();
  net::HttpResponse response;
  response.status = 200;
  response.body = body.str();
  response.headers.Set("Content-Type", ContentType(path));
  response.headers.Set("Cache-Control", "no-cache");
  return response;
}

}  // namespace floe::serve
