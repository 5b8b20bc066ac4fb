EXPLAIN SELECT event_type, date_trunc('minute', ts) AS minute, count(*) FROM sales.orders WHERE ts BETWEEN TIMESTAMP '2024-01-01 00:00:00 UTC' AND TIMESTAMP '2024-01-02 00:00:00 UTC' GROUP BY 1, 2
