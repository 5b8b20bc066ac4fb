#include "formats/parquet/metadata.h"

#include "formats/parquet/thrift_compact.h"

namespace floe::parquet {
namespace {

using thrift::CompactReader;
using thrift::CompactWriter;
using thrift::FieldHeader;
using thrift::Type;

bool IsBool(const FieldHeader& h) { return h.type == Type::kBoolTrue || h.type == Type::kBoolFalse; }

// Reads a struct, calling on_field(header) -> Result<bool> (false: unknown, skip it).
template <typename F>
Status ReadStruct(CompactReader& r, F&& on_field) {
  FLOE_RETURN_IF_ERROR(r.BeginStruct());
  while (true) {
    FLOE_ASSIGN_OR_RETURN(FieldHeader h, r.ReadFieldHeader());
    if (h.type == Type::kStop) break;
    FLOE_ASSIGN_OR_RETURN(bool handled, on_field(h));
    if (!handled) FLOE_RETURN_IF_ERROR(r.Skip(h.type));
  }
  r.EndStruct();
  return OkStatus();
}

// Reads a list whose elements are read by read_element(r) -> Status.
template <typename F>
Status ReadList(CompactReader& r, Type element_type, F&& read_element) {
  FLOE_ASSIGN_OR_RETURN(thrift::ListHeader header, r.ReadListHeader());
  if (header.element_type != element_type) {
    for (uint32_t i = 0; i < header.size; ++i) {
      if (header.element_type == Type::kBoolTrue) {
        FLOE_RETURN_IF_ERROR(r.ReadBoolElement());
      } else {
        FLOE_RETURN_IF_ERROR(r.Skip(header.element_type));
      }
    }
    return OkStatus();
  }
  for (uint32_t i = 0; i < header.size; ++i) FLOE_RETURN_IF_ERROR(read_element(r));
  return OkStatus();
}

Status ReadEmptyStruct(CompactReader& r) {
  return ReadStruct(r, [](const FieldHeader&) -> Result<bool> { return false; });
}

Result<std::string> ReadString(CompactReader& r) {
  FLOE_ASSIGN_OR_RETURN(std::string_view v, r.ReadBinary());
  return std::string(v);
}

Status ReadTimeUnit(CompactReader& r, TimeUnit* unit) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.type != Type::kStruct) return false;
    if (h.id == 1) *unit = TimeUnit::kMillis;
    else if (h.id == 2) *unit = TimeUnit::kMicros;
    else if (h.id == 3) *unit = TimeUnit::kNanos;
    else return false;
    FLOE_RETURN_IF_ERROR(ReadEmptyStruct(r));
    return true;
  });
}

Status ReadLogicalType(CompactReader& r, LogicalType* lt) {
  using K = LogicalType::Kind;
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.type != Type::kStruct) return false;
    switch (h.id) {
      case 1: lt->kind = K::kString; break;
      case 2: lt->kind = K::kMap; break;
      case 3: lt->kind = K::kList; break;
      case 4: lt->kind = K::kEnum; break;
      case 6: lt->kind = K::kDate; break;
      case 11: lt->kind = K::kUnknown; break;
      case 12: lt->kind = K::kJson; break;
      case 13: lt->kind = K::kBson; break;
      case 14: lt->kind = K::kUuid; break;
      case 15: lt->kind = K::kFloat16; break;
      case 5:
        lt->kind = K::kDecimal;
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const FieldHeader& d) -> Result<bool> {
          if (d.type != Type::kI32) return false;
          if (d.id == 1) {
            { FLOE_ASSIGN_OR_RETURN(lt->scale, r.ReadI32()); }
          } else if (d.id == 2) {
            { FLOE_ASSIGN_OR_RETURN(lt->precision, r.ReadI32()); }
          } else {
            return false;
          }
          return true;
        }));
        return true;
      case 7:
      case 8:
        lt->kind = h.id == 7 ? K::kTime : K::kTimestamp;
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const FieldHeader& d) -> Result<bool> {
          if (d.id == 1 && IsBool(d)) {
            lt->adjusted_to_utc = d.bool_value;
          } else if (d.id == 2 && d.type == Type::kStruct) {
            FLOE_RETURN_IF_ERROR(ReadTimeUnit(r, &lt->unit));
          } else {
            return false;
          }
          return true;
        }));
        return true;
      case 10:
        lt->kind = K::kInteger;
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const FieldHeader& d) -> Result<bool> {
          if (d.id == 1 && d.type == Type::kByte) {
            { FLOE_ASSIGN_OR_RETURN(lt->bit_width, r.ReadByte()); }
          } else if (d.id == 2 && IsBool(d)) {
            lt->is_signed = d.bool_value;
          } else {
            return false;
          }
          return true;
        }));
        return true;
      default:
        return false;
    }
    FLOE_RETURN_IF_ERROR(ReadEmptyStruct(r));
    return true;
  });
}

