SELECT x FROM (VALUES (1), (2), (3)) AS t(x) WHERE x >= 2
