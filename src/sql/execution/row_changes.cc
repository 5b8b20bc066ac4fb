#include "sql/execution/row_changes.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace floe::sql {
namespace {

using Action = ast::MergeClause::Action;

// The chunk of a storage batch holding every table column in the executor's form.
Result<DataChunk> ChunkOf(const formats::ColumnBatch& batch, const std::vector<SqlType>& types) {
  if (batch.columns.size() != types.size()) {
    return Conflict("the table has {} columns now, the statement saw {}; run it again", batch.columns.size(),
                    types.size());
  }
  DataChunk chunk;
  chunk.rows = batch.num_rows;
  for (size_t c = 0; c < types.size(); ++c) {
    FLOE_ASSIGN_OR_RETURN(VectorPtr v, FromStorage(formats::ColumnVector(batch.columns[c]), types[c]));
    chunk.columns.push_back(std::move(v));
  }
  return chunk;
}

std::vector<OutputColumn> Concat(const std::vector<OutputColumn>& a, const std::vector<OutputColumn>& b) {
  std::vector<OutputColumn> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

Result<std::vector<ExprNodePtr>> CompileAll(const std::vector<BoundExprPtr>& exprs, const ColumnLayout& layout) {
  std::vector<ExprNodePtr> out;
  for (const BoundExprPtr& e : exprs) {
    FLOE_ASSIGN_OR_RETURN(ExprNodePtr node, CompileExpression(*e, layout));
    out.push_back(std::move(node));
  }
  return out;
}

// Whether every column `e` reads is in `ids` (and it reads one at least).
bool ReadsOnly(const BoundExpr& e, const std::set<ColumnId>& ids) {
  std::set<ColumnId> read = e.ColumnsRead();
  if (read.empty()) return false;
  for (ColumnId id : read) {
    if (!ids.contains(id)) return false;
  }
  return true;
}

}  // namespace

Result<formats::ColumnBatch> StoredRows(const std::vector<ExprNodePtr>& values, const DataChunk& chunk,
                                        const CatalogTable& table, QueryContext& context) {
  formats::ColumnBatch batch;
  batch.num_rows = chunk.rows;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const TableColumn& column = table.columns[c];
    FLOE_ASSIGN_OR_RETURN(VectorPtr v, values[c]->Evaluate(chunk, context));
    if (!column.nullable && v->NullCount() > 0) {
      return InvalidArgument("NULL value not allowed for NOT NULL column: {}", column.name);
    }
    FLOE_ASSIGN_OR_RETURN(formats::ColumnVector stored, ToStorage(*v, column.type));
    batch.columns.push_back(std::move(stored));
  }
  return batch;
}

// ---------------------------------------------------------------- UPDATE

Result<std::unique_ptr<UpdateRows>> UpdateRows::Make(const BoundRowChanges& changes, const BoundExpr* where,
                                                     const CatalogTable& table, QueryContext& context) {
  std::unique_ptr<UpdateRows> out(new UpdateRows(table, context));
  ColumnLayout layout = ColumnLayout::Of(changes.target_columns, nullptr);
  for (const OutputColumn& c : changes.target_columns) out->types_.push_back(c.type);
  if (where != nullptr) {
    FLOE_ASSIGN_OR_RETURN(out->where_, CompileExpression(*where, layout));
  }
  FLOE_ASSIGN_OR_RETURN(out->values_, CompileAll(changes.values, layout));
  return out;
}

