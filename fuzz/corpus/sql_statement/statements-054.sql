DESCRIBE sales.orders
