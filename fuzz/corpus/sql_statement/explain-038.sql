EXPLAIN SELECT o.order_id FROM sales.orders o, sales.customers c WHERE o.customer_id = c.customer_id AND 1 = 1
