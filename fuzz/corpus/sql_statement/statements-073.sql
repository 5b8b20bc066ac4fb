ALTER TABLE sales.orders EXECUTE optimize(file_size_threshold => '128MB') WHERE region = 'eu'
