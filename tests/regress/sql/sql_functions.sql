-- User-defined SQL functions: CREATE [OR REPLACE] FUNCTION, calls with
-- positional and named parameters, defaults, overloading, SETOF, void,
-- DML bodies, recursion, DROP FUNCTION, EXECUTE privilege, pg_proc.
CREATE TABLE sf_t (id int PRIMARY KEY, v text);
INSERT INTO sf_t VALUES (1, 'one'), (2, 'two'), (3, 'three');

CREATE FUNCTION sf_add(a integer, b integer) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT a + b $$;
SELECT sf_add(1, 2), sf_add(NULL, 2) IS NULL AS null_in;
CREATE FUNCTION sf_add3(integer, integer, integer) RETURNS integer AS 'SELECT $1 + $2 + $3' LANGUAGE sql;
SELECT sf_add3(1, 2, 3);
SELECT id, sf_add(id, 10) FROM sf_t ORDER BY id;
SELECT * FROM sf_t WHERE sf_add(id, 1) = 3;

-- defaults and overloading
CREATE FUNCTION sf_greet(name text, punct text DEFAULT '!') RETURNS text
  LANGUAGE sql AS $$ SELECT 'hello ' || name || punct $$;
SELECT sf_greet('world'), sf_greet('you', '?');
CREATE FUNCTION sf_kind(x integer) RETURNS text LANGUAGE sql AS $$ SELECT 'integer' $$;
CREATE FUNCTION sf_kind(x text) RETURNS text LANGUAGE sql AS $$ SELECT 'text' $$;
SELECT sf_kind(1), sf_kind('a'::text), sf_kind(2.5::numeric::int);
SELECT sf_kind(true);

-- reading tables, NULL when no row, the first row otherwise
CREATE FUNCTION sf_name(i integer) RETURNS text LANGUAGE sql STABLE AS
  $$ SELECT v FROM sf_t WHERE id = i $$;
SELECT sf_name(2), sf_name(99) IS NULL AS missing;
CREATE FUNCTION sf_first() RETURNS text LANGUAGE sql AS $$ SELECT v FROM sf_t ORDER BY id DESC $$;
SELECT sf_first();
CREATE FUNCTION sf_count() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM sf_t';
SELECT sf_count();

-- the result is cast to the declared type
CREATE FUNCTION sf_small() RETURNS bigint LANGUAGE sql AS 'SELECT 42';
SELECT sf_small(), pg_typeof_check FROM (SELECT 1 AS pg_typeof_check) s;

-- SETOF in FROM and in the select list
CREATE FUNCTION sf_ids() RETURNS SETOF integer LANGUAGE sql AS $$ SELECT id FROM sf_t ORDER BY id $$;
SELECT * FROM sf_ids();
SELECT x * 2 AS doubled FROM sf_ids() AS x ORDER BY 1 DESC;
SELECT sf_ids();
CREATE FUNCTION sf_upto(n integer) RETURNS TABLE (k integer) LANGUAGE sql AS
  $$ SELECT g FROM generate_series(1, n) g $$;
SELECT * FROM sf_upto(3) AS u(k);

-- void and DML bodies
CREATE FUNCTION sf_log(i integer, t text) RETURNS void LANGUAGE sql AS
  $$ INSERT INTO sf_t VALUES (i, t) $$;
SELECT sf_log(4, 'four');
SELECT * FROM sf_t ORDER BY id;
CREATE FUNCTION sf_bump(i integer) RETURNS text LANGUAGE sql AS $$
  UPDATE sf_t SET v = v || '+' WHERE id = i;
  SELECT v FROM sf_t WHERE id = i;
$$;
SELECT sf_bump(1);
CREATE FUNCTION sf_del(i integer) RETURNS integer LANGUAGE sql AS
  $$ DELETE FROM sf_t WHERE id = i RETURNING id $$;
SELECT sf_del(4), sf_del(4) IS NULL AS gone;

-- SQL-standard bodies
CREATE FUNCTION sf_twice(x integer) RETURNS integer LANGUAGE sql RETURN x * 2;
SELECT sf_twice(21);
CREATE FUNCTION sf_atomic(x integer) RETURNS integer LANGUAGE sql
BEGIN ATOMIC
  SELECT x + 100;
END;
SELECT sf_atomic(1);

-- CREATE OR REPLACE and plans made again
CREATE OR REPLACE FUNCTION sf_add(a integer, b integer) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT a * b $$;
SELECT sf_add(3, 4);
CREATE FUNCTION sf_add(a integer, b integer) RETURNS integer LANGUAGE sql AS 'SELECT 1';
CREATE OR REPLACE FUNCTION sf_add(a integer, b integer) RETURNS text LANGUAGE sql AS $$ SELECT 'x' $$;

-- recursion, bounded by the stack
CREATE FUNCTION sf_fact(n integer) RETURNS numeric LANGUAGE sql AS
  $$ SELECT 1::numeric $$;
