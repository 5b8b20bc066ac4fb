EXPLAIN SELECT partition, record_count FROM "sales"."orders$partitions"
