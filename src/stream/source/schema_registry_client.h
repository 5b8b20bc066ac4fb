// SchemaRegistryClient: the writer schemas a Confluent-compatible Schema Registry holds (floe's
// own `floe registry`, Confluent's, Karapace, Apicurio, Redpanda's), fetched by id with
// GET /schemas/ids/{id} and kept: a registry never changes what an id means, so an id is asked
// for once per process. A request the registry does not answer is retried a few times with a
// growing pause before the failure is reported.
//
// Thread-safe: the stream job's decode lanes and fresh reads share one client per registry.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/avro/avro_schema.h"
#include "formats/protobuf/proto_schema.h"
#include "net/http_client.h"

namespace floe::stream {

struct RegisteredSchema {
  int32_t id = 0;
  std::string schema_type;  // "AVRO", "PROTOBUF" or "JSON".
  std::string text;         // The schema as registered.
  std::optional<avro::AvroSchema> avro;  // Parsed, for AVRO schemas.
  std::optional<protobuf::ProtoSchema> protobuf;  // Parsed, for PROTOBUF schemas.
};

// One schema a registered schema references, fetched: Confluent's reference `name` (an Avro
// schema ignores it; a Protobuf schema imports the file by it; a JSON Schema's `$ref`s name it)
// and the referenced version's schema text.
struct ReferencedSchema {
  std::string name;
  std::string text;
};

struct SchemaRegistryClientOptions {
  std::string url;  // "http://127.0.0.1:8081" (user:password@ for HTTP basic auth).
  int attempts = 4;
  std::chrono::milliseconds first_pause{100};  // Doubled after each failed attempt.
  std::chrono::milliseconds timeout{5'000};
  // HTTP basic credentials, "user:password"; empty: those of the file FLOE_REGISTRY_CREDENTIAL_FILE
  // names, if any (how `floe up` gives its jobs a login without putting it in argv or a URL
  // recorded in table properties).
  std::string credential;
};

class SchemaRegistryClient {
 public:
  explicit SchemaRegistryClient(SchemaRegistryClientOptions options);

  // The schema with `id`: NotFound when the registry has none (its error 40403), Unavailable
  // when it could not be reached after every attempt, Corruption when its answer or an AVRO or
  // PROTOBUF schema does not parse. A schema's references (Confluent's schema references: the
  // subject and version of each schema defining types it uses) are fetched with
  // GET /subjects/{s}/versions/{v}, theirs first, each once, at most kMaxReferences of them and
  // kMaxReferenceDepth deep, each of the referencing schema's type; a cycle of references is
  // Corruption naming it. AVRO schemas are parsed with the named types they define, PROTOBUF
  // schemas with them as the files they import (by reference name), and a JSON Schema's `$ref`s
  // to other documents must each name a reference (formats/json_schema/json_schema_references.h).
  Result<std::shared_ptr<const RegisteredSchema>> SchemaById(int32_t id);

  // Puts a schema known ahead under `id`, as if the registry had answered it (benchmarks and
  // tests that run without a registry). Corruption when it does not parse.
  Status Remember(int32_t id, std::string_view schema, std::string_view schema_type = "AVRO");

  const std::string& url() const { return options_.url; }

  static constexpr size_t kMaxReferences = 256;  // As the registry's own bound (docs/schema-registry.md).
  static constexpr int kMaxReferenceDepth = 32;

 private:
  Result<std::shared_ptr<const RegisteredSchema>> Fetch(int32_t id);
  // GET `path` of the registry, retried; the answer, an object with a "schema" string. `what`
  // names the request in errors.
  Result<nlohmann::json> Get(const std::string& path, std::string_view what);
  // The schemas a reference walk has reached: those done, and the path being followed (for
  // cycles), each as "subject\nversion" of the version the registry answered.
  struct ReferenceWalk {
    std::set<std::string> done;
    std::vector<std::string> path;
  };
  // Appends `references` (a "references" list of a `type` schema) and theirs, dependencies first.
  Status ResolveReferences(const nlohmann::json& references, std::string_view type, std::string_view what,
                           ReferenceWalk& walk, std::vector<ReferencedSchema>& out);

  SchemaRegistryClientOptions options_;
  std::string authorization_;  // "Basic ..." or empty.
  net::HttpClient http_;
  std::mutex mutex_;
  std::map<int32_t, std::shared_ptr<const RegisteredSchema>> schemas_;  // Guarded by mutex_.
};

}  // namespace floe::stream