CREATE OR REPLACE FUNCTION sf_fact(n integer) RETURNS numeric LANGUAGE sql AS
  $$ SELECT CASE WHEN n <= 1 THEN 1::numeric ELSE n * sf_fact(n - 1) END $$;
SELECT sf_fact(10);
CREATE FUNCTION sf_forever(n integer) RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;
CREATE OR REPLACE FUNCTION sf_forever(n integer) RETURNS integer LANGUAGE sql AS
  $$ SELECT sf_forever(n + 1) $$;
\set VERBOSITY sqlstate
SELECT sf_forever(1);
\set VERBOSITY default
SELECT 1 AS still_alive;

-- errors at CREATE
CREATE FUNCTION sf_bad1() RETURNS integer LANGUAGE sql AS $$ SELECT 'abc'::text $$;
CREATE FUNCTION sf_bad2() RETURNS integer LANGUAGE sql AS $$ SELECT 1, 2 $$;
CREATE FUNCTION sf_bad3() RETURNS integer LANGUAGE sql AS $$ SELECT nosuch FROM sf_t $$;
CREATE FUNCTION sf_bad4() RETURNS integer LANGUAGE sql AS $$ SELECT nosuchfn(1) $$;
CREATE FUNCTION sf_bad5() RETURNS integer LANGUAGE sql AS $$ SELEC 1 $$;
CREATE FUNCTION sf_bad6() RETURNS integer LANGUAGE sql AS $$ INSERT INTO sf_t VALUES (9, 'x') $$;
CREATE FUNCTION sf_bad7(a integer) RETURNS integer LANGUAGE sql AS $$ SELECT $2 $$;
CREATE FUNCTION sf_bad8() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;
CREATE FUNCTION sf_bad9() RETURNS nosuchtype LANGUAGE sql AS $$ SELECT 1 $$;
CREATE FUNCTION sf_bad10(a integer DEFAULT 1, b integer) RETURNS integer LANGUAGE sql AS $$ SELECT a $$;
DO $$ BEGIN RAISE NOTICE 'hi'; END $$;
SELECT sf_nosuch(1);
SELECT sf_add('a', 'b');

-- procedures
CREATE PROCEDURE sf_ins(i integer, t text) LANGUAGE sql AS $$ INSERT INTO sf_t VALUES (i, t) $$;
CALL sf_ins(5, 'five');
SELECT v FROM sf_t WHERE id = 5;
SELECT sf_ins(6, 'six');
CALL sf_add(1, 2);

-- EXECUTE privilege
CREATE ROLE sf_user;
GRANT SELECT ON sf_t TO sf_user;
REVOKE EXECUTE ON FUNCTION sf_count() FROM PUBLIC;
SET ROLE sf_user;
SELECT sf_twice(2);
SELECT sf_count();
RESET ROLE;
GRANT EXECUTE ON FUNCTION sf_count() TO sf_user;
SET ROLE sf_user;
SELECT sf_count();
RESET ROLE;

-- catalogs
SELECT proname, prolang, provolatile, proisstrict, proretset, prokind, pronargs, prorettype::regtype, proargnames
FROM pg_proc WHERE proname IN ('sf_add', 'sf_ids', 'sf_greet', 'sf_ins', 'sf_name') ORDER BY proname;
SELECT prosrc FROM pg_proc WHERE proname = 'sf_add3';
SELECT proacl FROM pg_proc WHERE proname = 'sf_count';
SELECT lanname, lanpltrusted FROM pg_language ORDER BY oid;
SELECT pg_get_function_arguments(oid), pg_get_function_identity_arguments(oid), pg_get_function_result(oid)
FROM pg_proc WHERE proname IN ('sf_add', 'sf_ids', 'sf_upto', 'sf_log') ORDER BY proname;
SELECT 'sf_add'::regproc, 'sf_add'::regproc::oid = (SELECT oid FROM pg_proc WHERE proname = 'sf_add') AS same;
SELECT pg_get_functiondef(oid) FROM pg_proc WHERE proname = 'sf_add';
SELECT pg_get_functiondef(oid) FROM pg_proc WHERE proname = 'sf_ins';
\df sf_a*

-- DROP FUNCTION
DROP FUNCTION sf_kind;
DROP FUNCTION sf_kind(text);
SELECT sf_kind(1);
DROP FUNCTION sf_kind(integer), sf_add3;
DROP FUNCTION sf_kind(integer);
DROP FUNCTION IF EXISTS sf_kind(integer);
DROP FUNCTION IF EXISTS sf_nothing;
DROP FUNCTION sf_nothing;
BEGIN;
DROP FUNCTION sf_twice(integer);
SELECT sf_twice(1);
ROLLBACK;
SELECT sf_twice(5);
DROP PROCEDURE sf_ins;
REVOKE EXECUTE ON FUNCTION sf_count() FROM sf_user;
REVOKE SELECT ON sf_t FROM sf_user;
DROP ROLE sf_user;
SELECT proname FROM pg_proc WHERE proname LIKE 'sf%' ORDER BY proname;