Status ReadSchemaElement(CompactReader& r, SchemaElement* e) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1:
        if (h.type != Type::kI32) return false;
        {
          FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          e->type = static_cast<PhysicalType>(v);
        }
        return true;
      case 2:
        if (h.type != Type::kI32) return false;
        { FLOE_ASSIGN_OR_RETURN(e->type_length, r.ReadI32()); }
        return true;
      case 3:
        if (h.type != Type::kI32) return false;
        {
          FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          e->repetition = static_cast<Repetition>(v);
        }
        return true;
      case 4:
        if (h.type != Type::kBinary) return false;
        { FLOE_ASSIGN_OR_RETURN(e->name, ReadString(r)); }
        return true;
      case 5:
        if (h.type != Type::kI32) return false;
        { FLOE_ASSIGN_OR_RETURN(e->num_children, r.ReadI32()); }
        return true;
      case 6:
        if (h.type != Type::kI32) return false;
        {
          FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          e->converted_type = static_cast<ConvertedType>(v);
        }
        return true;
      case 7:
        if (h.type != Type::kI32) return false;
        { FLOE_ASSIGN_OR_RETURN(e->scale, r.ReadI32()); }
        return true;
      case 8:
        if (h.type != Type::kI32) return false;
        { FLOE_ASSIGN_OR_RETURN(e->precision, r.ReadI32()); }
        return true;
      case 9:
        if (h.type != Type::kI32) return false;
        {
          FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          e->field_id = v;
        }
        return true;
      case 10:
        if (h.type != Type::kStruct) return false;
        FLOE_RETURN_IF_ERROR(ReadLogicalType(r, &e->logical_type));
        return true;
      default:
        return false;
    }
  });
}

Status ReadKeyValue(CompactReader& r, KeyValue* kv) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.type != Type::kBinary) return false;
    if (h.id == 1) {
      { FLOE_ASSIGN_OR_RETURN(kv->key, ReadString(r)); }
    } else if (h.id == 2) {
      { FLOE_ASSIGN_OR_RETURN(kv->value, ReadString(r)); }
    } else {
      return false;
    }
    return true;
  });
}

Status ReadStatistics(CompactReader& r, Statistics* s) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.id == 3 || h.id == 4) {
      if (h.type != Type::kI64) return false;
      FLOE_ASSIGN_OR_RETURN(int64_t v, r.ReadI64());
      (h.id == 3 ? s->null_count : s->distinct_count) = v;
      return true;
    }
    if (h.type != Type::kBinary) return false;
    std::optional<std::string>* target = nullptr;
    switch (h.id) {
      case 1: target = &s->max; break;
      case 2: target = &s->min; break;
      case 5: target = &s->max_value; break;
      case 6: target = &s->min_value; break;
      default: return false;
    }
    { FLOE_ASSIGN_OR_RETURN(*target, ReadString(r)); }
    return true;
  });
}

