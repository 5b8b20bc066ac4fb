SELECT DATE '2024-01-02' > 'yesterday'
