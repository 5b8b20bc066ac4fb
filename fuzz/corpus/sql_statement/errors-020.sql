SELECT * FROM missing
