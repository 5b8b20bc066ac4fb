EXPLAIN SELECT region, count(*) AS n FROM sales.orders WHERE ts >= TIMESTAMP '2024-01-01 00:00:00 UTC' AND region IN ('eu', 'us') AND amount > 10 GROUP BY region ORDER BY n DESC LIMIT 5
