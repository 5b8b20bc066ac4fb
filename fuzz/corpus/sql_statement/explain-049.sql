EXPLAIN SELECT region FROM sales.orders WHERE false
