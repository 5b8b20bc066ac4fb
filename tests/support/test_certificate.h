// A throwaway self-signed certificate for TLS tests, made by Debian's openssl command for
// 127.0.0.1 and localhost; the certificate doubles as the CA file clients trust.
#pragma once

#include <string>

namespace floe::testing {

struct TestCertificate {
  std::string cert_file;
  std::string key_file;
  std::string error;  // Non-empty when openssl failed.
};

// Writes cert.pem and key.pem into `folder` (which must exist).
TestCertificate MakeTestCertificate(const std::string& folder);

}  // namespace floe::testing
