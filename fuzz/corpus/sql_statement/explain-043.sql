EXPLAIN SELECT name, (SELECT max(amount) FROM sales.orders o WHERE o.customer_id = c.customer_id) FROM sales.customers c
