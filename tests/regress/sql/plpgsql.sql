-- LANGUAGE plpgsql functions, procedures and DO blocks: declarations,
-- control statements, SQL inside bodies, RAISE, EXCEPTION blocks with
-- subtransaction rollback, set-returning functions, and errors at CREATE.
CREATE TABLE pl_t (id int PRIMARY KEY, v text);
INSERT INTO pl_t VALUES (1, 'one'), (2, 'two'), (3, 'three');

-- scalars, defaults, CONSTANT, IF/ELSIF/ELSE
CREATE FUNCTION pl_sign(x integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  zero CONSTANT integer := 0;
  result text;
BEGIN
  IF x < zero THEN
    result := 'negative';
  ELSIF x = zero THEN
    result := 'zero';
  ELSE
    result := 'positive';
  END IF;
  RETURN result;
END
$$;
SELECT pl_sign(-5), pl_sign(0), pl_sign(7), pl_sign(NULL);

-- positional parameters, STRICT, RETURN of a query's value
CREATE FUNCTION pl_add(integer, integer) RETURNS integer STRICT LANGUAGE plpgsql AS
  'begin return $1 + $2; end';
SELECT pl_add(2, 3), pl_add(NULL, 1) IS NULL AS strict_null;
CREATE FUNCTION pl_max_id() RETURNS integer LANGUAGE plpgsql AS
  'begin return max(id) from pl_t; end';
SELECT pl_max_id();

-- loops: LOOP/EXIT WHEN, WHILE, FOR over integers (REVERSE, BY), CONTINUE, labels
CREATE FUNCTION pl_loops(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  s text := '';
  i integer := 0;
BEGIN
  LOOP
    i := i + 1;
    EXIT WHEN i > n;
    s := s || i;
  END LOOP;
  s := s || '|';
  WHILE i > 1 LOOP
    i := i - 1;
    CONTINUE WHEN i % 2 = 0;
    s := s || i;
  END LOOP;
  s := s || '|';
  FOR k IN REVERSE 10..1 BY 3 LOOP
    s := s || k || ',';
  END LOOP;
  <<outer>>
  FOR a IN 1..3 LOOP
    FOR b IN 1..3 LOOP
      EXIT outer WHEN a = 2 AND b = 2;
      s := s || a || b || ' ';
    END LOOP;
  END LOOP outer;
  RETURN s;
END
$$;
SELECT pl_loops(5);

-- CASE statements, FOREACH over an array
CREATE FUNCTION pl_case(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  CASE x
    WHEN 1, 2 THEN RETURN 'small';
    WHEN 3 THEN RETURN 'three';
    ELSE RETURN 'other';
  END CASE;
END
$$;
SELECT pl_case(1), pl_case(3), pl_case(9);
CREATE FUNCTION pl_case_missing(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  CASE WHEN x > 0 THEN RETURN 'positive'; END CASE;
END
$$;
SELECT pl_case_missing(1);
SELECT pl_case_missing(-1);
CREATE FUNCTION pl_sum(arr integer[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  total integer := 0;
  x integer;
BEGIN
  FOREACH x IN ARRAY arr LOOP
    total := total + x;
  END LOOP;
  RETURN total;
END
$$;
SELECT pl_sum(ARRAY[1, 2, 3, 4]);

-- FOR over a query, records, %TYPE, %ROWTYPE, SELECT INTO, FOUND
CREATE FUNCTION pl_names() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
  out text := '';
BEGIN
  FOR r IN SELECT id, v FROM pl_t ORDER BY id LOOP
    out := out || r.id || '=' || r.v || ' ';
  END LOOP;
  RETURN out;
END
$$;
SELECT pl_names();
CREATE FUNCTION pl_lookup(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  name pl_t.v%TYPE;
  row_ pl_t%ROWTYPE;
BEGIN
  SELECT v INTO name FROM pl_t WHERE id = k;
  IF NOT FOUND THEN
    RETURN 'missing';
  END IF;
  SELECT * INTO row_ FROM pl_t WHERE id = k;
  RETURN name || '/' || row_.id;
END
$$;
SELECT pl_lookup(2), pl_lookup(42);

-- SELECT INTO STRICT: P0002 and P0003
CREATE FUNCTION pl_strict(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  name text;
BEGIN
  SELECT v INTO STRICT name FROM pl_t WHERE id >= k;
  RETURN name;
END
$$;
SELECT pl_strict(3);
\set VERBOSITY verbose
SELECT pl_strict(9);
SELECT pl_strict(1);
\set VERBOSITY default

-- DML in bodies, RETURNING INTO, GET DIAGNOSTICS, PERFORM
CREATE FUNCTION pl_dml() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  new_id integer;
  n bigint;
BEGIN
  INSERT INTO pl_t VALUES (10, 'ten') RETURNING id INTO new_id;
  UPDATE pl_t SET v = upper(v) WHERE id < 3;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM * FROM pl_t WHERE id = 99;
  RETURN new_id || ' ' || n || ' ' || FOUND;
END
$$;
SELECT pl_dml();
SELECT * FROM pl_t ORDER BY id;

-- EXECUTE with format(), USING and INTO
CREATE FUNCTION pl_dynamic(tab text, k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE format('SELECT v FROM %I WHERE id = $1', tab) INTO result USING k;
  RETURN result;
END
$$;
SELECT pl_dynamic('pl_t', 3);

-- RAISE levels, placeholders, USING options, SQLSTATE P0001
DO $$
DECLARE
  n integer := 3;
BEGIN
  RAISE NOTICE 'n is %, half is %, 100%%', n, n / 2.0;
  RAISE WARNING 'a warning about %', 'something';
  RAISE INFO 'info with null: %', NULL;
END
$$;
\set VERBOSITY verbose
DO $$ BEGIN RAISE EXCEPTION 'custom failure %', 42 USING DETAIL = 'some detail', HINT = 'a hint'; END $$;
DO $$ BEGIN RAISE 'plain raise'; END $$;
DO $$ BEGIN RAISE EXCEPTION 'with code' USING ERRCODE = 'unique_violation'; END $$;
DO $$ BEGIN RAISE division_by_zero; END $$;
DO $$ BEGIN RAISE SQLSTATE '22012'; END $$;
\set VERBOSITY default

-- EXCEPTION blocks: the block's changes are rolled back, handlers by name,
-- by SQLSTATE, OTHERS; SQLSTATE and SQLERRM; re-raise
CREATE FUNCTION pl_safe_div(a integer, b integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN (a / b)::text;
EXCEPTION
  WHEN division_by_zero THEN
    RETURN 'div by zero: ' || SQLERRM || ' (' || SQLSTATE || ')';
END
$$;
SELECT pl_safe_div(7, 2), pl_safe_div(1, 0);
CREATE FUNCTION pl_rollback_block() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  kept integer := 0;
BEGIN
  INSERT INTO pl_t VALUES (20, 'kept');
  BEGIN
    INSERT INTO pl_t VALUES (21, 'rolled back');
    kept := 1;
    INSERT INTO pl_t VALUES (20, 'duplicate');
  EXCEPTION
    WHEN SQLSTATE '23505' THEN
      RAISE NOTICE 'caught %', SQLSTATE;
  END;
  BEGIN
    PERFORM 1 / 0;
  EXCEPTION
    WHEN unique_violation THEN RAISE NOTICE 'not this one';
    WHEN OTHERS THEN RAISE NOTICE 'others: %', SQLERRM;
  END;
  RETURN 'kept=' || kept;
END
$$;
SELECT pl_rollback_block();
SELECT * FROM pl_t WHERE id >= 20 ORDER BY id;
CREATE FUNCTION pl_reraise() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    RAISE EXCEPTION 'inner';
  EXCEPTION WHEN raise_exception THEN
    RAISE NOTICE 'handling %', SQLERRM;
    RAISE;
  END;
END
$$;
SELECT pl_reraise();
-- an error inside a transaction block's function leaves the block failed
BEGIN;
SELECT pl_safe_div(1, 0);
INSERT INTO pl_t VALUES (30, 'thirty');
SELECT pl_reraise();
SELECT 1;
ROLLBACK;
SELECT count(*) FROM pl_t WHERE id = 30;

-- set-returning functions: RETURN NEXT, RETURN QUERY
CREATE FUNCTION pl_series(n integer) RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..n LOOP
    RETURN NEXT i * 10;
  END LOOP;
  RETURN QUERY SELECT id FROM pl_t WHERE id < 3 ORDER BY id;
  RETURN;
END
$$;
SELECT * FROM pl_series(3);
SELECT pl_series(2);

-- procedures and CALL, OUT parameters, void functions
CREATE PROCEDURE pl_insert(k integer, val text) LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pl_t VALUES (k, val);
END
$$;
CALL pl_insert(40, 'forty');
SELECT v FROM pl_t WHERE id = 40;
CREATE FUNCTION pl_out(x integer, OUT doubled integer) LANGUAGE plpgsql AS $$
BEGIN
  doubled := x * 2;
END
$$;
SELECT pl_out(21);
CREATE FUNCTION pl_void() RETURNS void LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; END $$;
SELECT pl_void();

-- nested blocks and shadowing
CREATE FUNCTION pl_shadow() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x text := 'outer';
BEGIN
  DECLARE
    x text := 'inner';
  BEGIN
    RAISE NOTICE 'x = %', x;
  END;
  RETURN x;
END
$$;
SELECT pl_shadow();

-- run-time errors carry PL/pgSQL CONTEXT lines
CREATE FUNCTION pl_fail(x integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  IF x > 0 THEN
    RAISE EXCEPTION 'x must not be positive: %', x;
  END IF;
  RETURN x;
END
$$;
SELECT pl_fail(-1);
SELECT pl_fail(5);
CREATE FUNCTION pl_no_return() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; END $$;
SELECT pl_no_return();
CREATE FUNCTION pl_constant() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c CONSTANT integer := 1;
BEGIN
  c := 2;
  RETURN c;
END
$$;

-- ASSERT and GET STACKED DIAGNOSTICS
CREATE FUNCTION pl_diag() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  state text;
  msg text;
  det text;
BEGIN
  BEGIN
    RAISE EXCEPTION 'boom' USING DETAIL = 'the detail', ERRCODE = '22023';
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
  END;
  ASSERT state = '22023', 'wrong state';
  RETURN state || ' ' || msg || ' ' || det;
END
$$;
SELECT pl_diag();
\set VERBOSITY verbose
DO $$ BEGIN ASSERT 1 = 2; END $$;
DO $$ BEGIN ASSERT false, 'custom ' || 'assert'; END $$;
\set VERBOSITY default

-- syntax errors are found at CREATE
CREATE FUNCTION pl_bad() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  IF true THEN
    RETURN 1;
  END;
END
$$;
CREATE FUNCTION pl_bad2() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE 'one % two %', 1;
END
$$;
SELECT count(*) FROM pg_proc WHERE proname LIKE 'pl_bad%';
SELECT l.lanname, p.prorettype::regtype FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
  WHERE p.proname = 'pl_sign';

DROP FUNCTION pl_sign(integer), pl_add(integer, integer), pl_max_id(), pl_loops(integer), pl_case(integer),
  pl_case_missing(integer), pl_sum(integer[]), pl_names(), pl_lookup(integer), pl_strict(integer), pl_dml(),
  pl_dynamic(text, integer), pl_safe_div(integer, integer), pl_rollback_block(), pl_reraise(), pl_series(integer),
  pl_out(integer), pl_void(), pl_shadow(), pl_fail(integer), pl_no_return(), pl_diag();
DROP PROCEDURE pl_insert(integer, text);
DROP TABLE pl_t;
