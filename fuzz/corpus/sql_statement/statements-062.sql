SELECT count(*) FROM sales.orders
