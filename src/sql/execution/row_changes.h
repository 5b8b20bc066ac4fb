// UPDATE and MERGE as storage runs them: the RowRewriter (and, for MERGE, the RowAppender) a
// SqlCatalog::RewriteRows calls with batches of the target table, one file at a time. Both
// compute on executor vectors with the statement's bound expressions (BoundRowChanges) and
// hand back rows in the table's storage form. Used by one thread (the caller of RewriteRows).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/result.h"
#include "sql/binder/binder.h"
#include "sql/catalog/catalog.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/key_table.h"
#include "sql/execution/query_context.h"

namespace floe::sql {

// The rows of a batch the WHERE is true for, replaced by their SET values.
class UpdateRows {
 public:
  // `where` may be null (every row); `changes.values` hold one value per table column.
  static Result<std::unique_ptr<UpdateRows>> Make(const BoundRowChanges& changes, const BoundExpr* where,
                                                  const CatalogTable& table, QueryContext& context);
  Result<SqlCatalog::RowChanges> Rewrite(const formats::ColumnBatch& batch);
  int64_t rows_updated() const { return updated_; }

 private:
  UpdateRows(const CatalogTable& table, QueryContext& context) : table_(table), context_(context) {}

  const CatalogTable& table_;
  QueryContext& context_;
  std::vector<SqlType> types_;  // Of the target's columns.
  ExprNodePtr where_;
  std::vector<ExprNodePtr> values_;
  int64_t updated_ = 0;
};

// MERGE INTO target USING source ON ...: each target row is paired with the source rows the ON
// condition is true for (through a hash table on the equalities between a target and a source
// expression that ON implies, else against every source row); the first WHEN MATCHED clause
// whose condition holds updates or deletes it. After every target row was seen, the source rows
// no target row matched go through the WHEN NOT MATCHED clauses and may be inserted. A target
// row that two source rows match is an error when a clause would change it (Trino and
// PostgreSQL refuse it; DuckDB applies both changes in some order), and nothing is committed.
class MergeRows {
 public:
  // `source` is the USING relation's rows, materialized.
  static Result<std::unique_ptr<MergeRows>> Make(const BoundRowChanges& changes, DataChunk source,
                                                 const CatalogTable& table, QueryContext& context);
  Result<SqlCatalog::RowChanges> Rewrite(const formats::ColumnBatch& batch);
  Result<std::vector<formats::ColumnBatch>> InsertUnmatched();
  // Rows updated, deleted and inserted.
  int64_t rows_changed() const { return changed_; }

 private:
  struct Clause {
    bool matched = true;
    ast::MergeClause::Action action = ast::MergeClause::Action::kNothing;
    ExprNodePtr condition;
    std::vector<ExprNodePtr> values;
  };

  MergeRows(const CatalogTable& table, QueryContext& context) : table_(table), context_(context) {}
  // Pairs of (target row, source row) the ON condition is true for.
  Status MatchPairs(const DataChunk& target, std::vector<uint32_t>& target_rows, std::vector<uint32_t>& source_rows);
  // The chunk of target and source columns for the given pairs (a target row of -1 is null).
  DataChunk PairChunk(const DataChunk& target, const std::vector<uint32_t>& target_rows,
                      const std::vector<uint32_t>& source_rows) const;
  // Runs `clauses` of one kind (matched or not) over `pairs`: which clause each row takes
  // (-1: none), and the rows the update and insert clauses write.
  Result<std::vector<int>> ChooseClauses(const DataChunk& pairs, bool matched,
                                         std::vector<formats::ColumnBatch>& written);

  const CatalogTable& table_;
  QueryContext& context_;
  DataChunk source_;
  std::vector<SqlType> target_types_;
  ExprNodePtr on_;
  // Equalities of ON between a target-only and a source-only expression.
  std::vector<ExprNodePtr> target_keys_;
  std::vector<ExprNodePtr> source_keys_;
  KeyTable source_key_table_;
  std::vector<std::vector<uint32_t>> source_rows_by_key_;
  std::vector<Clause> clauses_;
  std::vector<uint8_t> source_matched_;
  int64_t changed_ = 0;
};

// Rows computed by `values` (one per table column) over `chunk`, in the table's storage form;
// a NULL for a NOT NULL column is an error.
Result<formats::ColumnBatch> StoredRows(const std::vector<ExprNodePtr>& values, const DataChunk& chunk,
                                        const CatalogTable& table, QueryContext& context);

}  // namespace floe::sql
