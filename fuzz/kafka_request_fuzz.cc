// Fuzz target: one Kafka request frame (header and body, as read off a socket after the length
// prefix) through header parsing and the API's handler, against a real broker on a temporary
// folder. A decoding error must only reject the frame; nothing may crash, hang or leak.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "broker/handlers/handler.h"

namespace {

using floe::broker::Broker;

// One broker for the whole run: opening one per input would measure the file system, not the
// decoders. Its folder is removed at exit.
struct FuzzBroker {
  FuzzBroker() {
    dir = std::filesystem::temp_directory_path() / ("floe-kafka-fuzz-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    floe::broker::BrokerConfig config;
    config.data_dir = dir.string();
    config.fsync = floe::broker::FsyncPolicy::kNever;
    auto opened = Broker::Open(config);
    if (!opened) std::abort();
    broker = std::move(*opened);
    if (!broker->topics().Create("t", 2, {})) std::abort();
  }
  ~FuzzBroker() {
    broker.reset();
    std::filesystem::remove_all(dir);
  }
  std::filesystem::path dir;
  std::unique_ptr<Broker> broker;
};

// Outside the extern "C" function: g++ 12 emits a coroutine lambda inside one twice.
void RunRequest(const uint8_t* data, size_t size) {
  static FuzzBroker fuzz;
  using namespace floe::broker;
  struct Request {
    std::string frame;
    RequestHeader header;
    std::string host = "fuzz";
    std::string response;
    SaslState sasl;
  };
  auto request = std::make_shared<Request>();
  request->frame.assign(reinterpret_cast<const char*>(data), size);
  WireReader reader(request->frame, false);
  auto header = ParseRequestHeader(reader);
  if (!header || !header->api || !header->version_supported) return;
  request->header = *header;
  auto in = std::make_shared<WireReader>(reader);
  Broker& broker = *fuzz.broker;
  boost::asio::co_spawn(broker.executor(), [request, in, &broker]() -> awaitable<void> {
    RequestContext ctx{broker, request->header, request->frame, request->host, request->sasl};
    WireWriter out(&request->response, request->header.flexible);
    (void)co_await Dispatch(ctx, *in, out);
  }, boost::asio::detached);
  // Long polls and group barriers suspend; give them a moment so their wake-up paths run too.
  broker.TESTING_RunFor(std::chrono::milliseconds(1));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  RunRequest(data, size);
  return 0;
}
