SELECT 'a' + 1
