SELECT true + 1
