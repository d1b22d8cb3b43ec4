-- Domains: CREATE DOMAIN with DEFAULT, NOT NULL and named/unnamed CHECKs,
-- checks on INSERT/UPDATE/COPY/casts, domains over domains, ALTER DOMAIN,
-- pg_type/pg_constraint rows, \dD, DROP DOMAIN with dependents.
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE DOMAIN posint AS integer;
CREATE DOMAIN shortname AS varchar(5) NOT NULL DEFAULT 'anon'
  CONSTRAINT no_x CHECK (VALUE NOT LIKE 'x%') CHECK (length(VALUE) > 1);
CREATE DOMAIN bad AS integer NULL NOT NULL;
CREATE DOMAIN bad AS nosuchtype;
CREATE DOMAIN bad AS integer CHECK (nosuchcol > 0);
CREATE DOMAIN bad AS integer CHECK (VALUE + 1);
SELECT 5::posint, '7'::posint + 1 AS plus;
SELECT 0::posint;
SELECT (-3)::posint;
SELECT NULL::posint IS NULL AS null_ok;
SELECT 'xyz'::shortname;
SELECT 'a'::shortname;
SELECT NULL::shortname;
SELECT 'toolongname'::shortname;
SELECT 'abc'::shortname;
-- a domain over a domain
CREATE DOMAIN smallpos AS posint CHECK (VALUE < 100);
SELECT 50::smallpos;
SELECT 500::smallpos;
SELECT 0::smallpos;
-- columns of domains
CREATE TABLE t (id posint PRIMARY KEY, name shortname, s smallpos);
INSERT INTO t (id) VALUES (1);
INSERT INTO t VALUES (2, 'bob', 3), (3, 'carl', 99);
INSERT INTO t VALUES (0, 'zed', 1);
INSERT INTO t VALUES (4, 'xander', 1);
INSERT INTO t VALUES (4, NULL, 1);
INSERT INTO t VALUES (4, 'dan', 100);
SELECT * FROM t ORDER BY id;
UPDATE t SET id = -id WHERE id = 2;
UPDATE t SET s = s + 1 WHERE id = 3;
UPDATE t SET name = 'dave' WHERE id = 3;
SELECT * FROM t ORDER BY id;
SELECT sum(id), max(name) FROM t;
COPY t FROM stdin;
5	ed	7
\.
COPY t FROM stdin;
6	x	7
\.
SELECT * FROM t ORDER BY id;
-- the catalogs and psql
CREATE DOMAIN answer AS bigint DEFAULT 42;
SELECT typname, typtype, typnotnull, format_type(typbasetype, typtypmod) AS base, typlen, typbyval
  FROM pg_type WHERE typname IN ('posint', 'shortname', 'smallpos', 'answer') ORDER BY typname;
SELECT typdefault FROM pg_type WHERE typname = 'answer';
SELECT conname, contype, convalidated, conrelid, pg_get_constraintdef(c.oid), pg_get_constraintdef(c.oid, true)
  FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid WHERE t.typname = 'posint';
SELECT t.typname, c.conname FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid
  WHERE t.typnamespace = 'public'::regnamespace ORDER BY 1, 2;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
  WHERE attrelid = 't'::regclass AND attnum > 0 ORDER BY attnum;
\dD posint
\dD answer
-- ALTER DOMAIN
ALTER DOMAIN posint ADD CONSTRAINT under_1000 CHECK (VALUE < 1000);
SELECT 1500::posint;
ALTER DOMAIN posint ADD CONSTRAINT under_3 CHECK (VALUE < 3);
ALTER DOMAIN posint DROP CONSTRAINT under_1000;
ALTER DOMAIN posint DROP CONSTRAINT under_1000;
ALTER DOMAIN posint DROP CONSTRAINT IF EXISTS under_1000;
SELECT 1500::posint;
ALTER DOMAIN shortname DROP DEFAULT;
INSERT INTO t (id) VALUES (7);
ALTER DOMAIN shortname DROP NOT NULL;
INSERT INTO t (id) VALUES (7);
ALTER DOMAIN shortname SET NOT NULL;
DELETE FROM t WHERE id = 7;
ALTER DOMAIN shortname SET NOT NULL;
ALTER DOMAIN shortname SET DEFAULT 'zz';
INSERT INTO t (id) VALUES (8);
SELECT * FROM t ORDER BY id;
ALTER DOMAIN nosuch DROP DEFAULT;
-- rollback of DDL
BEGIN;
ALTER DOMAIN posint ADD CONSTRAINT even CHECK (VALUE % 2 = 0);
SELECT 3::posint;
ROLLBACK;
SELECT 3::posint;
-- DROP DOMAIN
DROP DOMAIN posint;
DROP DOMAIN IF EXISTS nosuch;
DROP DOMAIN nosuch;
BEGIN;
DROP DOMAIN posint CASCADE;
SELECT * FROM t ORDER BY name;
ROLLBACK;
DROP TABLE t;
DROP DOMAIN smallpos, posint, shortname, answer;
SELECT count(*) FROM pg_type WHERE typtype = 'd' AND typnamespace = 'public'::regnamespace;
