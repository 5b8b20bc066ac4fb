SELECT NULL IS NULL, 1 IN (2, NULL), 1 IN (1, NULL), coalesce(NULL, 2), nullif(3, 3)
