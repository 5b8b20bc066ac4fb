INSERT INTO sales.orders (order_id, region) VALUES (1, 'eu'), (2, 'us')
