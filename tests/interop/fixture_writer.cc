// Writes a CSV of (n, crc32c of the decimal text of n) for n in [0, count), for the harness test:
// a file written by floe's C++ that a foreign reader (DuckDB) must read back exactly.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/crc32c.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUT.csv COUNT\n", argv[0]);
    return 2;
  }
  FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) return 1;
  long count = std::strtol(argv[2], nullptr, 10);
  std::fprintf(out, "n,crc\n");
  for (long n = 0; n < count; ++n) {
    std::string text = std::to_string(n);
    std::fprintf(out, "%ld,%u\n", n, floe::crc32c::Value(text.data(), text.size()));
  }
  return std::fclose(out) == 0 ? 0 : 1;
}
