// RegistryError: a Schema Registry failure as Confluent's clients expect it, an `error_code`
// (40401 subject not found, 42201 invalid schema, 409 incompatible, ...) from which the HTTP
// status follows (its first three digits), and a message for people. Clients branch on the
// code, never on the text, so every failure the registry answers names one here. Any thread.
#pragma once

#include <expected>
#include <string>

#include <fmt/format.h>

#include "base/result.h"

namespace floe::registry {

enum class RegistryErrorCode : int {
  kBadRequest = 400,              // The body is not JSON, too deep, or not the expected shape.
  kUnauthorized = 401,
  kForbidden = 403,
  kIncompatibleSchema = 409,
  kSubjectNotFound = 40401,
  kVersionNotFound = 40402,
  kSchemaNotFound = 40403,
  kSubjectSoftDeleted = 40404,     // Soft-deleting a subject that already is.
  kSubjectNotSoftDeleted = 40405,  // A permanent delete needs a soft delete first.
  kVersionSoftDeleted = 40406,
  kVersionNotSoftDeleted = 40407,
  kSubjectCompatibilityNotConfigured = 40408,
  kSubjectModeNotConfigured = 40409,
  kInvalidSchema = 42201,
  kInvalidVersion = 42202,
  kInvalidCompatibilityLevel = 42203,
  kInvalidMode = 42204,
  kOperationNotPermitted = 42205,  // Registering while the mode is READONLY, say.
  kReferenceExists = 42206,        // Deleting a version other schemas reference.
  kStoreError = 50001,             // The _schemas topic could not be written or read.
};

struct RegistryError {
  RegistryErrorCode code;
  std::string message;

  // The HTTP status the code implies: 40401 -> 404, 42201 -> 422, 409 -> 409.
  int HttpStatus() const;
  // {"error_code": 40401, "message": "..."}
  std::string ToJson() const;
};

template <typename T>
using RegistryResult = std::expected<T, RegistryError>;

template <typename... Args>
std::unexpected<RegistryError> Fail(RegistryErrorCode code, fmt::format_string<Args...> format, Args&&... args) {
  return std::unexpected<RegistryError>(RegistryError{code, fmt::format(format, std::forward<Args>(args)...)});
}

// A floe Error from below (the topic log, the broker) as the registry answers it.
RegistryError FromFloeError(const Error& error);

}  // namespace floe::registry
