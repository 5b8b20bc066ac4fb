// The broker benchmark's measuring tools, run by bench/broker.bench.sh beside `floe broker`:
//   loopback BYTES CHUNK        raw loopback TCP throughput of BYTES written in CHUNK writes
//   fsync DIR BYTES CHUNK       sequential write + fdatasync per CHUNK (the durable ceiling)
//   write DIR BYTES CHUNK       sequential buffered writes (the page-cache ceiling of any log)
//   replay PORT TOPIC BYTES RECORD_SIZE ACKS
//                               raw Produce v3 requests (one ~1 MB batch each, 16 in flight)
//                               over one connection: the broker's ingest without client costs
//   drain PORT TOPIC PARTITIONS   raw Fetch v4 of everything in the topic: the broker's egress
//   latency BROKERS TOPIC RATE SECONDS SIZE ACKS
//                               librdkafka producer at a fixed rate; prints delivery latency
//                               percentiles (send to acknowledgement)
// Each prints one line "name value unit" per figure, for the script to compute ratios.
#include <arpa/inet.h>
#include <fcntl.h>
#include <librdkafka/rdkafka.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "base/bytes.h"
#include "base/crc32c.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

int Loopback(uint64_t bytes, size_t chunk) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener, 1) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("listen");
    return 1;
  }
  std::thread reader([&] {
    int fd = ::accept(listener, nullptr, nullptr);
    std::vector<char> buf(1 << 20);
    while (::read(fd, buf.data(), buf.size()) > 0) {
    }
    ::close(fd);
  });
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::perror("connect");
    return 1;
  }
  std::vector<char> buf(chunk, 'x');
  auto start = Clock::now();
  uint64_t sent = 0;
  while (sent < bytes) {
    ssize_t n = ::write(fd, buf.data(), std::min<uint64_t>(chunk, bytes - sent));
    if (n <= 0) break;
    sent += static_cast<uint64_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  reader.join();
  double s = Seconds(start);
  ::close(fd);
  ::close(listener);
  std::printf("loopback_mb_s %.1f MB/s\n", static_cast<double>(sent) / s / 1e6);
  return 0;
}

// Sequential writes into the page cache, with an fdatasync after every chunk when `sync`: the
// most any log on this file system can take.
int WriteCeiling(const std::string& dir, uint64_t bytes, size_t chunk, bool sync) {
  std::string path = dir + "/write-ceiling.bin";
  int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (fd < 0) {
    std::perror("open");
    return 1;
  }
  std::vector<char> buf(chunk, 'y');
  auto start = Clock::now();
  uint64_t written = 0;
  uint64_t syncs = 0;
  while (written < bytes) {
    if (::write(fd, buf.data(), chunk) != static_cast<ssize_t>(chunk)) break;
    if (sync) {
      ::fdatasync(fd);
      ++syncs;
    }
    written += chunk;
  }
  double s = Seconds(start);
  ::close(fd);
  ::unlink(path.c_str());
  if (!sync) {
    std::printf("write_mb_s %.1f MB/s\n", static_cast<double>(written) / s / 1e6);
    return 0;
  }
  std::printf("fsync_mb_s %.1f MB/s\nfsync_per_s %.0f syncs/s\n", static_cast<double>(written) / s / 1e6,
              static_cast<double>(syncs) / s);
  return 0;
}

int Connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::perror("connect");
    std::exit(1);
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

bool WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool ReadExactly(int fd, char* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::read(fd, out + done, n - done);
    if (r <= 0) return false;
    done += static_cast<size_t>(r);
  }
  return true;
}

// Reads one response frame; returns its body.
std::string ReadFrame(int fd) {
  char size_bytes[4];
  if (!ReadExactly(fd, size_bytes, 4)) std::exit(1);
  floe::ByteReader r(size_bytes, 4);
  auto size = static_cast<size_t>(*r.ReadBig<int32_t>("size"));
  std::string body;
  bool ok = true;
  body.resize_and_overwrite(size, [&](char* data, size_t n) {
    ok = ReadExactly(fd, data, n);
    return n;
  });
  if (!ok) std::exit(1);
  return body;
}

