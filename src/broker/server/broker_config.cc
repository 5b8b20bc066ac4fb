#include "broker/server/broker_config.h"

#include <charconv>

namespace floe::broker {

Result<HostPort> ParseHostPort(std::string_view text) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return InvalidArgument("'{}' is not HOST:PORT", text);
  std::string_view host = text.substr(0, colon);
  std::string_view port_text = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned port = 0;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || ptr != port_text.data() + port_text.size() || port > 65535 || host.empty()) {
    return InvalidArgument("'{}' is not HOST:PORT", text);
  }
  return HostPort{std::string(host), static_cast<uint16_t>(port)};
}

}  // namespace floe::broker
