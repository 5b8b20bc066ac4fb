#include "stream/source/schema_registry_client.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "base/base64.h"
#include "base/logging.h"
#include "base/private_file.h"
#include "formats/json_schema/json_schema_references.h"
#include "net/http_message.h"

namespace floe::stream {
namespace {

// Parses the schemas a decoder reads: AVRO and PROTOBUF (JSON Schemas are kept as text).
Status ParseRegistered(RegisteredSchema& schema) {
  if (schema.schema_type == "AVRO") {
    auto parsed = avro::AvroSchema::Parse(schema.text);
    if (!parsed) return Corruption("schema id {} does not parse as Avro: {}", schema.id, parsed.error().message());
    schema.avro = std::move(*parsed);
  } else if (schema.schema_type == "PROTOBUF") {
    auto parsed = protobuf::ProtoSchema::Parse(schema.text);
    if (!parsed) return Corruption("schema id {} does not parse as Protobuf: {}", schema.id, parsed.error().message());
    schema.protobuf = std::move(*parsed);
  }
  return OkStatus();
}

}  // namespace

SchemaRegistryClient::SchemaRegistryClient(SchemaRegistryClientOptions options)
    : options_(std::move(options)),
      http_(net::HttpClientOptions{.connect_timeout = options_.timeout,
                                   .read_timeout = options_.timeout,
                                   .total_timeout = options_.timeout,
                                   .max_response_bytes = uint64_t{16} << 20}) {
  while (!options_.url.empty() && options_.url.back() == '/') options_.url.pop_back();
  std::string credential = options_.credential;
  if (const char* file = std::getenv("FLOE_REGISTRY_CREDENTIAL_FILE"); credential.empty() && file != nullptr && *file) {
    if (Status ok = CheckPrivateFile(file, "FLOE_REGISTRY_CREDENTIAL_FILE"); !ok) {
      Logger("stream")->warn("not using the registry credential: {}", ok.error().message());
    } else {
      std::ifstream in(file);
      std::getline(in, credential);
    }
  }
  if (!credential.empty()) authorization_ = "Basic " + Base64Encode(credential);
}

Result<std::shared_ptr<const RegisteredSchema>> SchemaRegistryClient::SchemaById(int32_t id) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = schemas_.find(id); it != schemas_.end()) return it->second;
  }
  // Fetched outside the lock: lanes asking for other ids need not wait. Two lanes may fetch the
  // same id at once; both get the same answer.
  FLOE_ASSIGN_OR_RETURN(auto schema, Fetch(id));
  std::lock_guard lock(mutex_);
  return schemas_.emplace(id, std::move(schema)).first->second;
}

Status SchemaRegistryClient::Remember(int32_t id, std::string_view text, std::string_view schema_type) {
  auto schema = std::make_shared<RegisteredSchema>();
  schema->id = id;
  schema->schema_type = std::string(schema_type);
  schema->text = std::string(text);
  FLOE_RETURN_IF_ERROR(ParseRegistered(*schema));
  std::lock_guard lock(mutex_);
  schemas_.insert_or_assign(id, std::move(schema));
  return OkStatus();
}

Result<nlohmann::json> SchemaRegistryClient::Get(const std::string& path, std::string_view what) {
  const std::string url = options_.url + path;
  std::chrono::milliseconds pause = options_.first_pause;
  Result<net::HttpResponse> response = Unavailable("no attempt made");
  for (int attempt = 1; attempt <= options_.attempts; ++attempt) {
    net::HttpClientRequest request{.method = "GET", .url = url};
    request.headers.Set("Accept", "application/vnd.schemaregistry.v1+json");
    if (!authorization_.empty()) request.headers.Set("Authorization", authorization_);
    response = http_.Send(request);
    // Retry what may pass: transport failures and the registry's own 5xx answers.
    const bool retry = response ? response->status >= 500 : response.error().IsRetryable();
    if (!retry || attempt == options_.attempts) break;
    std::this_thread::sleep_for(pause);
    pause *= 2;
  }
  if (!response) {
    return Unavailable("schema registry {} unreachable after {} attempts: {}", options_.url, options_.attempts,
                       response.error().message());
  }
  nlohmann::json body = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (response->status == 404) {
    std::string message = body.is_object() && body.contains("message") && body["message"].is_string()
                              ? body["message"].get<std::string>()
                              : response->body.substr(0, 200);
    return NotFound("{} is unknown to the registry at {} ({})", what, options_.url, message);
  }
  if (response->status >= 500) {
    return Unavailable("schema registry {} answered HTTP {} after {} attempts", options_.url, response->status,
                       options_.attempts);
  }
  if (response->status != 200) {
    return Unavailable("schema registry {} answered HTTP {} for {}: {}", options_.url, response->status, what,
                       response->body.substr(0, 200));
  }
  if (!body.is_object() || !body.contains("schema") || !body["schema"].is_string()) {
    return Corruption("schema registry {}: the answer for {} has no \"schema\" string", options_.url, what);
  }
  return body;
}

namespace {

// "subject 'a' version 2" of a walk key "a\n2".
std::string DescribeReference(std::string_view key) {
  const size_t newline = key.find('\n');
  return fmt::format("subject '{}' version {}", key.substr(0, newline), key.substr(newline + 1));
}

}  // namespace

