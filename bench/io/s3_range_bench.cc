// Ranged reads of a 64 MiB object from s3rver: floe's S3 store against curl (the same ranges,
// the same server, the same run, both signing with SigV4), printing the throughput ratio.
//
// Usage: io_s3_range_bench SOURCE_DIR   (run by bench/io.bench.sh)
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/exec_image.h"
#include "io/s3_object_store.h"
#include "s3rver_process.h"

namespace {

using floe::io::S3ObjectStore;
using floe::io::S3Options;

constexpr uint64_t kObjectBytes = 64ull << 20;
constexpr int kRounds = 9;  // Best-of: the machine is shared, so single rounds are noisy.

struct Pass {
  std::string name;
  uint64_t range_bytes;
};

// Runs curl once for every range (one process, one kept-alive connection, --next between
// transfers) and returns the sum of curl's own per-transfer times, in seconds.
double CurlSeconds(const std::string& url, uint64_t range_bytes) {
  std::vector<std::string> args = {"curl"};
  for (uint64_t offset = 0; offset < kObjectBytes; offset += range_bytes) {
    if (offset > 0) args.push_back("--next");
    for (std::string a : {"-sS", "-f", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "S3RVER:S3RVER", "-H",
                          "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                          "-o", "/dev/null",
                          "-w", "%{time_total} %{size_download}\n", "-r"}) {
      args.push_back(a);
    }
    args.push_back(fmt::format("{}-{}", offset, offset + range_bytes - 1));
    args.push_back(url);
  }
  floe::ExecImage image(std::move(args), {});
  int out[2];
  if (::pipe(out) != 0) std::abort();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::close(out[0]);
    image.ExecSearchingPath();
    ::_exit(127);
  }
  ::close(out[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(out[0], buf, sizeof(buf))) > 0) text.append(buf, static_cast<size_t>(n));
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fmt::print(stderr, "curl failed (status {})\n", status);
    std::exit(1);
  }
  double total = 0;
  uint64_t bytes = 0;
  for (const char* p = text.c_str(); *p != '\0';) {
    double t = 0;
    unsigned long long size = 0;
    int consumed = 0;
    if (std::sscanf(p, "%lf %llu\n%n", &t, &size, &consumed) != 2 || consumed == 0) break;
    total += t;
    bytes += size;
    p += consumed;
  }
  if (bytes != kObjectBytes) {
    fmt::print(stderr, "curl read {} bytes, expected {}\n", bytes, kObjectBytes);
    std::exit(1);
  }
  return total;
}

double FloeSeconds(S3ObjectStore& store, uint64_t range_bytes) {
  auto start = std::chrono::steady_clock::now();
  uint64_t bytes = 0;
  for (uint64_t offset = 0; offset < kObjectBytes; offset += range_bytes) {
    auto r = store.GetRange("bench/object.bin", offset, range_bytes);
    if (!r) {
      fmt::print(stderr, "floe read failed: {}\n", r.error().ToString());
      std::exit(1);
    }
    bytes += r->size();
  }
  if (bytes != kObjectBytes) std::exit(1);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: {} SOURCE_DIR\n", argv[0]);
    return 2;
  }
  std::string data_dir = fmt::format("{}/floe-io-bench-{}", std::filesystem::temp_directory_path().string(), ::getpid());
  std::filesystem::create_directories(data_dir);
  int rc = 0;
  {
    auto server = floe::io::testing::S3rverProcess::Start(argv[1], data_dir, "floe");
    if (!server) {
      fmt::print(stderr, "{}\n", server.error().ToString());
      return 1;
    }
    S3Options options{.bucket = "floe",
                      .endpoint = (*server)->endpoint(),
                      .path_style = true,
                      .credentials = {"S3RVER", "S3RVER", ""}};
    auto store = S3ObjectStore::Open(options).value();
    std::string object(kObjectBytes, '\0');
    for (size_t i = 0; i < object.size(); ++i) object[i] = static_cast<char>((i * 2654435761u) >> 13);
    if (auto st = store->Put("bench/object.bin", object); !st) {
      fmt::print(stderr, "{}\n", st.error().ToString());
      return 1;
    }
    std::string url = store->ObjectUrl("bench/object.bin");
    fmt::print("ranged reads of a 64 MiB object from s3rver ({}), best of {} rounds, alternating\n", url, kRounds);
    fmt::print("{:<14} {:>12} {:>12} {:>8}\n", "ranges", "floe MB/s", "curl MB/s", "ratio");
    for (Pass pass : {Pass{"1 MiB", 1 << 20}, Pass{"8 MiB", 8 << 20}, Pass{"256 KiB", 256 << 10}}) {
      double floe_best = 1e9, curl_best = 1e9;
      for (int round = 0; round < kRounds; ++round) {
        floe_best = std::min(floe_best, FloeSeconds(*store, pass.range_bytes));
        curl_best = std::min(curl_best, CurlSeconds(url, pass.range_bytes));
      }
      double floe_mbs = kObjectBytes / 1e6 / floe_best;
      double curl_mbs = kObjectBytes / 1e6 / curl_best;
      double ratio = floe_mbs / curl_mbs;
      fmt::print("{:<14} {:>12.1f} {:>12.1f} {:>7.2f}x{}\n", pass.name, floe_mbs, curl_mbs, ratio,
                 ratio < 0.8 ? "  (below the 0.80 target)" : "");
    }
  }
  std::filesystem::remove_all(data_dir);
  return rc;
}
