#include "net/tls.h"

#include <openssl/err.h>

namespace floe::net {

namespace ssl = boost::asio::ssl;

Result<std::shared_ptr<ssl::context>> MakeServerTlsContext(const TlsFiles& files) {
  if (files.cert_file.empty() || files.key_file.empty()) {
    return InvalidArgument("TLS needs both a certificate file and a key file (got '{}' and '{}')", files.cert_file, files.key_file);
  }
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  boost::system::error_code ec;
  context->use_certificate_chain_file(files.cert_file, ec);
  if (ec) return InvalidArgument("TLS certificate {}: {}", files.cert_file, ec.message());
  context->use_private_key_file(files.key_file, ssl::context::pem, ec);
  if (ec) return InvalidArgument("TLS key {}: {}", files.key_file, ec.message());
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
    ERR_clear_error();
    return InvalidArgument("TLS key {} does not match certificate {}", files.key_file, files.cert_file);
  }
  return context;
}

}  // namespace floe::net
