CREATE TABLE sales.orders (x bigint)
