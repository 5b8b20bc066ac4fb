// Writes a Parquet file of every type floe writes (flat and nested), with deterministic
// pseudo-random values, nulls, empty strings, NaN and extremes, for foreign readers to check.
// Usage: parquet_fixture_writer OUT.parquet ROWS SEED [codec=zstd] [v2=0|1] [dict=0|1]
//        [delta=0|1] [page=BYTES] [rowgroup=BYTES] [bloom=0|1]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>

#include "formats/parquet/compression.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/local_file.h"

using namespace floe;
using formats::DataType;
using formats::Field;
using formats::TypeId;

namespace {

Field F(std::string name, int id, DataType type, bool nullable = true) {
  Field f;
  f.name = std::move(name);
  f.id = id;
  f.nullable = nullable;
  f.type = std::move(type);
  return f;
}

std::vector<Field> Fields() {
  using formats::Primitive;
  return {
      F("b", 1, Primitive(TypeId::kBoolean)),
      F("i", 2, Primitive(TypeId::kInt32)),
      F("l", 3, Primitive(TypeId::kInt64), false),
      F("f", 4, Primitive(TypeId::kFloat)),
      F("d", 5, Primitive(TypeId::kDouble)),
      F("dec9", 6, formats::DecimalType(9, 2)),
      F("dec18", 7, formats::DecimalType(18, 4)),
      F("dec38", 8, formats::DecimalType(38, 10)),
      F("date", 9, Primitive(TypeId::kDate)),
      F("time", 10, Primitive(TypeId::kTime)),
      F("ts", 11, Primitive(TypeId::kTimestamp)),
      F("tstz", 12, Primitive(TypeId::kTimestampTz)),
      F("s", 13, Primitive(TypeId::kString)),
      F("bin", 14, Primitive(TypeId::kBinary)),
      F("fx", 15, formats::FixedType(3)),
      F("u", 16, Primitive(TypeId::kUuid)),
      F("st", 17, formats::StructType({F("x", 18, Primitive(TypeId::kInt32)), F("y", 19, Primitive(TypeId::kString), false)})),
      F("li", 20, formats::ListType(F("element", 21, Primitive(TypeId::kInt64)))),
      F("m", 22, formats::MapType(F("key", 23, Primitive(TypeId::kString), false), F("value", 24, Primitive(TypeId::kDouble)))),
      F("ll", 25, formats::ListType(F("element", 26, formats::ListType(F("element", 27, Primitive(TypeId::kString)))))),
      F("tsns", 28, Primitive(TypeId::kTimestampNs)),
      F("tstzns", 29, Primitive(TypeId::kTimestampTzNs)),
  };
}

struct Gen {
  std::mt19937_64 rng;
  uint64_t Next() { return rng(); }
  bool Null(const Field& f) { return f.nullable && Next() % 8 == 0; }

