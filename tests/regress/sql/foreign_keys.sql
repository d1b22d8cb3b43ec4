-- FOREIGN KEY constraints: column and table forms, default names, MATCH
-- SIMPLE, ON DELETE / ON UPDATE actions, ALTER TABLE ADD / DROP, DROP TABLE,
-- errors, pg_constraint and psql's \d.
CREATE TABLE parent (id int PRIMARY KEY, code text, note text);
CREATE UNIQUE INDEX parent_code_key ON parent (code);
CREATE TABLE child (
  cid int PRIMARY KEY,
  pid int REFERENCES parent,
  pcode text REFERENCES parent (code) ON DELETE CASCADE ON UPDATE CASCADE
);
\d child
\d parent
SELECT conname, contype, conkey, confkey, confrelid::regclass, conindid::regclass,
       confupdtype, confdeltype, confmatchtype, convalidated, pg_get_constraintdef(oid)
  FROM pg_constraint WHERE conrelid = 'child'::regclass AND contype = 'f' ORDER BY conname;
SELECT relname, relhastriggers FROM pg_class WHERE relname IN ('parent', 'child') ORDER BY 1;
INSERT INTO parent VALUES (1, 'a', 'one'), (2, 'b', 'two'), (3, 'c', 'three');
INSERT INTO child VALUES (10, 1, 'a'), (11, 2, 'b'), (12, NULL, NULL);
INSERT INTO child VALUES (13, 7, 'a');
INSERT INTO child VALUES (14, 1, 'zz');
UPDATE child SET pid = 9 WHERE cid = 10;
INSERT INTO child SELECT 15, 5, NULL;
COPY child FROM stdin;
16	3	c
17	8	\N
\.
SELECT * FROM child ORDER BY cid;
-- NO ACTION (default) on the referenced side
DELETE FROM parent WHERE id = 1;
UPDATE parent SET id = 100 WHERE id = 2;
-- an unreferenced parent row may go
DELETE FROM parent WHERE id = 3;
-- ON UPDATE CASCADE / ON DELETE CASCADE through the code column
UPDATE parent SET code = 'bb' WHERE id = 2;
SELECT * FROM child ORDER BY cid;
UPDATE child SET pid = NULL WHERE cid = 10;
DELETE FROM parent WHERE code = 'a' RETURNING id;
SELECT * FROM child ORDER BY cid;
-- a multi-row statement is checked at its end: self-reference
CREATE TABLE tree (id int PRIMARY KEY, up int REFERENCES tree (id) ON DELETE CASCADE);
INSERT INTO tree VALUES (2, 1), (1, NULL), (3, 2), (4, 2);
INSERT INTO tree VALUES (5, 50);
DELETE FROM tree WHERE id = 2;
SELECT * FROM tree ORDER BY id;
-- multi-column keys, MATCH SIMPLE: a key with a NULL references nothing
CREATE TABLE region (country text, code int, name text, PRIMARY KEY (country, code));
CREATE TABLE office (
  id int,
  country text,
  region int,
  FOREIGN KEY (country, region) REFERENCES region ON DELETE SET NULL
);
INSERT INTO region VALUES ('fr', 1, 'north'), ('fr', 2, 'south');
INSERT INTO office VALUES (1, 'fr', 1), (2, 'fr', 2), (3, 'de', NULL), (4, NULL, 9);
INSERT INTO office VALUES (5, 'de', 1);
DELETE FROM region WHERE code = 1;
SELECT * FROM office ORDER BY id;
\d office
-- RESTRICT and SET DEFAULT
CREATE TABLE color (name text PRIMARY KEY);
INSERT INTO color VALUES ('none'), ('red'), ('blue');
CREATE TABLE paint (
  id int,
  color text DEFAULT 'none' REFERENCES color ON DELETE SET DEFAULT ON UPDATE RESTRICT
);
INSERT INTO paint VALUES (1, 'red'), (2, 'blue');
UPDATE color SET name = 'crimson' WHERE name = 'red';
DELETE FROM color WHERE name = 'red';
SELECT * FROM paint ORDER BY id;
DELETE FROM color WHERE name = 'none';
SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'paint'::regclass;
-- ALTER TABLE ADD FOREIGN KEY checks existing rows (NOT VALID skips)
CREATE TABLE orders (id int, customer int);
CREATE TABLE customer (id int PRIMARY KEY);
INSERT INTO customer VALUES (1);
INSERT INTO orders VALUES (1, 1), (2, 2);
ALTER TABLE orders ADD FOREIGN KEY (customer) REFERENCES customer;
ALTER TABLE orders ADD CONSTRAINT orders_fk FOREIGN KEY (customer) REFERENCES customer NOT VALID;
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'orders_fk';
INSERT INTO orders VALUES (3, 3);
ALTER TABLE orders DROP CONSTRAINT orders_fk;
INSERT INTO orders VALUES (3, 3);
DELETE FROM orders WHERE customer > 1;
ALTER TABLE orders ADD FOREIGN KEY (customer) REFERENCES customer (id);
SELECT conname FROM pg_constraint WHERE conrelid = 'orders'::regclass;
-- definition errors
CREATE TABLE bad (a int REFERENCES nosuch);
CREATE TABLE nokey (a int, b int);
CREATE TABLE bad (a int REFERENCES nokey);
CREATE TABLE bad (a int REFERENCES nokey (a));
CREATE TABLE bad (a int REFERENCES parent (nosuch));
CREATE TABLE bad (a int, FOREIGN KEY (b) REFERENCES parent);
CREATE TABLE bad (a int, b int, FOREIGN KEY (a, b) REFERENCES parent (id));
CREATE TABLE bad (a int REFERENCES parent (code));
CREATE TABLE bad (a int REFERENCES parent (note));
-- TRUNCATE of a referenced table needs its referencing tables too
TRUNCATE customer;
TRUNCATE customer, orders;
-- DROP TABLE of a referenced table
DROP TABLE customer;
DROP TABLE customer CASCADE;
SELECT count(*) FROM pg_constraint WHERE conrelid = 'orders'::regclass;
INSERT INTO orders VALUES (9, 9);
DROP TABLE child, parent;
DROP TABLE tree, region, office, color, paint, orders, nokey;
SELECT count(*) FROM pg_constraint WHERE contype = 'f';