Result<SqlCatalog::RowChanges> UpdateRows::Rewrite(const formats::ColumnBatch& batch) {
  FLOE_ASSIGN_OR_RETURN(DataChunk chunk, ChunkOf(batch, types_));
  SqlCatalog::RowChanges changes;
  changes.remove.assign(static_cast<size_t>(batch.num_rows), 0);
  std::vector<uint32_t> rows;
  if (where_) {
    FLOE_ASSIGN_OR_RETURN(rows, SelectTrueRows(*where_, chunk, context_));
  } else {
    for (int64_t r = 0; r < chunk.rows; ++r) rows.push_back(static_cast<uint32_t>(r));
  }
  if (rows.empty()) return changes;
  for (uint32_t r : rows) changes.remove[r] = 1;
  DataChunk updated = GatherChunk(chunk, rows);
  FLOE_ASSIGN_OR_RETURN(formats::ColumnBatch written, StoredRows(values_, updated, table_, context_));
  changes.added.push_back(std::move(written));
  updated_ += static_cast<int64_t>(rows.size());
  return changes;
}

// ---------------------------------------------------------------- MERGE

Result<std::unique_ptr<MergeRows>> MergeRows::Make(const BoundRowChanges& changes, DataChunk source,
                                                   const CatalogTable& table, QueryContext& context) {
  std::unique_ptr<MergeRows> out(new MergeRows(table, context));
  out->source_ = std::move(source);
  out->source_matched_.assign(static_cast<size_t>(out->source_.rows), 0);
  for (const OutputColumn& c : changes.target_columns) out->target_types_.push_back(c.type);
  ColumnLayout both = ColumnLayout::Of(Concat(changes.target_columns, changes.source_columns), nullptr);
  FLOE_ASSIGN_OR_RETURN(out->on_, CompileExpression(*changes.on, both));
  for (const BoundRowChanges::Clause& c : changes.clauses) {
    Clause clause;
    clause.matched = c.matched;
    clause.action = c.action;
    if (c.condition) {
      FLOE_ASSIGN_OR_RETURN(clause.condition, CompileExpression(*c.condition, both));
    }
    FLOE_ASSIGN_OR_RETURN(clause.values, CompileAll(c.values, both));
    out->clauses_.push_back(std::move(clause));
  }

  // The equalities ON implies between one side's expression and the other's pair rows through
  // a hash table; ON itself still decides each pair, so they only narrow the candidates.
  std::set<ColumnId> target_ids, source_ids;
  for (const OutputColumn& c : changes.target_columns) target_ids.insert(c.id);
  for (const OutputColumn& c : changes.source_columns) source_ids.insert(c.id);
  std::vector<BoundExprPtr> terms;
  SplitConjunction(changes.on->Clone(), terms);
  std::vector<BoundExprPtr> source_key_exprs;
  ColumnLayout target_layout = ColumnLayout::Of(changes.target_columns, nullptr);
  ColumnLayout source_layout = ColumnLayout::Of(changes.source_columns, nullptr);
  for (BoundExprPtr& term : terms) {
    if (term->kind != BoundKind::kCall || term->As<BoundCall>().name != "eq" || term->args.size() != 2) continue;
    if (!(term->args[0]->type == term->args[1]->type)) continue;
    for (int side = 0; side < 2; ++side) {
      const BoundExpr& t = *term->args[static_cast<size_t>(side)];
      const BoundExpr& s = *term->args[static_cast<size_t>(1 - side)];
      if (!ReadsOnly(t, target_ids) || !ReadsOnly(s, source_ids)) continue;
      FLOE_ASSIGN_OR_RETURN(ExprNodePtr tk, CompileExpression(t, target_layout));
      FLOE_ASSIGN_OR_RETURN(ExprNodePtr sk, CompileExpression(s, source_layout));
      out->target_keys_.push_back(std::move(tk));
      out->source_keys_.push_back(std::move(sk));
      break;
    }
  }
  if (!out->source_keys_.empty() && out->source_.rows > 0) {
    FLOE_ASSIGN_OR_RETURN(EvaluatedKeys keys, EvaluateKeys(out->source_keys_, out->source_, context));
    KeyEncoder encoder;
    encoder.Encode(keys.columns, out->source_.rows);
    for (int64_t r = 0; r < out->source_.rows; ++r) {
      if (encoder.has_null(r)) continue;  // NULL = anything is never true.
      bool inserted = false;
      uint32_t id = out->source_key_table_.FindOrInsert(encoder.key(r), encoder.hash(r), inserted);
      if (inserted) out->source_rows_by_key_.emplace_back();
      out->source_rows_by_key_[id].push_back(static_cast<uint32_t>(r));
    }
  }
  return out;
}

