SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns WHERE table_name = 'orders' AND ordinal_position <= 2
