EXPLAIN SELECT order_id, row_number() OVER (PARTITION BY customer_id ORDER BY ts) AS rn, lag(amount) OVER w FROM sales.orders WINDOW w AS (PARTITION BY customer_id ORDER BY ts)
