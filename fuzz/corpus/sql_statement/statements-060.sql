SELECT * FROM "sales"."orders$nope"
