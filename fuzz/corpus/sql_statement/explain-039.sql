EXPLAIN SELECT * FROM (SELECT region, sum(amount) AS total FROM sales.orders GROUP BY region) t WHERE region = 'eu' AND total > 100
