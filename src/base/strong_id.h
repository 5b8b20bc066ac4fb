// StrongId<T, Tag>: an integer that cannot be mixed up with another kind of integer.
//
// `using KafkaOffset = StrongId<int64_t, struct KafkaOffsetTag>;` makes passing a snapshot id
// where an offset is expected a compile error, while keeping the value's size and ordering.
#pragma once

#include <compare>
#include <cstddef>
#include <functional>

#include <fmt/format.h>

namespace floe {

template <typename T, typename Tag>
class StrongId {
 public:
  using ValueType = T;
  constexpr StrongId() = default;
  constexpr explicit StrongId(T value) : value_(value) {}

  constexpr T value() const { return value_; }
  constexpr auto operator<=>(const StrongId&) const = default;

  constexpr StrongId operator+(T delta) const { return StrongId(value_ + delta); }
  constexpr StrongId& operator++() {
    ++value_;
    return *this;
  }

 private:
  T value_{};
};

}  // namespace floe

template <typename T, typename Tag>
struct std::hash<floe::StrongId<T, Tag>> {
  size_t operator()(const floe::StrongId<T, Tag>& id) const noexcept { return std::hash<T>{}(id.value()); }
};

template <typename T, typename Tag>
struct fmt::formatter<floe::StrongId<T, Tag>> : fmt::formatter<T> {
  auto format(const floe::StrongId<T, Tag>& id, fmt::format_context& ctx) const {
    return fmt::formatter<T>::format(id.value(), ctx);
  }
};
