// ErrorCode: the domain reason of an error, for callers and protocols that must tell apart
// errors of one kind. A REST client needs NoSuchTableException rather than NoSuchNamespace-
// Exception, a Trino client DIVISION_BY_ZERO rather than a generic user error: both kinds are
// kNotFound or kInvalidArgument, and only the code says which. Protocols map codes, never
// message text, so rewording a message cannot misclassify an error.
//
// Each code has a usual ErrorKind (ErrorCodeKind), which CodedError gives it; an error without a
// domain reason has kUnspecified and is classified by its kind alone.
#pragma once

#include <cstdint>
#include <string_view>

namespace floe {

enum class ErrorKind;

enum class ErrorCode : uint8_t {
  kUnspecified,
  // Catalog objects (Iceberg REST error types; Trino's *_NOT_FOUND).
  kNoSuchCatalog,      // kNotFound
  kNoSuchNamespace,    // kNotFound (a SQL schema)
  kNoSuchTable,        // kNotFound
  kNoSuchView,         // kNotFound
  kNoSuchColumn,       // kNotFound (a query naming an unknown column: kInvalidArgument)
  kNoSuchFunction,     // kNotFound (in a query: kInvalidArgument)
  kNamespaceNotEmpty,  // kConflict
  // SQL text and evaluation (Trino's error names; PostgreSQL's SQLSTATE classes 42 and 22).
  kSyntaxError,     // kInvalidArgument
  kTypeMismatch,    // kInvalidArgument
  kDivisionByZero,  // kInvalidArgument
  // Session settings (SET, startup parameters): PostgreSQL's 22023, Trino's INVALID_SESSION_PROPERTY.
  kInvalidParameterValue,  // kInvalidArgument
  // MERGE: a target row matched more than one source row (PostgreSQL's cardinality_violation).
  kMergeTargetRowMultipleMatches,  // kInvalidArgument
  // Moving a catalog's pointers to another backing store (`floe up`'s catalog switch).
  kInvalidCatalogBackend,    // kInvalidArgument: not a store URI floe can open
  kCatalogStoreUnreachable,  // kUnavailable: the store did not answer
  kCatalogStoreConflict,     // kConflict: the store holds a different pointer for a table
};

// The kind errors with this code usually have (kInternal for kUnspecified, which has none).
ErrorKind ErrorCodeKind(ErrorCode code);

// "no such table", ... ("" for kUnspecified): for logs and tests.
std::string_view ErrorCodeName(ErrorCode code);

}  // namespace floe
