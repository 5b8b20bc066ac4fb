EXPLAIN ANALYZE SELECT count(*) FROM sales.orders
