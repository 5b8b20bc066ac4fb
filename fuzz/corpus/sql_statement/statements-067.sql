CREATE TABLE sales.t (a bigint, a varchar)
