// Valid Kafka requests of every API the broker serves, framed as a socket delivers them (header
// and body, without the length prefix): the seeds of the request fuzzers (the mutational test in
// handlers/ and the libFuzzer target in fuzz/). Header-only so both can use it without a library.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "broker/protocol/api_key.h"
#include "broker/protocol/wire.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker::testing {

inline std::string Frame(int16_t key, int16_t version, const std::function<void(WireWriter&)>& body) {
  std::string out;
  WireWriter w(&out, false);
  w.Int16(key);
  w.Int16(version);
  w.Int32(1);
  w.String("fuzz");
  auto api = FindApi(key);
  bool flexible = api && IsFlexible(*api, version);
  if (flexible) w.UnsignedVarint(0);
  WireWriter b(&out, flexible);
  body(b);
  return out;
}

inline std::vector<std::string> RequestSeeds() {
  std::vector<std::string> seeds;
  std::string batch = BuildBatch({.records = 3});
  seeds.push_back(Frame(18, 3, [](WireWriter& w) { w.String("fuzz"); w.String("1"); w.TaggedFields(); }));
  seeds.push_back(Frame(3, 4, [](WireWriter& w) { w.ArrayLength(1); w.String("t"); w.Bool(true); }));
  seeds.push_back(Frame(0, 7, [&](WireWriter& w) {
    w.NullableString(std::nullopt); w.Int16(1); w.Int32(1000);
    w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Bytes(batch);
  }));
  seeds.push_back(Frame(1, 11, [](WireWriter& w) {
    w.Int32(-1); w.Int32(0); w.Int32(1); w.Int32(1 << 20); w.Int8(0); w.Int32(0); w.Int32(-1);
    w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Int32(-1); w.Int64(0); w.Int64(-1); w.Int32(1 << 20);
    w.ArrayLength(0); w.String("");
  }));
  seeds.push_back(Frame(2, 5, [](WireWriter& w) {
    w.Int32(-1); w.Int8(0); w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Int32(-1); w.Int64(-2);
  }));
  seeds.push_back(Frame(8, 7, [](WireWriter& w) {
    w.String("g"); w.Int32(-1); w.String(""); w.NullableString(std::nullopt);
    w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Int64(1); w.Int32(-1); w.NullableString("m");
  }));
  seeds.push_back(Frame(9, 5, [](WireWriter& w) { w.String("g"); w.NullArray(); }));
  seeds.push_back(Frame(10, 2, [](WireWriter& w) { w.String("g"); w.Int8(0); }));
  seeds.push_back(Frame(11, 5, [](WireWriter& w) {
    w.String("g"); w.Int32(10000); w.Int32(0); w.String(""); w.NullableString(std::nullopt); w.String("consumer");
    w.ArrayLength(1); w.String("range"); w.Bytes("meta");
  }));
  seeds.push_back(Frame(12, 3, [](WireWriter& w) { w.String("g"); w.Int32(1); w.String("m"); w.NullableString(std::nullopt); }));
  seeds.push_back(Frame(13, 3, [](WireWriter& w) { w.String("g"); w.ArrayLength(1); w.String("m"); w.NullableString(std::nullopt); }));
  seeds.push_back(Frame(14, 3, [](WireWriter& w) {
    w.String("g"); w.Int32(1); w.String("m"); w.NullableString(std::nullopt); w.ArrayLength(1); w.String("m"); w.Bytes("a");
  }));
  seeds.push_back(Frame(15, 4, [](WireWriter& w) { w.ArrayLength(1); w.String("g"); w.Bool(false); }));
  seeds.push_back(Frame(16, 2, [](WireWriter&) {}));
  seeds.push_back(Frame(19, 4, [](WireWriter& w) {
    w.ArrayLength(1); w.String("new"); w.Int32(2); w.Int16(1); w.ArrayLength(0);
    w.ArrayLength(1); w.String("retention.ms"); w.NullableString("1000"); w.Int32(1000); w.Bool(true);
  }));
  seeds.push_back(Frame(20, 3, [](WireWriter& w) { w.ArrayLength(1); w.String("zzz"); w.Int32(1000); }));
  seeds.push_back(Frame(22, 1, [](WireWriter& w) { w.NullableString(std::nullopt); w.Int32(1000); }));
  // Transactions: a transactional producer's requests in the order it sends them.
  std::string txn_batch = BuildBatch({.records = 2, .producer_id = 7, .producer_epoch = 0, .base_sequence = 0,
                                      .attributes = 0x10});
  seeds.push_back(Frame(10, 2, [](WireWriter& w) { w.String("tx"); w.Int8(1); }));
  seeds.push_back(Frame(22, 4, [](WireWriter& w) {
    w.NullableString("tx"); w.Int32(60000); w.Int64(-1); w.Int16(-1); w.TaggedFields();
  }));
  seeds.push_back(Frame(22, 1, [](WireWriter& w) { w.NullableString("tx"); w.Int32(60000); }));
  seeds.push_back(Frame(24, 3, [](WireWriter& w) {
    w.String("tx"); w.Int64(7); w.Int16(0); w.ArrayLength(1); w.String("t"); w.ArrayLength(2); w.Int32(0); w.Int32(1);
    w.TaggedFields(); w.TaggedFields();
  }));
  seeds.push_back(Frame(24, 1, [](WireWriter& w) {
    w.String("tx"); w.Int64(7); w.Int16(0); w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0);
  }));
  seeds.push_back(Frame(0, 7, [&](WireWriter& w) {
    w.NullableString("tx"); w.Int16(-1); w.Int32(1000);
    w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Bytes(txn_batch);
  }));
  seeds.push_back(Frame(25, 3, [](WireWriter& w) { w.String("tx"); w.Int64(7); w.Int16(0); w.String("g"); w.TaggedFields(); }));
  seeds.push_back(Frame(28, 3, [](WireWriter& w) {
    w.String("tx"); w.String("g"); w.Int64(7); w.Int16(0); w.Int32(-1); w.String(""); w.NullableString(std::nullopt);
    w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Int64(5); w.Int32(-1); w.NullableString("m");
    w.TaggedFields(); w.TaggedFields(); w.TaggedFields();
  }));
  seeds.push_back(Frame(28, 1, [](WireWriter& w) {
    w.String("tx"); w.String("g"); w.Int64(7); w.Int16(0);
    w.ArrayLength(1); w.String("t"); w.ArrayLength(1); w.Int32(0); w.Int64(5); w.NullableString(std::nullopt);
  }));
  seeds.push_back(Frame(26, 3, [](WireWriter& w) { w.String("tx"); w.Int64(7); w.Int16(0); w.Bool(true); w.TaggedFields(); }));
  seeds.push_back(Frame(26, 0, [](WireWriter& w) { w.String("tx"); w.Int64(7); w.Int16(0); w.Bool(false); }));
  seeds.push_back(Frame(32, 3, [](WireWriter& w) {
    w.ArrayLength(1); w.Int8(2); w.String("t"); w.NullArray(); w.Bool(false); w.Bool(false);
  }));
  // OffsetDelete v0.
  seeds.push_back(Frame(47, 0, [](WireWriter& w) {
    w.String("g");
    w.ArrayLength(1);
    w.String("t");
    w.ArrayLength(2);
    w.Int32(0);
    w.Int32(1);
  }));
  // DeleteRecords v1, AlterConfigs v1, IncrementalAlterConfigs v1 (flexible), DescribeCluster v0.
  seeds.push_back(Frame(21, 1, [](WireWriter& w) {
    w.ArrayLength(1);
    w.String("t");
    w.ArrayLength(1);
    w.Int32(0);
    w.Int64(-1);
    w.Int32(1000);
  }));
  seeds.push_back(Frame(33, 1, [](WireWriter& w) {
    w.ArrayLength(1);
    w.Int8(2);
    w.String("t");
    w.ArrayLength(2);
    w.String("retention.ms");
    w.NullableString("1000");
    w.String("cleanup.policy");
    w.NullableString("compact");
    w.Bool(true);
  }));
  seeds.push_back(Frame(44, 1, [](WireWriter& w) {
    w.ArrayLength(1);
    w.Int8(2);
    w.String("t");
    w.ArrayLength(2);
    w.String("cleanup.policy");
    w.Int8(2);
    w.NullableString("compact");
    w.TaggedFields();
    w.String("segment.bytes");
    w.Int8(1);
    w.NullableString(std::nullopt);
    w.TaggedFields();
    w.TaggedFields();
    w.Bool(true);
    w.TaggedFields();
  }));
  seeds.push_back(Frame(60, 0, [](WireWriter& w) {
    w.Bool(true);
    w.TaggedFields();
  }));
  return seeds;
}

}  // namespace floe::broker::testing
