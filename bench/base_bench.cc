// CRC-32C throughput, hardware path versus the memory bandwidth ceiling (memcpy of the same
// bytes) measured in the same run: the broker checks every record batch with it.
#include <cstring>
#include <string>

#include <benchmark/benchmark.h>

#include "base/crc32c.h"

namespace {

void BM_Crc32c(benchmark::State& state) {
  std::string data(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(floe::crc32c::Value(data.data(), data.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32c)->Arg(4096)->Arg(1 << 20);

void BM_MemcpyCeiling(benchmark::State& state) {
  std::string data(static_cast<size_t>(state.range(0)), 'x');
  std::string copy(data.size(), '\0');
  for (auto _ : state) {
    std::memcpy(copy.data(), data.data(), data.size());
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_MemcpyCeiling)->Arg(4096)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
