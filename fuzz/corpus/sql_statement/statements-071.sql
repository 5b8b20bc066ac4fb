ALTER TABLE sales.orders ADD COLUMN note varchar