DataChunk MergeRows::PairChunk(const DataChunk& target, const std::vector<uint32_t>& target_rows,
                               const std::vector<uint32_t>& source_rows) const {
  DataChunk pairs;
  pairs.rows = static_cast<int64_t>(source_rows.size());
  if (target_rows.empty()) {  // Source rows alone: the target's columns are null.
    for (const SqlType& type : target_types_) pairs.columns.push_back(ConstantVector(Value::Null(type), pairs.rows));
  } else {
    for (const VectorPtr& c : target.columns) pairs.columns.push_back(Gather(*c, target_rows.data(), pairs.rows));
  }
  for (const VectorPtr& c : source_.columns) pairs.columns.push_back(Gather(*c, source_rows.data(), pairs.rows));
  return pairs;
}

Status MergeRows::MatchPairs(const DataChunk& target, std::vector<uint32_t>& target_rows,
                             std::vector<uint32_t>& source_rows) {
  std::vector<uint32_t> candidate_target, candidate_source;
  auto flush = [&]() -> Status {
    if (candidate_target.empty()) return OkStatus();
    DataChunk pairs = PairChunk(target, candidate_target, candidate_source);
    FLOE_ASSIGN_OR_RETURN(std::vector<uint32_t> hits, SelectTrueRows(*on_, pairs, context_));
    for (uint32_t h : hits) {
      target_rows.push_back(candidate_target[h]);
      source_rows.push_back(candidate_source[h]);
    }
    candidate_target.clear();
    candidate_source.clear();
    return OkStatus();
  };
  if (!target_keys_.empty()) {
    FLOE_ASSIGN_OR_RETURN(EvaluatedKeys keys, EvaluateKeys(target_keys_, target, context_));
    KeyEncoder encoder;
    encoder.Encode(keys.columns, target.rows);
    for (int64_t r = 0; r < target.rows; ++r) {
      if (encoder.has_null(r)) continue;
      int64_t id = source_key_table_.Find(encoder.key(r), encoder.hash(r));
      if (id < 0) continue;
      for (uint32_t s : source_rows_by_key_[static_cast<size_t>(id)]) {
        candidate_target.push_back(static_cast<uint32_t>(r));
        candidate_source.push_back(s);
      }
      if (candidate_target.size() >= static_cast<size_t>(kChunkRows)) FLOE_RETURN_IF_ERROR(flush());
    }
  } else {
    // No equality to hash on: every pair is a candidate, a chunk of pairs at a time.
    for (int64_t r = 0; r < target.rows; ++r) {
      FLOE_RETURN_IF_ERROR(context_.CheckInterrupt());
      for (int64_t s = 0; s < source_.rows; ++s) {
        candidate_target.push_back(static_cast<uint32_t>(r));
        candidate_source.push_back(static_cast<uint32_t>(s));
        if (candidate_target.size() >= static_cast<size_t>(kChunkRows)) FLOE_RETURN_IF_ERROR(flush());
      }
    }
  }
  return flush();
}

