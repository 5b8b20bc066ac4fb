SELECT try_cast('x' AS integer), CAST('42' AS bigint), 5 BETWEEN 1 AND 10
