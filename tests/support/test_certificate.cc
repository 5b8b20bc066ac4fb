#include "support/test_certificate.h"

#include "support/run_process.h"

namespace floe::testing {

TestCertificate MakeTestCertificate(const std::string& folder) {
  TestCertificate out{folder + "/cert.pem", folder + "/key.pem", ""};
  auto made = RunProcess({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", out.key_file, "-out",
                          out.cert_file, "-days", "2", "-subj", "/CN=localhost", "-addext",
                          "subjectAltName=IP:127.0.0.1,DNS:localhost"});
  if (made.exit_code != 0) out.error = "openssl req failed: " + made.err;
  return out;
}

}  // namespace floe::testing
