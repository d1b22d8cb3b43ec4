-- CREATE/DROP TRIGGER and trigger functions: BEFORE ROW changing or
-- skipping rows, AFTER ROW triggers fired at the end of the statement in
-- name order, statement triggers, TG_* variables and arguments, WHEN,
-- UPDATE OF, INSERT ... SELECT, ON CONFLICT, pg_trigger, pg_get_triggerdef, \d.
CREATE TABLE tr_t (id int PRIMARY KEY, v text, n int DEFAULT 0);
CREATE TABLE tr_log (seq serial, msg text);

CREATE FUNCTION tr_log_it() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tr_log(msg) VALUES (TG_NAME || ' ' || TG_WHEN || ' ' || TG_LEVEL || ' ' || TG_OP || ' on ' ||
    TG_TABLE_NAME || ' args=' || TG_NARGS || ':' || coalesce(TG_ARGV[0], '-'));
  IF TG_LEVEL = 'STATEMENT' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END
$$;
CREATE FUNCTION tr_upper() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.v := upper(NEW.v);
  NEW.n := NEW.n + 1;
  RAISE NOTICE 'tr_upper: % -> %', NEW.id, NEW.v;
  RETURN NEW;
END
$$;
CREATE FUNCTION tr_skip() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.v = 'skip' THEN
    RAISE NOTICE 'skipping %', NEW.id;
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER b_upper BEFORE INSERT OR UPDATE ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE TRIGGER a_skip BEFORE INSERT ON tr_t FOR EACH ROW EXECUTE PROCEDURE tr_skip();
CREATE TRIGGER z_after AFTER INSERT OR UPDATE OR DELETE ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_log_it('row');
CREATE TRIGGER y_stmt AFTER INSERT ON tr_t FOR EACH STATEMENT EXECUTE FUNCTION tr_log_it('stmt');
CREATE TRIGGER x_before_stmt BEFORE DELETE ON tr_t FOR EACH STATEMENT EXECUTE FUNCTION tr_log_it();

INSERT INTO tr_t VALUES (1, 'one'), (2, 'skip'), (3, 'three');
SELECT * FROM tr_t ORDER BY id;
INSERT INTO tr_t SELECT 4, 'four';
UPDATE tr_t SET v = 'uno' WHERE id = 1 RETURNING *;
DELETE FROM tr_t WHERE id = 3;
DELETE FROM tr_t WHERE id = 99;
SELECT msg FROM tr_log ORDER BY seq;

-- WHEN conditions and UPDATE OF
TRUNCATE tr_log;
CREATE FUNCTION tr_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE '% fired for % (old %, new %)', TG_NAME, TG_OP, OLD.n, NEW.n;
  RETURN NEW;
END
$$;
CREATE TRIGGER w_changed AFTER UPDATE ON tr_t FOR EACH ROW WHEN (old.n IS DISTINCT FROM new.n)
  EXECUTE FUNCTION tr_note();
CREATE TRIGGER w_of_v BEFORE UPDATE OF v ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_note();
UPDATE tr_t SET n = 5 WHERE id = 1;
UPDATE tr_t SET v = 'x' WHERE id = 4;

-- pg_trigger, pg_get_triggerdef, \d
SELECT tgname, tgtype, tgenabled, tgnargs, tgisinternal FROM pg_trigger
  WHERE tgrelid = 'tr_t'::regclass ORDER BY tgname;
SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname IN ('z_after', 'w_changed', 'w_of_v') ORDER BY tgname;
SELECT pg_get_triggerdef(oid, true) FROM pg_trigger WHERE tgname = 'w_changed';
SELECT relhastriggers FROM pg_class WHERE relname IN ('tr_t', 'tr_log') ORDER BY relname;
\d tr_t

-- ON CONFLICT runs BEFORE INSERT triggers on the proposed row
DROP TRIGGER w_changed ON tr_t;
DROP TRIGGER w_of_v ON tr_t;
DROP TRIGGER z_after ON tr_t;
DROP TRIGGER y_stmt ON tr_t;
INSERT INTO tr_t VALUES (1, 'again') ON CONFLICT (id) DO NOTHING;
INSERT INTO tr_t VALUES (7, 'seven') ON CONFLICT (id) DO NOTHING;
SELECT * FROM tr_t ORDER BY id;

-- errors
CREATE TRIGGER b_upper BEFORE INSERT ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE OR REPLACE TRIGGER b_upper BEFORE INSERT ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE TRIGGER bad BEFORE INSERT ON tr_t FOR EACH ROW EXECUTE FUNCTION no_such_function();
CREATE FUNCTION tr_not_trigger() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;
CREATE TRIGGER bad BEFORE INSERT ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_not_trigger();
CREATE TRIGGER bad INSTEAD OF INSERT ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE TRIGGER bad BEFORE TRUNCATE ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE TRIGGER bad BEFORE UPDATE OF nosuch ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE TRIGGER bad BEFORE INSERT ON no_such_table FOR EACH ROW EXECUTE FUNCTION tr_upper();
CREATE FUNCTION tr_args(integer) RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE FUNCTION tr_sql() RETURNS trigger LANGUAGE sql AS $$ SELECT 1 $$;
DROP TRIGGER no_such_trigger ON tr_t;
DROP TRIGGER IF EXISTS no_such_trigger ON tr_t;

-- a trigger's error aborts the statement
CREATE FUNCTION tr_reject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id > 100 THEN
    RAISE EXCEPTION 'id % is too large', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER c_reject BEFORE INSERT ON tr_t FOR EACH ROW EXECUTE FUNCTION tr_reject();
INSERT INTO tr_t VALUES (50, 'ok'), (500, 'too large');
SELECT count(*) FROM tr_t WHERE id IN (50, 500);

-- COPY FROM fires them too (a skipped row is not counted)
COPY tr_t (id, v) FROM stdin;
70	seventy
71	skip
\.
SELECT * FROM tr_t WHERE id >= 70 AND id < 100 ORDER BY id;

-- ALTER TABLE ... DISABLE / ENABLE TRIGGER
ALTER TABLE tr_t DISABLE TRIGGER c_reject;
INSERT INTO tr_t VALUES (600, 'allowed');
SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'tr_t'::regclass ORDER BY tgname;
ALTER TABLE tr_t DISABLE TRIGGER ALL;
INSERT INTO tr_t VALUES (601, 'plain');
ALTER TABLE tr_t ENABLE TRIGGER ALL;
INSERT INTO tr_t VALUES (602, 'rejected');
ALTER TABLE tr_t ENABLE TRIGGER no_such_trigger;
SELECT * FROM tr_t WHERE id > 500 ORDER BY id;

-- DROP TABLE drops its triggers
DROP TABLE tr_t;
SELECT count(*) FROM pg_trigger;
DROP TABLE tr_log;
DROP FUNCTION tr_log_it(), tr_upper(), tr_skip(), tr_note(), tr_not_trigger(), tr_reject();
