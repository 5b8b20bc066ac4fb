CREATE TABLE sales.events (id bigint, ts timestamp with time zone, kind varchar) PARTITIONED BY (day(ts), bucket(16, id))