Status SchemaRegistryClient::ResolveReferences(const nlohmann::json& references, std::string_view type,
                                               std::string_view what, ReferenceWalk& walk,
                                               std::vector<ReferencedSchema>& out) {
  if (!references.is_array()) return Corruption("{}: \"references\" is not a list", what);
  if (walk.path.size() > static_cast<size_t>(kMaxReferenceDepth)) {
    return Corruption("{}: schema references nested deeper than {}", what, kMaxReferenceDepth);
  }
  for (const nlohmann::json& reference : references) {
    if (!reference.is_object() || !reference.contains("subject") || !reference["subject"].is_string() ||
        !reference.contains("version") || !reference["version"].is_number_integer()) {
      return Corruption("{}: a schema reference without a string \"subject\" and an integer \"version\"", what);
    }
    // Avro ignores a reference's name; Protobuf imports and JSON Schema `$ref`s go by it.
    if (type != "AVRO" && !(reference.contains("name") && reference["name"].is_string())) {
      return Corruption("{}: a {} schema reference without a string \"name\"", what, type);
    }
    const std::string subject = reference["subject"].get<std::string>();
    const int64_t version = reference["version"].get<int64_t>();
    // A schema referenced along two paths is read once (a version other than -1, latest, is
    // known before it is fetched).
    const std::string asked = fmt::format("{}\n{}", subject, version);
    if (walk.done.contains(asked)) continue;
    const std::string referenced =
        fmt::format("the reference to subject '{}' version {} of {}", subject, version, what);
    FLOE_ASSIGN_OR_RETURN(
        nlohmann::json body,
        Get(fmt::format("/subjects/{}/versions/{}", net::PercentEncode(subject), version), referenced));
    const int64_t answered =
        body.contains("version") && body["version"].is_number_integer() ? body["version"].get<int64_t>() : version;
    const std::string key = fmt::format("{}\n{}", subject, answered);
    if (auto on_path = std::find(walk.path.begin(), walk.path.end(), key); on_path != walk.path.end()) {
      std::string cycle;
      for (auto it = on_path; it != walk.path.end(); ++it) cycle += DescribeReference(*it) + " -> ";
      return Corruption("{}: schema references form a cycle: {}{}", what, cycle, DescribeReference(key));
    }
    if (walk.done.contains(key)) {
      walk.done.insert(asked);
      continue;
    }
    if (walk.done.size() + walk.path.size() >= kMaxReferences) {
      return Corruption("{}: more than {} schema references", what, kMaxReferences);
    }
    const std::string referenced_type =
        body.contains("schemaType") && body["schemaType"].is_string() ? body["schemaType"].get<std::string>() : "AVRO";
    if (referenced_type != type) return Corruption("{} is a {} schema, not {}", referenced, referenced_type, type);
    // Its own references first: the types it uses are defined before it.
    if (body.contains("references")) {
      walk.path.push_back(key);
      FLOE_RETURN_IF_ERROR(ResolveReferences(body["references"], type, referenced, walk, out));
      walk.path.pop_back();
    }
    walk.done.insert(key);
    walk.done.insert(asked);
    out.push_back(
        {reference.contains("name") && reference["name"].is_string() ? reference["name"].get<std::string>() : subject,
         body["schema"].get<std::string>()});
  }
  return OkStatus();
}

Result<std::shared_ptr<const RegisteredSchema>> SchemaRegistryClient::Fetch(int32_t id) {
  const std::string what = fmt::format("schema id {}", id);
  FLOE_ASSIGN_OR_RETURN(nlohmann::json body, Get("/schemas/ids/" + std::to_string(id), what));
  auto schema = std::make_shared<RegisteredSchema>();
  schema->id = id;
  schema->text = body["schema"].get<std::string>();
  schema->schema_type = body.contains("schemaType") && body["schemaType"].is_string()
                            ? body["schemaType"].get<std::string>()
                            : "AVRO";  // Confluent leaves it out for Avro.
  const bool has_references =
      body.contains("references") && !(body["references"].is_array() && body["references"].empty());
  if (!has_references) {
    FLOE_RETURN_IF_ERROR(ParseRegistered(*schema));
    return std::shared_ptr<const RegisteredSchema>(std::move(schema));
  }
  // The referenced schemas define types the schema uses: fetched first, depth first.
  ReferenceWalk walk;
  std::vector<ReferencedSchema> referenced;
  FLOE_RETURN_IF_ERROR(ResolveReferences(body["references"], schema->schema_type, what, walk, referenced));
  if (schema->schema_type == "AVRO") {
    std::vector<std::string> texts;
    for (const ReferencedSchema& r : referenced) texts.push_back(r.text);
    auto parsed = avro::AvroSchema::ParseWithReferences(schema->text, texts);
    if (!parsed) {
      return Corruption("schema id {} does not parse as Avro with its {} reference(s): {}", id, texts.size(),
                        parsed.error().message());
    }
    schema->avro = std::move(*parsed);
  } else if (schema->schema_type == "PROTOBUF") {
    // Each reference is a file the schema (or a file it imports) imports by the reference's name.
    std::vector<protobuf::ProtoImport> imports;
    for (ReferencedSchema& r : referenced) imports.push_back({std::move(r.name), std::move(r.text)});
    auto parsed = protobuf::ProtoSchema::ParseWithImports(schema->text, imports);
    if (!parsed) {
      return Corruption("schema id {} does not parse as Protobuf with its {} referenced file(s): {}", id,
                        imports.size(), parsed.error().message());
    }
    schema->protobuf = std::move(*parsed);
  } else if (schema->schema_type == "JSON") {
    std::vector<json_schema::JsonSchemaDocument> documents;
    for (const ReferencedSchema& r : referenced) documents.push_back({r.name, r.text});
    if (Status ok = json_schema::CheckJsonSchemaReferences(schema->text, documents); !ok) {
      return Corruption("schema id {}: {}", id, ok.error().message());
    }
  }
  return std::shared_ptr<const RegisteredSchema>(std::move(schema));
}

}  // namespace floe::stream
