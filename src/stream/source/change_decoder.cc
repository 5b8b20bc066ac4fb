#include "stream/source/change_decoder.h"

#include "formats/json/event_decoder.h"

namespace floe::stream {

Result<std::unique_ptr<ChangeDecoder>> ChangeDecoder::Make(Envelope envelope, std::vector<formats::Field> key_fields,
                                                           formats::EpochUnit timestamp_unit) {
  if (key_fields.empty()) return InvalidArgument("a keyed stream needs at least one key column");
  std::vector<std::string> names;
  for (const formats::Field& f : key_fields) names.push_back(f.name);
  // A one-column string key may be bare unquoted text in a message key.
  bool string_key = key_fields.size() == 1 && key_fields[0].type.id == formats::TypeId::kString;
  std::unique_ptr<ChangeDecoder> decoder(new ChangeDecoder());
  FLOE_ASSIGN_OR_RETURN(decoder->key_decoder_, formats::JsonEventDecoder::Make(std::move(key_fields), timestamp_unit));
  decoder->parser_ = std::make_unique<ChangeEventParser>(envelope, std::move(names), string_key);
  return decoder;
}

ChangeDecoder::~ChangeDecoder() = default;

SortedChanges ChangeDecoder::Sort(std::span<const KeyedRecord> records) {
  SortedChanges out;
  out.events.resize(records.size());
  out.rows_json.resize(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const KeyedRecord& r = records[i];
    auto event = parser_->Parse(r.key, r.key_null, r.value, r.value_null);
    if (!event) {
      out.bad.emplace_back(i, event.error().message());
      continue;
    }
    out.events[i] = std::move(*event);
    if (out.events[i].kind == ChangeEvent::Kind::kUpsert) {
      out.rows_json[i] = out.events[i].json();
    } else {
      out.deletes.push_back(i);
    }
  }
  return out;
}

Result<DeletedKeys> ChangeDecoder::DecodeDeletedKeys(SortedChanges& changes) {
  DeletedKeys out;
  if (changes.deletes.empty()) {
    out.keys = formats::MakeEmptyBatch(key_decoder_->fields());
    return out;
  }
  // One JSON line per deleted key.
  std::string lines;
  for (size_t i : changes.deletes) formats::AppendEventLine(&lines, changes.events[i].json(), false);
  const size_t size = lines.size();
  lines.append(formats::JsonEventDecoder::kPadding, '\0');
  key_decoder_->DecodeLines(std::string_view(lines.data(), size), 1);
  size_t next_error = 0;
  const std::vector<formats::LineError>& errors = key_decoder_->errors();
  for (size_t d = 0; d < changes.deletes.size(); ++d) {
    if (next_error < errors.size() && static_cast<size_t>(errors[next_error].line - 1) == d) {
      changes.bad.emplace_back(changes.deletes[d], "key: " + errors[next_error].message);
      ++next_error;
      continue;
    }
    out.record_of_key.push_back(changes.deletes[d]);
  }
  key_decoder_->ClearErrors();
  out.keys = key_decoder_->TakeBatch();
  return out;
}

}  // namespace floe::stream