Status ReadColumnMetaData(CompactReader& r, ColumnMetaData* m) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1: {
        if (h.type != Type::kI32) return false;
        FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        m->type = static_cast<PhysicalType>(v);
        return true;
      }
      case 2:
        if (h.type != Type::kList) return false;
        FLOE_RETURN_IF_ERROR(ReadList(r, Type::kI32, [&](CompactReader& rr) -> Status {
          FLOE_ASSIGN_OR_RETURN(int32_t v, rr.ReadI32());
          m->encodings.push_back(static_cast<Encoding>(v));
          return OkStatus();
        }));
        return true;
      case 3:
        if (h.type != Type::kList) return false;
        FLOE_RETURN_IF_ERROR(ReadList(r, Type::kBinary, [&](CompactReader& rr) -> Status {
          FLOE_ASSIGN_OR_RETURN(std::string v, ReadString(rr));
          m->path_in_schema.push_back(std::move(v));
          return OkStatus();
        }));
        return true;
      case 4: {
        if (h.type != Type::kI32) return false;
        FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        m->codec = static_cast<Codec>(v);
        return true;
      }
      case 5:
      case 6:
      case 7:
      case 9:
      case 10:
      case 11:
      case 14: {
        if (h.type != Type::kI64) return false;
        FLOE_ASSIGN_OR_RETURN(int64_t v, r.ReadI64());
        if (h.id == 5) m->num_values = v;
        if (h.id == 6) m->total_uncompressed_size = v;
        if (h.id == 7) m->total_compressed_size = v;
        if (h.id == 9) m->data_page_offset = v;
        if (h.id == 10) m->index_page_offset = v;
        if (h.id == 11) m->dictionary_page_offset = v;
        if (h.id == 14) m->bloom_filter_offset = v;
        return true;
      }
      case 15: {
        if (h.type != Type::kI32) return false;
        FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        m->bloom_filter_length = v;
        return true;
      }
      case 8:
        if (h.type != Type::kList) return false;
        FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
          KeyValue kv;
          FLOE_RETURN_IF_ERROR(ReadKeyValue(rr, &kv));
          m->key_value_metadata.push_back(std::move(kv));
          return OkStatus();
        }));
        return true;
      case 12:
        if (h.type != Type::kStruct) return false;
        m->statistics.emplace();
        FLOE_RETURN_IF_ERROR(ReadStatistics(r, &*m->statistics));
        return true;
      case 13:
        if (h.type != Type::kList) return false;
        FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
          PageEncodingStats s;
          FLOE_RETURN_IF_ERROR(ReadStruct(rr, [&](const FieldHeader& f) -> Result<bool> {
            if (f.type != Type::kI32 || f.id < 1 || f.id > 3) return false;
            FLOE_ASSIGN_OR_RETURN(int32_t v, rr.ReadI32());
            if (f.id == 1) s.page_type = static_cast<PageType>(v);
            if (f.id == 2) s.encoding = static_cast<Encoding>(v);
            if (f.id == 3) s.count = v;
            return true;
          }));
          m->encoding_stats.push_back(s);
          return OkStatus();
        }));
        return true;
      default:
        return false;
    }
  });
}

Status ReadColumnChunk(CompactReader& r, ColumnChunk* c) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1:
        if (h.type != Type::kBinary) return false;
        { FLOE_ASSIGN_OR_RETURN(c->file_path, ReadString(r)); }
        return true;
      case 2:
      case 4:
      case 6: {
        if (h.type != Type::kI64) return false;
        FLOE_ASSIGN_OR_RETURN(int64_t v, r.ReadI64());
        if (h.id == 2) c->file_offset = v;
        if (h.id == 4) c->offset_index_offset = v;
        if (h.id == 6) c->column_index_offset = v;
        return true;
      }
      case 5:
      case 7: {
        if (h.type != Type::kI32) return false;
        FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        (h.id == 5 ? c->offset_index_length : c->column_index_length) = v;
        return true;
      }
      case 3:
        if (h.type != Type::kStruct) return false;
        c->meta_data.emplace();
        FLOE_RETURN_IF_ERROR(ReadColumnMetaData(r, &*c->meta_data));
        return true;
      default:
        return false;
    }
  });
}

