EXPLAIN SELECT count(DISTINCT customer_id), approx_distinct(customer_id), approx_percentile(amount, 0.95), count(*) FILTER (WHERE event_type = 'refund') FROM sales.orders
