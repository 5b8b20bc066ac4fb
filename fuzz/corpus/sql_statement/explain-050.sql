EXPLAIN SELECT DISTINCT region FROM sales.orders ORDER BY region
