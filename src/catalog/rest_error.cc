#include "catalog/rest_error.h"

#include <nlohmann/json.hpp>

namespace floe::catalog {

RestError ToRestError(const Error& error, bool committing) {
  switch (error.code()) {
    case ErrorCode::kNoSuchNamespace: return {404, "NoSuchNamespaceException"};
    case ErrorCode::kNoSuchTable: return {404, "NoSuchTableException"};
    case ErrorCode::kNoSuchView: return {404, "NoSuchViewException"};
    case ErrorCode::kNamespaceNotEmpty: return {409, "NamespaceNotEmptyException"};
    default: break;
  }
  switch (error.kind()) {
    case ErrorKind::kInvalidArgument:
      return {400, "BadRequestException"};
    case ErrorKind::kCorruption:
      return {500, "InternalServerError"};
    case ErrorKind::kNotFound:
      return {404, "NotFoundException"};
    case ErrorKind::kAlreadyExists:
      return {409, "AlreadyExistsException"};
    case ErrorKind::kConflict:
      return {409, "CommitFailedException"};
    case ErrorKind::kUnauthenticated:
      return {401, "NotAuthorizedException"};
    case ErrorKind::kPermissionDenied:
      return {403, "ForbiddenException"};
    case ErrorKind::kNotImplemented:
      return {406, "UnsupportedOperationException"};
    case ErrorKind::kUnavailable:
      return committing ? RestError{500, "CommitStateUnknownException"} : RestError{503, "ServiceUnavailableException"};
    case ErrorKind::kResourceExhausted:
    case ErrorKind::kIo:
    case ErrorKind::kInternal:
      return committing ? RestError{500, "CommitStateUnknownException"} : RestError{500, "InternalServerError"};
  }
  return {500, "InternalServerError"};
}

std::string RestErrorBody(const RestError& rest, std::string_view message) {
  nlohmann::json body = {{"error", {{"message", message}, {"type", rest.type}, {"code", rest.status}}}};
  return body.dump();
}

Error FromRestResponse(int status, std::string_view body, std::string_view what) {
  std::string message;
  std::string type;
  nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object() && json.contains("error") && json["error"].is_object()) {
    message = json["error"].value("message", "");
    type = json["error"].value("type", "");
  }
  if (message.empty()) {
    message = std::string(body.substr(0, 200));
  }
  ErrorKind kind = ErrorKind::kInternal;
  // The codes the Catalog interface promises, from the spec's exception types.
  ErrorCode code = ErrorCode::kUnspecified;
  if (status == 404) {
    kind = ErrorKind::kNotFound;
    if (type == "NoSuchNamespaceException") code = ErrorCode::kNoSuchNamespace;
    if (type == "NoSuchTableException") code = ErrorCode::kNoSuchTable;
    if (type == "NoSuchViewException") code = ErrorCode::kNoSuchView;
  } else if (status == 409) {
    if (type == "AlreadyExistsException") {
      kind = ErrorKind::kAlreadyExists;
    } else {
      kind = ErrorKind::kConflict;
      if (type == "NamespaceNotEmptyException") code = ErrorCode::kNamespaceNotEmpty;
    }
  } else if (status == 400 || status == 422) {
    kind = ErrorKind::kInvalidArgument;
  } else if (status == 401 || status == 419) {
    kind = ErrorKind::kUnauthenticated;
  } else if (status == 403) {
    kind = ErrorKind::kPermissionDenied;
  } else if (status == 406) {
    kind = ErrorKind::kNotImplemented;
  } else if (status == 503 || status == 429) {
    kind = ErrorKind::kUnavailable;
  } else if (status >= 500) {
    // CommitStateUnknown and gateway errors: the commit may or may not have happened.
    kind = ErrorKind::kIo;
  }
  return Error(kind, fmt::format("{} ({}: HTTP {} {})", message, what, status, type), code);
}

}  // namespace floe::catalog
