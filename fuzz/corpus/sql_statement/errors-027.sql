SELECT 1 FROM (VALUES (1)) AS t(x) WHERE count(*) > 1