  void Fill(formats::ColumnVector* v, const Field& f, bool nested) {
    const DataType& t = f.type;
    if (Null(f)) {
      v->AppendNull();
      return;
    }
    uint64_t r = Next();
    switch (t.id) {
      case TypeId::kStruct:
        for (size_t c = 0; c < t.children.size(); ++c) Fill(&v->children[c], t.children[c], true);
        v->AppendStructSlot(true);
        return;
      case TypeId::kList:
      case TypeId::kMap: {
        int64_t k = static_cast<int64_t>(r % 4);
        for (int64_t j = 0; j < k; ++j) {
          if (t.id == TypeId::kMap) {
            v->children[0].AppendString(fmt::format("k{}", j));
            Fill(&v->children[1], t.children[1], true);
          } else {
            Fill(&v->children[0], t.children[0], true);
          }
        }
        v->AppendListEnd(true);
        return;
      }
      case TypeId::kBoolean: v->Append<uint8_t>(r & 1); return;
      case TypeId::kInt32: v->Append<int32_t>(r % 13 == 0 ? INT32_MIN : r % 11 == 0 ? INT32_MAX : static_cast<int32_t>(r % 100) - 50); return;
      case TypeId::kInt64: v->Append<int64_t>(r % 13 == 0 ? INT64_MIN + 1 : r % 11 == 0 ? INT64_MAX : static_cast<int64_t>(r >> 1) * (r % 2 ? 1 : -1)); return;
      case TypeId::kFloat: {
        float x = static_cast<float>(static_cast<int64_t>(r % 20001) - 10000) / 16.0f;
        if (!nested && r % 17 == 0) x = std::numeric_limits<float>::quiet_NaN();
        if (!nested && r % 19 == 0) x = -std::numeric_limits<float>::infinity();
        v->Append<float>(x);
        return;
      }
      case TypeId::kDouble: {
        double x = static_cast<double>(static_cast<int64_t>(r % 2000001) - 1000000) / 7.0;
        if (!nested && r % 17 == 0) x = std::numeric_limits<double>::quiet_NaN();
        if (!nested && r % 19 == 0) x = std::numeric_limits<double>::infinity();
        if (r % 23 == 0) x = 1e300;
        v->Append<double>(x);
        return;
      }
      case TypeId::kDecimal: {
        __int128 lim = 1;
        for (int p = 0; p < t.precision; ++p) lim *= 10;
        __int128 x = static_cast<__int128>(((static_cast<unsigned __int128>(Next()) << 64) | Next()) % static_cast<unsigned __int128>(lim));
        if (r % 2) x = -x;
        if (r % 9 == 0) x = lim - 1;
        if (r % 10 == 0) x = -(lim - 1);
        v->Append<__int128>(x);
        return;
      }
      case TypeId::kDate: v->Append<int32_t>(static_cast<int32_t>(r % 73000) - 25000); return;  // 1901..2169
      case TypeId::kTime: v->Append<int64_t>(static_cast<int64_t>(r % 86400000000ULL) / (r % 3 == 0 ? 1000000 : 1) * (r % 3 == 0 ? 1000000 : 1)); return;
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz: v->Append<int64_t>(static_cast<int64_t>(r % 6000000000000000ULL) - 2000000000000000LL); return;
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs:  // 1906-2198, every digit down to the nanosecond.
        v->Append<int64_t>(static_cast<int64_t>(r % 9000000000000000000ULL) - 2000000000000000000LL);
        return;
      case TypeId::kString: {
        static const char* kWords[] = {"", "paid", "shipped", "caf\xc3\xa9", "a\"quote", "tab\there", "\xe2\x82\xac uro", "new\nline"};
        std::string s = r % 3 == 0 ? fmt::format("order-{}", r % 5000) : std::string(kWords[r % 8]);
        v->AppendString(s);
        return;
      }
      case TypeId::kBinary: {
        std::string s;
        for (uint64_t k = 0; k < r % 6; ++k) s.push_back(static_cast<char>(Next()));
        v->AppendString(s);
        return;
      }
      case TypeId::kFixed:
      case TypeId::kUuid: {
        std::string s(static_cast<size_t>(t.FixedWidth()), '\0');
        for (char& c : s) c = static_cast<char>(Next());
        v->MarkAndAppendFixed(s);
        return;
      }
    }
  }
};

bool Flag(const std::string& arg, const char* name, std::string* value) {
  std::string prefix = std::string(name) + "=";
  if (arg.rfind(prefix, 0) != 0) return false;
  *value = arg.substr(prefix.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OUT.parquet ROWS SEED [codec=..] [v2=..] [dict=..] [delta=..] [page=..] [rowgroup=..]\n", argv[0]);
    return 2;
  }
  parquet::WriterOptions o;
  for (int a = 4; a < argc; ++a) {
    std::string arg = argv[a], v;
    if (Flag(arg, "codec", &v)) {
      auto c = parquet::ParseCodec(v);
      if (!c) return 2;
      o.codec = *c;
    } else if (Flag(arg, "v2", &v)) {
      o.data_page_v2 = v == "1";
    } else if (Flag(arg, "dict", &v)) {
      o.dictionary = v == "1";
    } else if (Flag(arg, "delta", &v)) {
      o.delta_integers = v == "1";
    } else if (Flag(arg, "page", &v)) {
      o.page_bytes = std::atoll(v.c_str());
    } else if (Flag(arg, "rowgroup", &v)) {
      o.row_group_bytes = std::atoll(v.c_str());
    } else if (Flag(arg, "dictbytes", &v)) {
      o.dictionary_bytes = std::atoll(v.c_str());
    } else if (Flag(arg, "bloom", &v)) {
      if (v == "1") o.bloom_filter_field_ids = {2, 3, 13};
    } else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  int64_t rows = std::atoll(argv[2]);
  Gen gen{std::mt19937_64(std::strtoull(argv[3], nullptr, 10))};
  auto fields = Fields();
  auto out = parquet::LocalOutputStream::Open(argv[1]);
  if (!out) return 1;
  auto writer = parquet::FileWriter::Open(std::move(*out), fields, o);
  if (!writer) {
    std::fprintf(stderr, "%s\n", writer.error().ToString().c_str());
    return 1;
  }
  for (int64_t done = 0; done < rows;) {
    int64_t n = std::min<int64_t>(rows - done, 1000);
    auto batch = formats::MakeEmptyBatch(fields);
    for (int64_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < fields.size(); ++c) gen.Fill(&batch.columns[c], fields[c], false);
    }
    batch.num_rows = n;
    auto s = (*writer)->Write(batch);
    if (!s) {
      std::fprintf(stderr, "%s\n", s.error().ToString().c_str());
      return 1;
    }
    done += n;
  }
  auto m = (*writer)->Close();
  if (!m) {
    std::fprintf(stderr, "%s\n", m.error().ToString().c_str());
    return 1;
  }
  return 0;
}
