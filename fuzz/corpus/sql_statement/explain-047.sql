EXPLAIN SELECT snapshot_id, operation FROM "sales"."orders$snapshots" ORDER BY committed_at DESC
