SELECT x FROM (VALUES ('a')) AS t(x) WHERE x + 1 > 0
