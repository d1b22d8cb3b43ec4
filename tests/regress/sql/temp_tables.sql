-- Temporary tables and sequences: shadowing, pg_temp, indexes, serial,
-- rollback, errors
CREATE TABLE perm (a int);
INSERT INTO perm VALUES (1);
CREATE TEMP TABLE perm (a int);
INSERT INTO perm VALUES (2);
SELECT * FROM perm;
SELECT * FROM public.perm;
SELECT * FROM pg_temp.perm;
CREATE TEMPORARY TABLE tt (id serial PRIMARY KEY, v text);
INSERT INTO tt (v) VALUES ('a'), ('b'), ('c');
SELECT * FROM tt ORDER BY id;
CREATE INDEX tt_v ON tt (v);
SELECT id FROM tt WHERE v = 'b';
DROP INDEX tt_v;
UPDATE tt SET v = upper(v) WHERE id > 1;
DELETE FROM tt WHERE id = 1;
SELECT * FROM tt ORDER BY id;
SELECT count(*) FROM pg_temp.tt;
CREATE TABLE pg_temp.t3 (x int);
SELECT n.nspname LIKE 'pg_temp_%' AS in_temp FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 't3';
SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'perm' ORDER BY 1 DESC LIMIT 1;
CREATE TABLE x (a int) ON COMMIT PRESERVE ROWS;
CREATE TEMP TABLE public.y (a int);
CREATE TEMP TABLE z (a int) ON COMMIT PRESERVE ROWS;
INSERT INTO z VALUES (7);
SELECT * FROM z;
CREATE TEMP SEQUENCE ts;
SELECT nextval('ts'), nextval('ts');
BEGIN;
CREATE TEMP TABLE rb (a int);
INSERT INTO rb VALUES (1);
ROLLBACK;
SELECT * FROM rb;
COPY tt FROM stdin;
10	x
11	y
\.
SELECT * FROM tt ORDER BY id;
SELECT 'tt'::regclass;
DROP TABLE perm;
SELECT * FROM perm;
DROP TABLE perm;
DROP TABLE tt, t3, z;
DROP SEQUENCE ts;
