INSERT INTO sales.orders (nope) VALUES (1)
