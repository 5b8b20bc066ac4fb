// CRC-32C (Castagnoli), the checksum of Kafka record batches and many storage formats.
//
// Uses the SSE4.2 crc32 instruction when the CPU has it (checked once at start-up) and a
// slicing-by-8 table otherwise. Thread-safe: no mutable state after static initialisation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace floe::crc32c {

// Extends `crc` (the CRC of earlier bytes, 0 to start) over `data`.
uint32_t Extend(uint32_t crc, const void* data, size_t size);

inline uint32_t Value(const void* data, size_t size) { return Extend(0, data, size); }
inline uint32_t Value(std::span<const std::byte> data) { return Extend(0, data.data(), data.size()); }

// True when the hardware path is in use (reported by `floe --version` and benchmarks).
bool HardwareAccelerated();

}  // namespace floe::crc32c