void RequestHeader(floe::ByteWriter& w, int16_t key, int16_t version, int32_t correlation) {
  w.AppendBig<int16_t>(key);
  w.AppendBig<int16_t>(version);
  w.AppendBig<int32_t>(correlation);
  w.AppendBig<int16_t>(5);
  w.AppendBytes("bench");
}

std::string BuildBatch(int records, size_t record_size) {
  std::string body;
  floe::ByteWriter b(&body);
  std::string value(record_size, 'v');
  for (int i = 0; i < records; ++i) {
    std::string rec;
    floe::ByteWriter r(&rec);
    r.AppendBig<int8_t>(0);
    r.AppendSignedVarint(0);
    r.AppendSignedVarint(i);
    r.AppendSignedVarint(-1);  // null key
    r.AppendSignedVarint(static_cast<int64_t>(value.size()));
    r.AppendBytes(value);
    r.AppendUnsignedVarint(0);
    b.AppendSignedVarint(static_cast<int64_t>(rec.size()));
    b.AppendBytes(rec);
  }
  std::string batch;
  floe::ByteWriter w(&batch);
  w.AppendBig<int64_t>(0);
  w.AppendBig<int32_t>(static_cast<int32_t>(49 + body.size()));
  w.AppendBig<int32_t>(0);
  w.AppendBig<int8_t>(2);
  w.AppendBig<uint32_t>(0);
  w.AppendBig<int16_t>(0);
  w.AppendBig<int32_t>(records - 1);
  w.AppendBig<int64_t>(1700000000000);
  w.AppendBig<int64_t>(1700000000000);
  w.AppendBig<int64_t>(-1);
  w.AppendBig<int16_t>(-1);
  w.AppendBig<int32_t>(-1);
  w.AppendBig<int32_t>(records);
  w.AppendBytes(body);
  w.PatchBig<uint32_t>(17, floe::crc32c::Value(batch.data() + 21, batch.size() - 21));
  return batch;
}

int Replay(int port, const std::string& topic, uint64_t bytes, size_t record_size, int16_t acks) {
  int records = static_cast<int>(900000 / (record_size + 10));
  std::string batch = BuildBatch(records, record_size);
  std::string request;
  floe::ByteWriter w(&request);
  w.AppendBig<int32_t>(0);
  RequestHeader(w, 0, 3, 1);
  w.AppendBig<int16_t>(-1);  // transactional id
  w.AppendBig<int16_t>(acks);
  w.AppendBig<int32_t>(30000);
  w.AppendBig<int32_t>(1);
  w.AppendBig<int16_t>(static_cast<int16_t>(topic.size()));
  w.AppendBytes(topic);
  w.AppendBig<int32_t>(1);
  w.AppendBig<int32_t>(0);
  w.AppendBig<int32_t>(static_cast<int32_t>(batch.size()));
  w.AppendBytes(batch);
  w.PatchBig<int32_t>(0, static_cast<int32_t>(request.size() - 4));
  int fd = Connect(port);
  uint64_t total = (bytes + static_cast<uint64_t>(records) * record_size - 1) / (static_cast<uint64_t>(records) * record_size);
  constexpr uint64_t kInFlight = 16;
  uint64_t sent = 0, answered = 0;
  auto start = Clock::now();
  while (answered < total) {
    while (sent < total && sent - answered < kInFlight) {
      if (!WriteAll(fd, request)) return 1;
      ++sent;
    }
    std::string response = ReadFrame(fd);
    // correlation(4) topics(4) name(2+n) partitions(4) index(4) error(2)
    floe::ByteReader r(response);
    (void)r.Skip(4 + 4 + 2 + topic.size() + 4 + 4, "response");
    if (*r.ReadBig<int16_t>("error") != 0) {
      std::fprintf(stderr, "produce error %d\n", static_cast<int>(r.ReadBig<int16_t>("e").value_or(0)));
      return 1;
    }
    ++answered;
  }
  double s = Seconds(start);
  ::close(fd);
  double payload = static_cast<double>(total) * records * static_cast<double>(record_size);
  std::printf("replay_mb_s %.1f MB/s\nreplay_wire_mb_s %.1f MB/s\nreplay_batch_bytes %zu B\nreplay_msgs_s %.0f msg/s\n",
              payload / s / 1e6, static_cast<double>(total * request.size()) / s / 1e6, batch.size(),
              static_cast<double>(total) * records / s);
  return 0;
}

