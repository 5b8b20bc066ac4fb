#include "up/box_logs.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <tuple>

#include "base/log_ring.h"

namespace floe::up {
namespace {

// As the text log format writes a line (base/logging.cc), in UTC.
std::string FormatLine(const LogLine& line) {
  return fmt::format("{} {:<5} [{}] {}", LogTimeText(line.time_ms), line.level, line.component, line.text);
}

// The whole lines among the last kBoxLogTailBytes of `path` (none if it cannot be read: a
// child that has not started yet has no file).
std::vector<std::string> TailLines(const std::string& path) {
  std::vector<std::string> lines;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return lines;
  off_t size = ::lseek(fd, 0, SEEK_END);
  off_t start = std::max<off_t>(0, size - static_cast<off_t>(kBoxLogTailBytes));
  std::string bytes(static_cast<size_t>(std::max<off_t>(0, size - start)), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, start + static_cast<off_t>(done));
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  bytes.resize(done);
  size_t at = 0;
  if (start > 0) {  // The first line was cut by the tail: drop it.
    size_t newline = bytes.find('\n');
    at = newline == std::string::npos ? bytes.size() : newline + 1;
  }
  while (at < bytes.size()) {
    size_t newline = bytes.find('\n', at);
    size_t end = newline == std::string::npos ? bytes.size() : newline;
    if (end > at) lines.emplace_back(bytes, at, end - at);
    at = end + 1;
  }
  return lines;
}

// "2026-12-07T09:30:40.707": the text format's leading timestamp, or empty.
std::string_view LeadingTimestamp(std::string_view line) {
  constexpr size_t kLength = 23;
  if (line.size() < kLength || line[4] != '-' || line[10] != 'T' || line[19] != '.') return {};
  return line.substr(0, kLength);
}

}  // namespace

Result<BoxLogSources> LogSourcesFor(std::string_view box) {
  if (box == "generator") return BoxLogSources{{"generator", "produce"}, {"generator.log"}};
  if (box == "broker") return BoxLogSources{{"broker"}, {"broker.log"}};
  // Every stream job: the append job into shop.orders (with --processes, its workers after the
  // first log to stream-2.log ..., ProcessRole::CopyLogPath; a file not there adds no line), the
  // upsert job into shop.order_state and the jobs into shop.payments and shop.shipments.
  if (box == "stream") {
    return BoxLogSources{
        {"stream"},
        {"stream.log", "stream-2.log", "stream-3.log", "stream-4.log", "state.log", "payments.log", "shipments.log"}};
  }
  if (box == "table") return BoxLogSources{{"catalog", "registry"}, {"catalog.log", "registry.log"}};
  // A linked topic's job: its own child's file with --processes; in one process every job logs
  // as the "stream" component, so its page shows them all, as the stream job's does.
  if (box == "payments") return BoxLogSources{{"stream"}, {"payments.log"}};
  if (box == "shipments") return BoxLogSources{{"stream"}, {"shipments.log"}};
  // The query server always runs in floe up's own process.
  if (box == "query") return BoxLogSources{{"serve", "http", "pg", "auth"}, {}};
  if (box == "storage") return BoxLogSources{};
  return NotFound("no box named '{}' (generator, broker, stream, table, payments, shipments, query, storage)", box);
}

nlohmann::json BoxLogLines(std::string_view box, const BoxLogSources& sources, bool processes,
                           const std::string& logs_dir, size_t max) {
  max = std::min(max, kBoxLogMaxLines);
  nlohmann::json lines = nlohmann::json::array();
  if (processes && !sources.files.empty()) {
    // (timestamp, file, line): a line without a timestamp of its own (a library's message, a
    // JSON-format line) keeps the one before it, so it stays where its file put it.
    std::vector<std::tuple<std::string, size_t, size_t, std::string>> merged;
    for (size_t f = 0; f < sources.files.size(); ++f) {
      std::string last;
      std::vector<std::string> tail = TailLines(logs_dir + "/" + sources.files[f]);
      for (size_t i = 0; i < tail.size(); ++i) {
        std::string_view stamp = LeadingTimestamp(tail[i]);
        if (!stamp.empty()) last = std::string(stamp);
        merged.emplace_back(last, f, i, std::move(tail[i]));
      }
    }
    std::sort(merged.begin(), merged.end());
    size_t first = merged.size() > max ? merged.size() - max : 0;
    for (size_t i = first; i < merged.size(); ++i) lines.push_back(std::move(std::get<3>(merged[i])));
    return {{"box", box}, {"source", "files"}, {"files", sources.files}, {"lines", std::move(lines)}};
  }
  for (const LogLine& line : RecentLogLines(sources.components, max)) lines.push_back(FormatLine(line));
  return {{"box", box}, {"source", "memory"}, {"components", sources.components}, {"lines", std::move(lines)}};
}

}  // namespace floe::up