Status ReadRowGroup(CompactReader& r, RowGroup* g) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1:
        if (h.type != Type::kList) return false;
        FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
          ColumnChunk c;
          FLOE_RETURN_IF_ERROR(ReadColumnChunk(rr, &c));
          g->columns.push_back(std::move(c));
          return OkStatus();
        }));
        return true;
      case 2:
      case 3:
      case 5:
      case 6: {
        if (h.type != Type::kI64) return false;
        FLOE_ASSIGN_OR_RETURN(int64_t v, r.ReadI64());
        if (h.id == 2) g->total_byte_size = v;
        if (h.id == 3) g->num_rows = v;
        if (h.id == 5) g->file_offset = v;
        if (h.id == 6) g->total_compressed_size = v;
        return true;
      }
      case 7: {
        if (h.type != Type::kI16) return false;
        FLOE_ASSIGN_OR_RETURN(int16_t v, r.ReadI16());
        g->ordinal = v;
        return true;
      }
      default:
        return false;
    }
  });
}

Status ReadDataPageHeader(CompactReader& r, DataPageHeader* d) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.id >= 1 && h.id <= 4) {
      if (h.type != Type::kI32) return false;
      FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
      if (h.id == 1) d->num_values = v;
      if (h.id == 2) d->encoding = static_cast<Encoding>(v);
      if (h.id == 3) d->definition_level_encoding = static_cast<Encoding>(v);
      if (h.id == 4) d->repetition_level_encoding = static_cast<Encoding>(v);
      return true;
    }
    if (h.id == 5 && h.type == Type::kStruct) {
      d->statistics.emplace();
      FLOE_RETURN_IF_ERROR(ReadStatistics(r, &*d->statistics));
      return true;
    }
    return false;
  });
}

Status ReadDataPageHeaderV2(CompactReader& r, DataPageHeaderV2* d) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.id >= 1 && h.id <= 6) {
      if (h.type != Type::kI32) return false;
      FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
      if (h.id == 1) d->num_values = v;
      if (h.id == 2) d->num_nulls = v;
      if (h.id == 3) d->num_rows = v;
      if (h.id == 4) d->encoding = static_cast<Encoding>(v);
      if (h.id == 5) d->definition_levels_byte_length = v;
      if (h.id == 6) d->repetition_levels_byte_length = v;
      return true;
    }
    if (h.id == 7 && IsBool(h)) {
      d->is_compressed = h.bool_value;
      return true;
    }
    if (h.id == 8 && h.type == Type::kStruct) {
      d->statistics.emplace();
      FLOE_RETURN_IF_ERROR(ReadStatistics(r, &*d->statistics));
      return true;
    }
    return false;
  });
}

Status ReadPageHeader(CompactReader& r, PageHeader* p) {
  return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
    if (h.id >= 1 && h.id <= 4) {
      if (h.type != Type::kI32) return false;
      FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
      if (h.id == 1) p->type = static_cast<PageType>(v);
      if (h.id == 2) p->uncompressed_page_size = v;
      if (h.id == 3) p->compressed_page_size = v;
      if (h.id == 4) p->crc = v;
      return true;
    }
    if (h.type != Type::kStruct) return false;
    if (h.id == 5) {
      p->data_page_header.emplace();
      FLOE_RETURN_IF_ERROR(ReadDataPageHeader(r, &*p->data_page_header));
      return true;
    }
    if (h.id == 7) {
      p->dictionary_page_header.emplace();
      FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const FieldHeader& d) -> Result<bool> {
        auto& dict = *p->dictionary_page_header;
        if ((d.id == 1 || d.id == 2) && d.type == Type::kI32) {
          FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          if (d.id == 1) dict.num_values = v;
          if (d.id == 2) dict.encoding = static_cast<Encoding>(v);
          return true;
        }
        if (d.id == 3 && IsBool(d)) {
          dict.is_sorted = d.bool_value;
          return true;
        }
        return false;
      }));
      return true;
    }
    if (h.id == 8) {
      p->data_page_header_v2.emplace();
      FLOE_RETURN_IF_ERROR(ReadDataPageHeaderV2(r, &*p->data_page_header_v2));
      return true;
    }
    return false;
  });
}

// Encoders.

