SELECT x, y FROM (VALUES (1, 'a'), (2, 'b')) AS t(x, y) LIMIT 1 OFFSET 1
