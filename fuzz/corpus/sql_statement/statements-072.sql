ALTER TABLE sales.orders ADD COLUMN region varchar