int Drain(int port, const std::string& topic, int partitions) {
  int fd = Connect(port);
  std::vector<int64_t> offsets(static_cast<size_t>(partitions), 0);
  std::vector<bool> done(static_cast<size_t>(partitions), false);
  uint64_t bytes = 0;
  auto start = Clock::now();
  int32_t correlation = 0;
  while (std::find(done.begin(), done.end(), false) != done.end()) {
    std::string request;
    floe::ByteWriter w(&request);
    w.AppendBig<int32_t>(0);
    RequestHeader(w, 1, 4, ++correlation);
    w.AppendBig<int32_t>(-1);
    w.AppendBig<int32_t>(0);         // max wait
    w.AppendBig<int32_t>(1);         // min bytes
    w.AppendBig<int32_t>(64 << 20);  // max bytes
    w.AppendBig<int8_t>(0);
    w.AppendBig<int32_t>(1);
    w.AppendBig<int16_t>(static_cast<int16_t>(topic.size()));
    w.AppendBytes(topic);
    w.AppendBig<int32_t>(partitions);
    for (int p = 0; p < partitions; ++p) {
      w.AppendBig<int32_t>(p);
      w.AppendBig<int64_t>(offsets[static_cast<size_t>(p)]);
      w.AppendBig<int32_t>(16 << 20);
    }
    w.PatchBig<int32_t>(0, static_cast<int32_t>(request.size() - 4));
    if (!WriteAll(fd, request)) return 1;
    std::string response = ReadFrame(fd);
    floe::ByteReader r(response);
    (void)r.Skip(4 + 4 + 4 + 2 + topic.size() + 4, "header");
    for (int p = 0; p < partitions; ++p) {
      int32_t index = *r.ReadBig<int32_t>("partition");
      (void)r.ReadBig<int16_t>("error");
      int64_t hwm = *r.ReadBig<int64_t>("hwm");
      (void)r.Skip(8, "lso");
      (void)r.Skip(4, "aborted");
      auto size = static_cast<size_t>(*r.ReadBig<int32_t>("records size"));
      std::string_view records = *r.ReadBytes(size, "records");
      bytes += size;
      // Advance past the last whole batch returned.
      size_t at = 0;
      auto& offset = offsets[static_cast<size_t>(index)];
      while (records.size() - at >= 61) {
        floe::ByteReader h(records.substr(at));
        int64_t base = *h.ReadBig<int64_t>("base");
        int32_t length = *h.ReadBig<int32_t>("length");
        (void)h.Skip(4 + 1 + 4 + 2, "fields");
        int32_t last_delta = *h.ReadBig<int32_t>("delta");
        offset = base + last_delta + 1;
        at += 12 + static_cast<size_t>(length);
      }
      done[static_cast<size_t>(index)] = offset >= hwm;
    }
  }
  double s = Seconds(start);
  ::close(fd);
  std::printf("drain_mb_s %.1f MB/s\n", static_cast<double>(bytes) / s / 1e6);
  return 0;
}

