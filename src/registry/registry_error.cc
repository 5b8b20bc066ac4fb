#include "registry/registry_error.h"

#include <nlohmann/json.hpp>

namespace floe::registry {

int RegistryError::HttpStatus() const {
  int value = static_cast<int>(code);
  while (value >= 1000) value /= 10;
  return value;
}

std::string RegistryError::ToJson() const {
  return nlohmann::json{{"error_code", static_cast<int>(code)}, {"message", message}}.dump();
}

RegistryError FromFloeError(const Error& error) {
  switch (error.kind()) {
    case ErrorKind::kInvalidArgument:
      return {RegistryErrorCode::kBadRequest, error.message()};
    case ErrorKind::kUnauthenticated:
      return {RegistryErrorCode::kUnauthorized, error.message()};
    case ErrorKind::kPermissionDenied:
      return {RegistryErrorCode::kForbidden, error.message()};
    default:
      return {RegistryErrorCode::kStoreError, error.message()};
  }
}

}  // namespace floe::registry