Result<std::vector<int>> MergeRows::ChooseClauses(const DataChunk& pairs, bool matched,
                                                  std::vector<formats::ColumnBatch>& written) {
  std::vector<int> chosen(static_cast<size_t>(pairs.rows), -1);
  int64_t open = pairs.rows;  // Rows no clause took yet.
  for (size_t i = 0; i < clauses_.size() && open > 0; ++i) {
    const Clause& clause = clauses_[i];
    if (clause.matched != matched) continue;
    std::vector<uint8_t> holds(static_cast<size_t>(pairs.rows), 1);
    if (clause.condition) {
      std::fill(holds.begin(), holds.end(), 0);
      FLOE_ASSIGN_OR_RETURN(std::vector<uint32_t> rows, SelectTrueRows(*clause.condition, pairs, context_));
      for (uint32_t r : rows) holds[r] = 1;
    }
    std::vector<uint32_t> taken;
    for (size_t r = 0; r < holds.size(); ++r) {
      if (holds[r] && chosen[r] < 0) {
        chosen[r] = static_cast<int>(i);
        taken.push_back(static_cast<uint32_t>(r));
      }
    }
    open -= static_cast<int64_t>(taken.size());
    if (taken.empty()) continue;
    if (clause.action == Action::kUpdate || clause.action == Action::kInsert) {
      DataChunk rows = GatherChunk(pairs, taken);
      FLOE_ASSIGN_OR_RETURN(formats::ColumnBatch batch, StoredRows(clause.values, rows, table_, context_));
      written.push_back(std::move(batch));
    }
    if (clause.action != Action::kNothing) changed_ += static_cast<int64_t>(taken.size());
  }
  return chosen;
}

Result<SqlCatalog::RowChanges> MergeRows::Rewrite(const formats::ColumnBatch& batch) {
  FLOE_ASSIGN_OR_RETURN(DataChunk target, ChunkOf(batch, target_types_));
  SqlCatalog::RowChanges changes;
  changes.remove.assign(static_cast<size_t>(batch.num_rows), 0);
  std::vector<uint32_t> target_rows, source_rows;
  FLOE_RETURN_IF_ERROR(MatchPairs(target, target_rows, source_rows));
  if (target_rows.empty()) return changes;
  for (uint32_t s : source_rows) source_matched_[s] = 1;
  DataChunk pairs = PairChunk(target, target_rows, source_rows);
  FLOE_ASSIGN_OR_RETURN(std::vector<int> chosen, ChooseClauses(pairs, /*matched=*/true, changes.added));
  // A row may match several source rows as long as none of them changes it (as PostgreSQL
  // allows); changing it once per match would leave its value to the order of the matches.
  std::vector<uint8_t> matches(static_cast<size_t>(batch.num_rows), 0);
  for (uint32_t t : target_rows) matches[t] = static_cast<uint8_t>(std::min(2, matches[t] + 1));
  for (size_t p = 0; p < chosen.size(); ++p) {
    if (chosen[p] < 0 || clauses_[static_cast<size_t>(chosen[p])].action == Action::kNothing) continue;
    if (matches[target_rows[p]] > 1) {
      return CodedError(ErrorCode::kMergeTargetRowMultipleMatches,
                        "One MERGE target table row matched more than one source row");
    }
    changes.remove[target_rows[p]] = 1;
  }
  return changes;
}

Result<std::vector<formats::ColumnBatch>> MergeRows::InsertUnmatched() {
  std::vector<formats::ColumnBatch> written;
  std::vector<uint32_t> unmatched;
  for (size_t s = 0; s < source_matched_.size(); ++s) {
    if (!source_matched_[s]) unmatched.push_back(static_cast<uint32_t>(s));
  }
  for (size_t begin = 0; begin < unmatched.size(); begin += static_cast<size_t>(kChunkRows)) {
    size_t end = std::min(unmatched.size(), begin + static_cast<size_t>(kChunkRows));
    std::vector<uint32_t> rows(unmatched.begin() + static_cast<std::ptrdiff_t>(begin),
                               unmatched.begin() + static_cast<std::ptrdiff_t>(end));
    DataChunk pairs = PairChunk(DataChunk{}, {}, rows);
    FLOE_ASSIGN_OR_RETURN(std::vector<int> chosen, ChooseClauses(pairs, /*matched=*/false, written));
    (void)chosen;  // Inserts are all the not-matched clauses do.
  }
  return written;
}

}  // namespace floe::sql
