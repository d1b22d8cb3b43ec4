-- CHECK constraints: column and table forms, default names, enforcement on
-- INSERT / UPDATE / COPY, ALTER TABLE ADD / DROP CONSTRAINT, catalog and \d.
CREATE TABLE products (
  id int PRIMARY KEY,
  price int CHECK (price > 0),
  discount int CONSTRAINT positive_discount CHECK (discount >= 0),
  qty int,
  CHECK (price > discount),
  CHECK (qty >= 0 AND qty < 1000)
);
\d products
SELECT conname, contype, conkey, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true)
  FROM pg_constraint WHERE conrelid = 'products'::regclass ORDER BY conname;
SELECT relchecks FROM pg_class WHERE relname = 'products';
INSERT INTO products VALUES (1, 10, 1, 5);
INSERT INTO products VALUES (2, -1, 0, 5);
INSERT INTO products VALUES (3, 10, -1, 5);
INSERT INTO products VALUES (4, 5, 6, 5);
INSERT INTO products VALUES (5, 5, 1, 1000);
-- NULL passes a CHECK
INSERT INTO products VALUES (6, NULL, NULL, NULL);
UPDATE products SET price = 0 WHERE id = 1;
UPDATE products SET qty = qty + 1 RETURNING *;
INSERT INTO products SELECT 7, 3, 4, 1;
-- (terse: Hearth's CONTEXT line does not quote the input line)
\set VERBOSITY terse
COPY products FROM stdin;
8	9	1	2
9	9	10	2
\.
\set VERBOSITY default
SELECT * FROM products ORDER BY id;
-- two unnamed table checks on other columns: t_check, t_check1
CREATE TABLE pairs (a int, b int, CHECK (a < b), CHECK (a + b < 100), CHECK (b > 0));
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
  WHERE conrelid = 'pairs'::regclass ORDER BY conname;
INSERT INTO pairs VALUES (60, 70);
-- ALTER TABLE ADD CONSTRAINT validates existing rows
INSERT INTO pairs VALUES (1, 2), (5, 9);
ALTER TABLE pairs ADD CONSTRAINT small_a CHECK (a < 3);
ALTER TABLE pairs ADD CONSTRAINT small_a CHECK (a < 3) NOT VALID;
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'small_a';
INSERT INTO pairs VALUES (4, 8);
ALTER TABLE pairs ADD CONSTRAINT pairs_b_small CHECK (b < 10);
ALTER TABLE pairs ADD CHECK (a >= 0);
ALTER TABLE pairs ADD CONSTRAINT pairs_b_small CHECK (b < 20);
INSERT INTO pairs VALUES (1, 12);
\d pairs
-- DROP CONSTRAINT
ALTER TABLE pairs DROP CONSTRAINT small_a;
INSERT INTO pairs VALUES (4, 8);
ALTER TABLE pairs DROP CONSTRAINT small_a;
ALTER TABLE pairs DROP CONSTRAINT IF EXISTS small_a;
SELECT conname FROM pg_constraint WHERE conrelid = 'pairs'::regclass ORDER BY conname;
-- a rolled-back ADD leaves nothing
BEGIN;
ALTER TABLE pairs ADD CONSTRAINT gone CHECK (a > -1);
ROLLBACK;
SELECT count(*) FROM pg_constraint WHERE conname = 'gone';
-- bad conditions
CREATE TABLE bad (a int CHECK (a));
CREATE TABLE bad (a int CHECK (b > 0));
CREATE TABLE bad (a int, CONSTRAINT c1 CHECK (a > 0), CONSTRAINT c1 CHECK (a < 9));
-- prepared statements see a constraint added later
CREATE TABLE p_check (a int);
PREPARE ins(int) AS INSERT INTO p_check VALUES ($1);
EXECUTE ins(-5);
ALTER TABLE p_check ADD CONSTRAINT p_check_a_check CHECK (a > 0) NOT VALID;
EXECUTE ins(-5);
EXECUTE ins(5);
DEALLOCATE ins;
-- dropped with the table
DROP TABLE products, pairs, p_check;
SELECT count(*) FROM pg_constraint WHERE contype = 'c' AND conrelid <> 0;
