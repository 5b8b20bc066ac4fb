SELECT row_number()
