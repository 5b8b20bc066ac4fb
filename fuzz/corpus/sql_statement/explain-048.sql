EXPLAIN SELECT o.region, c.country FROM sales.orders o LEFT JOIN sales.customers c ON o.customer_id = c.customer_id AND c.country = 'NL' WHERE o.region = 'eu'
