SELECT 0.1 + 0.2, 1.50 * 2, CAST('12.345' AS decimal(5,2)), typeof(0.1 + 0.2)
