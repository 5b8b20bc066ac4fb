// Mutational fuzzing of the request decoders, through the same path a socket's bytes take:
// header parsing, then the API's handler against a real Broker on a temporary folder. Seeds
// are valid requests of every kind; each is mutated (bit flips, truncation, random length
// fields, spliced garbage) many times. Under ASan/UBSan (make test-asan) any out-of-bounds
// read, overflow or leak fails the test; otherwise it must simply never crash or hang.
#include <unistd.h>

#include <filesystem>
#include <random>
#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <gtest/gtest.h>

#include "broker/handlers/handler.h"
#include "broker/testing/request_seeds.h"

namespace floe::broker {
namespace {

std::string Mutate(std::string input, std::mt19937& rng) {
  int edits = 1 + static_cast<int>(rng() % 2);
  for (int e = 0; e < edits && !input.empty(); ++e) {
    size_t at = rng() % input.size();
    switch (rng() % 6) {
      case 0: input[at] = static_cast<char>(input[at] ^ (1 << (rng() % 8))); break;
      case 1: input.resize(at); break;
      case 2: input[at] = static_cast<char>(rng()); break;
      case 3: {  // A random big-endian int32 (lengths, counts) somewhere after the API key.
        if (input.size() >= at + 4 && at >= 4) {
          uint32_t v = rng() % 3 == 0 ? 0x7fffffffu : static_cast<uint32_t>(rng());
          for (int i = 0; i < 4; ++i) input[at + static_cast<size_t>(i)] = static_cast<char>(v >> (24 - 8 * i));
        }
        break;
      }
      case 4: input.insert(at, std::string(1 + rng() % 16, static_cast<char>(rng()))); break;
      case 5: input.erase(at, 1 + rng() % 8); break;
    }
  }
  return input;
}

TEST(RequestFuzzTest, MutatedRequestsNeverCrashTheBroker) {
  auto dir = std::filesystem::temp_directory_path() / fmt::format("floe-fuzz-{}", ::getpid());
  std::filesystem::remove_all(dir);
  BrokerConfig config;
  config.data_dir = dir.string();
  config.fsync = FsyncPolicy::kNever;
  auto opened = Broker::Open(config);
  ASSERT_TRUE(opened.has_value()) << opened.error().ToString();
  std::unique_ptr<Broker> broker = std::move(*opened);
  ASSERT_TRUE(broker->topics().Create("t", 2, {}).has_value());

  struct Pending {
    std::string frame;
    RequestHeader header;
    std::string host = "fuzz";
    std::string response;
    SaslState sasl;
  };
  std::vector<std::unique_ptr<Pending>> kept;
  std::mt19937 rng(20261202);
  size_t decoded = 0, rejected = 0;
  const auto seeds = testing::RequestSeeds();
  const int rounds = 3000;
  for (int round = 0; round < rounds; ++round) {
    for (const std::string& seed : seeds) {
      auto p = std::make_unique<Pending>();
      p->frame = round == 0 ? seed : Mutate(seed, rng);
      WireReader reader(p->frame, false);
      auto header = ParseRequestHeader(reader);
      if (!header || !header->api || !header->version_supported) {
        ++rejected;
        continue;
      }
      p->header = *header;
      Pending* raw = p.get();
      // The reader must outlive a handler that suspends: keep it with the request.
      auto in = std::make_shared<WireReader>(reader);
      boost::asio::co_spawn(broker->executor(), [raw, in, &broker = *broker, &decoded, &rejected]() -> awaitable<void> {
        RequestContext ctx{broker, raw->header, raw->frame, raw->host, raw->sasl};
        WireWriter out(&raw->response, raw->header.flexible);
        Status status = co_await Dispatch(ctx, *in, out);
        ++(status ? decoded : rejected);
      }, boost::asio::detached);
      kept.push_back(std::move(p));
      broker->TESTING_RunFor(std::chrono::milliseconds(0));
    }
  }
  broker->TESTING_RunFor(std::chrono::milliseconds(50));
  // Every seed decodes unmutated, and the mutations exercise both outcomes.
  std::printf("fuzz: %zu requests decoded, %zu rejected\n", decoded, rejected);
  EXPECT_GE(decoded, seeds.size());
  EXPECT_GT(rejected, 0u);
  broker.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe::broker
