INSERT INTO sales.orders (order_id) VALUES ('x', 1)
