ALTER TABLE sales.orders EXECUTE vacuum