void WriteStatistics(CompactWriter& w, int16_t id, const Statistics& s) {
  w.StructField(id);
  if (s.max) w.Binary(1, *s.max);
  if (s.min) w.Binary(2, *s.min);
  if (s.null_count) w.I64(3, *s.null_count);
  if (s.distinct_count) w.I64(4, *s.distinct_count);
  if (s.max_value) w.Binary(5, *s.max_value);
  if (s.min_value) w.Binary(6, *s.min_value);
  w.EndStruct();
}

void WriteKeyValues(CompactWriter& w, int16_t id, const std::vector<KeyValue>& kvs) {
  w.ListHeader(id, Type::kStruct, kvs.size());
  for (const auto& kv : kvs) {
    w.BeginStruct();
    w.Binary(1, kv.key);
    if (kv.value) w.Binary(2, *kv.value);
    w.EndStruct();
  }
}

void WriteEmpty(CompactWriter& w, int16_t id) {
  w.StructField(id);
  w.EndStruct();
}

void WriteLogicalType(CompactWriter& w, const LogicalType& lt) {
  using K = LogicalType::Kind;
  w.StructField(10);
  switch (lt.kind) {
    case K::kString: WriteEmpty(w, 1); break;
    case K::kMap: WriteEmpty(w, 2); break;
    case K::kList: WriteEmpty(w, 3); break;
    case K::kEnum: WriteEmpty(w, 4); break;
    case K::kDecimal:
      w.StructField(5);
      w.I32(1, lt.scale);
      w.I32(2, lt.precision);
      w.EndStruct();
      break;
    case K::kDate: WriteEmpty(w, 6); break;
    case K::kTime:
    case K::kTimestamp:
      w.StructField(lt.kind == K::kTime ? 7 : 8);
      w.Bool(1, lt.adjusted_to_utc);
      w.StructField(2);
      WriteEmpty(w, lt.unit == TimeUnit::kMillis ? 1 : lt.unit == TimeUnit::kMicros ? 2 : 3);
      w.EndStruct();
      w.EndStruct();
      break;
    case K::kInteger:
      w.StructField(10);
      w.Byte(1, lt.bit_width);
      w.Bool(2, lt.is_signed);
      w.EndStruct();
      break;
    case K::kUnknown: WriteEmpty(w, 11); break;
    case K::kJson: WriteEmpty(w, 12); break;
    case K::kBson: WriteEmpty(w, 13); break;
    case K::kUuid: WriteEmpty(w, 14); break;
    case K::kFloat16: WriteEmpty(w, 15); break;
    case K::kNone: break;
  }
  w.EndStruct();
}

template <typename T, typename F>
Result<T> DecodeWith(std::string_view bytes, size_t* consumed, F&& read) {
  CompactReader r(bytes);
  T out;
  FLOE_RETURN_IF_ERROR(read(r, &out));
  if (consumed) *consumed = r.position();
  return out;
}

}  // namespace

Result<FileMetaData> DecodeFileMetaData(std::string_view bytes) {
  return DecodeWith<FileMetaData>(bytes, nullptr, [](CompactReader& r, FileMetaData* m) {
    return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
      switch (h.id) {
        case 1:
          if (h.type != Type::kI32) return false;
          { FLOE_ASSIGN_OR_RETURN(m->version, r.ReadI32()); }
          return true;
        case 2:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
            SchemaElement e;
            FLOE_RETURN_IF_ERROR(ReadSchemaElement(rr, &e));
            m->schema.push_back(std::move(e));
            return OkStatus();
          }));
          return true;
        case 3:
          if (h.type != Type::kI64) return false;
          { FLOE_ASSIGN_OR_RETURN(m->num_rows, r.ReadI64()); }
          return true;
        case 4:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
            RowGroup g;
            FLOE_RETURN_IF_ERROR(ReadRowGroup(rr, &g));
            m->row_groups.push_back(std::move(g));
            return OkStatus();
          }));
          return true;
        case 5:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
            KeyValue kv;
            FLOE_RETURN_IF_ERROR(ReadKeyValue(rr, &kv));
            m->key_value_metadata.push_back(std::move(kv));
            return OkStatus();
          }));
          return true;
        case 6:
          if (h.type != Type::kBinary) return false;
          { FLOE_ASSIGN_OR_RETURN(m->created_by, ReadString(r)); }
          return true;
        case 7:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
            ++m->column_orders;
            return rr.Skip(Type::kStruct);
          }));
          return true;
        default:
          return false;
      }
    });
  });
}

