SELECT order_id, count(*) FROM sales.orders GROUP BY region