struct LatencyState {
  std::vector<double> latencies_ms;
  uint64_t failed = 0;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* state = static_cast<LatencyState*>(opaque);
  auto* sent = static_cast<Clock::time_point*>(message->_private);
  if (message->err) {
    ++state->failed;
  } else {
    state->latencies_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - *sent).count());
  }
  delete sent;
}

int Latency(const std::string& brokers, const std::string& topic, double rate, double seconds, size_t size,
            const std::string& acks) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  LatencyState state;
  rd_kafka_conf_set(conf, "bootstrap.servers", brokers.c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "acks", acks.c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "linger.ms", "1", err, sizeof err);
  rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
  // Warm up (connection, metadata) before measuring: only steady-state latency counts.
  rd_kafka_conf_set_opaque(conf, &state);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) {
    std::fprintf(stderr, "%s\n", err);
    return 1;
  }
  std::string payload(size, 'z');
  for (int i = 0; i < 100; ++i) {
    auto* sent = new Clock::time_point(Clock::now());
    rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_VALUE(payload.data(), payload.size()),
                      RD_KAFKA_V_OPAQUE(sent), RD_KAFKA_V_END);
  }
  rd_kafka_flush(rk, 30000);
  state.latencies_ms.clear();
  auto start = Clock::now();
  uint64_t produced = 0;
  auto total = static_cast<uint64_t>(rate * seconds);
  while (produced < total) {
    // Pace in 1 ms steps: send what the rate allows so far, then serve callbacks.
    auto due = static_cast<uint64_t>(Seconds(start) * rate);
    while (produced < std::min(due, total)) {
      auto* sent = new Clock::time_point(Clock::now());
      if (rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_VALUE(payload.data(), payload.size()),
                            RD_KAFKA_V_OPAQUE(sent), RD_KAFKA_V_END) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        delete sent;
        rd_kafka_poll(rk, 1);
        continue;
      }
      ++produced;
    }
    rd_kafka_poll(rk, 1);
  }
  rd_kafka_flush(rk, 30000);
  double elapsed = Seconds(start);
  rd_kafka_destroy(rk);
  auto& l = state.latencies_ms;
  if (l.empty()) return 1;
  std::sort(l.begin(), l.end());
  auto pct = [&](double p) { return l[std::min(l.size() - 1, static_cast<size_t>(p * static_cast<double>(l.size())))]; };
  std::printf("latency_rate %.0f msg/s\nlatency_p50 %.2f ms\nlatency_p99 %.2f ms\nlatency_max %.2f ms\nlatency_failed %lu msgs\n",
              static_cast<double>(l.size()) / elapsed, pct(0.5), pct(0.99), l.back(),
              static_cast<unsigned long>(state.failed));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "loopback" && argc == 4) return Loopback(std::stoull(argv[2]), std::stoul(argv[3]));
  if (mode == "fsync" && argc == 5) return WriteCeiling(argv[2], std::stoull(argv[3]), std::stoul(argv[4]), true);
  if (mode == "write" && argc == 5) return WriteCeiling(argv[2], std::stoull(argv[3]), std::stoul(argv[4]), false);
  if (mode == "replay" && argc == 7) {
    return Replay(std::stoi(argv[2]), argv[3], std::stoull(argv[4]), std::stoul(argv[5]),
                  static_cast<int16_t>(std::stoi(argv[6])));
  }
  if (mode == "drain" && argc == 5) return Drain(std::stoi(argv[2]), argv[3], std::stoi(argv[4]));
  if (mode == "latency" && argc == 8) {
    return Latency(argv[2], argv[3], std::stod(argv[4]), std::stod(argv[5]), std::stoul(argv[6]), argv[7]);
  }
  std::fprintf(stderr,
               "usage: broker_bench loopback BYTES CHUNK | fsync DIR BYTES CHUNK | write DIR BYTES CHUNK | replay PORT TOPIC BYTES SIZE ACKS | "
               "drain PORT TOPIC PARTITIONS | "
               "latency BROKERS TOPIC RATE SECONDS SIZE ACKS\n");
  return 2;
}
