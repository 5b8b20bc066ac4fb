CREATE TABLE sales.events (id bigint) PARTITIONED BY (day(nope))