Result<PageHeader> DecodePageHeader(std::string_view bytes, size_t* consumed) {
  return DecodeWith<PageHeader>(bytes, consumed, [](CompactReader& r, PageHeader* p) { return ReadPageHeader(r, p); });
}

Result<ColumnIndex> DecodeColumnIndex(std::string_view bytes) {
  return DecodeWith<ColumnIndex>(bytes, nullptr, [](CompactReader& r, ColumnIndex* c) {
    return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
      switch (h.id) {
        case 1:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kBoolTrue, [&](CompactReader& rr) -> Status {
            FLOE_ASSIGN_OR_RETURN(bool v, rr.ReadBoolElement());
            c->null_pages.push_back(v);
            return OkStatus();
          }));
          return true;
        case 2:
        case 3:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kBinary, [&](CompactReader& rr) -> Status {
            FLOE_ASSIGN_OR_RETURN(std::string v, ReadString(rr));
            (h.id == 2 ? c->min_values : c->max_values).push_back(std::move(v));
            return OkStatus();
          }));
          return true;
        case 4: {
          if (h.type != Type::kI32) return false;
          FLOE_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          c->boundary_order = static_cast<BoundaryOrder>(v);
          return true;
        }
        case 5:
          if (h.type != Type::kList) return false;
          FLOE_RETURN_IF_ERROR(ReadList(r, Type::kI64, [&](CompactReader& rr) -> Status {
            FLOE_ASSIGN_OR_RETURN(int64_t v, rr.ReadI64());
            c->null_counts.push_back(v);
            return OkStatus();
          }));
          return true;
        default:
          return false;
      }
    });
  });
}

Result<OffsetIndex> DecodeOffsetIndex(std::string_view bytes) {
  return DecodeWith<OffsetIndex>(bytes, nullptr, [](CompactReader& r, OffsetIndex* o) {
    return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
      if (h.id != 1 || h.type != Type::kList) return false;
      FLOE_RETURN_IF_ERROR(ReadList(r, Type::kStruct, [&](CompactReader& rr) -> Status {
        PageLocation loc;
        FLOE_RETURN_IF_ERROR(ReadStruct(rr, [&](const FieldHeader& f) -> Result<bool> {
          if ((f.id == 1 || f.id == 3) && f.type == Type::kI64) {
            FLOE_ASSIGN_OR_RETURN(int64_t v, rr.ReadI64());
            (f.id == 1 ? loc.offset : loc.first_row_index) = v;
            return true;
          }
          if (f.id == 2 && f.type == Type::kI32) {
            { FLOE_ASSIGN_OR_RETURN(loc.compressed_page_size, rr.ReadI32()); }
            return true;
          }
          return false;
        }));
        o->page_locations.push_back(loc);
        return OkStatus();
      }));
      return true;
    });
  });
}

Result<BloomFilterHeader> DecodeBloomFilterHeader(std::string_view bytes, size_t* consumed) {
  return DecodeWith<BloomFilterHeader>(bytes, consumed, [](CompactReader& r, BloomFilterHeader* b) {
    return ReadStruct(r, [&](const FieldHeader& h) -> Result<bool> {
      if (h.id != 1 || h.type != Type::kI32) return false;
      { FLOE_ASSIGN_OR_RETURN(b->num_bytes, r.ReadI32()); }
      return true;
    });
  });
}

