// TLS for floe's listeners: a certificate chain and private key (PEM files) loaded into one
// server context that every connection of a listener shares. TLS 1.2 and later only.
#pragma once

#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>

#include "base/result.h"

namespace floe::net {

struct TlsFiles {
  std::string cert_file;  // PEM: the server certificate, then any intermediates.
  std::string key_file;   // PEM: its private key.
  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

// A server context for `files`; InvalidArgument naming the file that is missing, unreadable
// or does not match.
Result<std::shared_ptr<boost::asio::ssl::context>> MakeServerTlsContext(const TlsFiles& files);

}  // namespace floe::net
