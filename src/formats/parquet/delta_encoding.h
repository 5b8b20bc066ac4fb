// DELTA_BINARY_PACKED (integers), DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (byte arrays)
// from Encodings.md. Decoders read borrowed, untrusted bytes with every count checked against
// what the caller expects; encoders append to a string. Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"

namespace floe::parquet {

// Decodes exactly `n` values (T = int32_t or int64_t); *consumed gets the bytes used.
template <typename T>
Status DeltaBinaryPackedDecode(std::string_view data, int64_t n, T* out, size_t* consumed);

// Appends the encoding of `values`.
template <typename T>
void DeltaBinaryPackedEncode(const T* values, int64_t n, std::string* out);

// Decodes `n` byte arrays, appending their bytes to `bytes` and n end offsets to `offsets`.
Status DeltaLengthByteArrayDecode(std::string_view data, int64_t n, formats::Buffer* bytes,
                                  std::vector<int32_t>* offsets, size_t* consumed);
Status DeltaByteArrayDecode(std::string_view data, int64_t n, formats::Buffer* bytes, std::vector<int32_t>* offsets);

}  // namespace floe::parquet