void EncodeFileMetaData(const FileMetaData& m, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.I32(1, m.version);
  w.ListHeader(2, Type::kStruct, m.schema.size());
  for (const SchemaElement& e : m.schema) {
    w.BeginStruct();
    if (e.type) w.I32(1, static_cast<int32_t>(*e.type));
    if (e.type_length > 0) w.I32(2, e.type_length);
    if (e.repetition) w.I32(3, static_cast<int32_t>(*e.repetition));
    w.Binary(4, e.name);
    if (e.num_children > 0) w.I32(5, e.num_children);
    if (e.converted_type != ConvertedType::kNone) w.I32(6, static_cast<int32_t>(e.converted_type));
    if (e.converted_type == ConvertedType::kDecimal) {
      w.I32(7, e.scale);
      w.I32(8, e.precision);
    }
    if (e.field_id) w.I32(9, *e.field_id);
    if (e.logical_type.kind != LogicalType::Kind::kNone) WriteLogicalType(w, e.logical_type);
    w.EndStruct();
  }
  w.I64(3, m.num_rows);
  w.ListHeader(4, Type::kStruct, m.row_groups.size());
  for (const RowGroup& g : m.row_groups) {
    w.BeginStruct();
    w.ListHeader(1, Type::kStruct, g.columns.size());
    for (const ColumnChunk& c : g.columns) {
      w.BeginStruct();
      if (!c.file_path.empty()) w.Binary(1, c.file_path);
      w.I64(2, c.file_offset);
      if (c.meta_data) {
        const ColumnMetaData& cm = *c.meta_data;
        w.StructField(3);
        w.I32(1, static_cast<int32_t>(cm.type));
        w.ListHeader(2, Type::kI32, cm.encodings.size());
        for (Encoding e : cm.encodings) w.I32Value(static_cast<int32_t>(e));
        w.ListHeader(3, Type::kBinary, cm.path_in_schema.size());
        for (const auto& p : cm.path_in_schema) w.BinaryValue(p);
        w.I32(4, static_cast<int32_t>(cm.codec));
        w.I64(5, cm.num_values);
        w.I64(6, cm.total_uncompressed_size);
        w.I64(7, cm.total_compressed_size);
        if (!cm.key_value_metadata.empty()) WriteKeyValues(w, 8, cm.key_value_metadata);
        w.I64(9, cm.data_page_offset);
        if (cm.index_page_offset) w.I64(10, *cm.index_page_offset);
        if (cm.dictionary_page_offset) w.I64(11, *cm.dictionary_page_offset);
        if (cm.statistics) WriteStatistics(w, 12, *cm.statistics);
        if (!cm.encoding_stats.empty()) {
          w.ListHeader(13, Type::kStruct, cm.encoding_stats.size());
          for (const auto& s : cm.encoding_stats) {
            w.BeginStruct();
            w.I32(1, static_cast<int32_t>(s.page_type));
            w.I32(2, static_cast<int32_t>(s.encoding));
            w.I32(3, s.count);
            w.EndStruct();
          }
        }
        if (cm.bloom_filter_offset) w.I64(14, *cm.bloom_filter_offset);
        if (cm.bloom_filter_length) w.I32(15, *cm.bloom_filter_length);
        w.EndStruct();
      }
      if (c.offset_index_offset) w.I64(4, *c.offset_index_offset);
      if (c.offset_index_length) w.I32(5, *c.offset_index_length);
      if (c.column_index_offset) w.I64(6, *c.column_index_offset);
      if (c.column_index_length) w.I32(7, *c.column_index_length);
      w.EndStruct();
    }
    w.I64(2, g.total_byte_size);
    w.I64(3, g.num_rows);
    if (g.file_offset) w.I64(5, *g.file_offset);
    if (g.total_compressed_size) w.I64(6, *g.total_compressed_size);
    if (g.ordinal) w.I16(7, *g.ordinal);
    w.EndStruct();
  }
  if (!m.key_value_metadata.empty()) WriteKeyValues(w, 5, m.key_value_metadata);
  if (!m.created_by.empty()) w.Binary(6, m.created_by);
  if (m.column_orders > 0) {
    w.ListHeader(7, Type::kStruct, static_cast<size_t>(m.column_orders));
    for (int i = 0; i < m.column_orders; ++i) {
      w.BeginStruct();
      WriteEmpty(w, 1);  // TYPE_ORDER
      w.EndStruct();
    }
  }
  w.EndStruct();
}

