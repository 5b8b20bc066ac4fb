SELECT date_trunc('minute', ts) AS minute, type, count(*) FROM shop.orders WHERE ts >= now() - INTERVAL '1' HOUR GROUP BY 1, 2 ORDER BY 1;
SELECT region, sum(amount) FILTER (WHERE type = 'paid') AS revenue, approx_distinct(customer_id) FROM floe.shop.orders GROUP BY region HAVING count(*) > 10 ORDER BY revenue DESC LIMIT 5;
WITH f AS (SELECT order_id, max(CASE WHEN type = 'paid' THEN 1 ELSE 0 END) AS paid FROM orders GROUP BY order_id) SELECT sum(paid) FROM f;
SELECT * FROM "orders$snapshots" FOR VERSION AS OF 1 LIMIT 1;
SELECT customer_id, rank() OVER (PARTITION BY region ORDER BY amount DESC) FROM orders WHERE coupon IS NOT NULL AND items BETWEEN 1 AND ? AND try_cast(currency AS integer) IS NULL;
SELECT count(*) FROM orders o WHERE EXISTS (SELECT 1 FROM orders p WHERE p.order_id = o.order_id AND p.type IN ('shipped', 'cancelled')) UNION ALL SELECT 0;
