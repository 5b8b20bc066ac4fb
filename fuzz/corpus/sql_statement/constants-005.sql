SELECT date_trunc('hour', TIMESTAMP '2024-03-01 10:42:17.5'), extract(year FROM DATE '2024-03-01'), extract(dow FROM DATE '2024-03-03')
