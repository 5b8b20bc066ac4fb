SELECT 'abc' LIKE 'a%', 'abc' LIKE '_b_', 'ABC' ILIKE 'a%', 'a%c' LIKE 'a\%c' ESCAPE '\'