void EncodePageHeader(const PageHeader& p, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.I32(1, static_cast<int32_t>(p.type));
  w.I32(2, p.uncompressed_page_size);
  w.I32(3, p.compressed_page_size);
  if (p.crc) w.I32(4, *p.crc);
  if (p.data_page_header) {
    const auto& d = *p.data_page_header;
    w.StructField(5);
    w.I32(1, d.num_values);
    w.I32(2, static_cast<int32_t>(d.encoding));
    w.I32(3, static_cast<int32_t>(d.definition_level_encoding));
    w.I32(4, static_cast<int32_t>(d.repetition_level_encoding));
    if (d.statistics) WriteStatistics(w, 5, *d.statistics);
    w.EndStruct();
  }
  if (p.dictionary_page_header) {
    const auto& d = *p.dictionary_page_header;
    w.StructField(7);
    w.I32(1, d.num_values);
    w.I32(2, static_cast<int32_t>(d.encoding));
    if (d.is_sorted) w.Bool(3, true);
    w.EndStruct();
  }
  if (p.data_page_header_v2) {
    const auto& d = *p.data_page_header_v2;
    w.StructField(8);
    w.I32(1, d.num_values);
    w.I32(2, d.num_nulls);
    w.I32(3, d.num_rows);
    w.I32(4, static_cast<int32_t>(d.encoding));
    w.I32(5, d.definition_levels_byte_length);
    w.I32(6, d.repetition_levels_byte_length);
    w.Bool(7, d.is_compressed);
    if (d.statistics) WriteStatistics(w, 8, *d.statistics);
    w.EndStruct();
  }
  w.EndStruct();
}

void EncodeColumnIndex(const ColumnIndex& c, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.ListHeader(1, Type::kBoolTrue, c.null_pages.size());
  for (bool b : c.null_pages) w.BoolValue(b);
  w.ListHeader(2, Type::kBinary, c.min_values.size());
  for (const auto& v : c.min_values) w.BinaryValue(v);
  w.ListHeader(3, Type::kBinary, c.max_values.size());
  for (const auto& v : c.max_values) w.BinaryValue(v);
  w.I32(4, static_cast<int32_t>(c.boundary_order));
  if (!c.null_counts.empty()) {
    w.ListHeader(5, Type::kI64, c.null_counts.size());
    for (int64_t v : c.null_counts) w.I64Value(v);
  }
  w.EndStruct();
}

void EncodeOffsetIndex(const OffsetIndex& o, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.ListHeader(1, Type::kStruct, o.page_locations.size());
  for (const auto& loc : o.page_locations) {
    w.BeginStruct();
    w.I64(1, loc.offset);
    w.I32(2, loc.compressed_page_size);
    w.I64(3, loc.first_row_index);
    w.EndStruct();
  }
  w.EndStruct();
}

void EncodeBloomFilterHeader(const BloomFilterHeader& b, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.I32(1, b.num_bytes);
  w.StructField(2);  // algorithm: BLOCK
  WriteEmpty(w, 1);
  w.EndStruct();
  w.StructField(3);  // hash: XXHASH
  WriteEmpty(w, 1);
  w.EndStruct();
  w.StructField(4);  // compression: UNCOMPRESSED
  WriteEmpty(w, 1);
  w.EndStruct();
  w.EndStruct();
}

std::string_view PhysicalTypeName(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kInt96: return "INT96";
    case PhysicalType::kFloat: return "FLOAT";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

std::string_view EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kBitPacked: return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

std::string_view CodecName(Codec c) {
  switch (c) {
    case Codec::kUncompressed: return "UNCOMPRESSED";
    case Codec::kSnappy: return "SNAPPY";
    case Codec::kGzip: return "GZIP";
    case Codec::kLzo: return "LZO";
    case Codec::kBrotli: return "BROTLI";
    case Codec::kLz4: return "LZ4";
    case Codec::kZstd: return "ZSTD";
    case Codec::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

}  // namespace floe::parquet
