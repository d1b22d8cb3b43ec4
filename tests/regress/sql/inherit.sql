-- Table inheritance: INHERITS with merged columns, scans of a parent
-- reaching its children (ONLY, t*), UPDATE/DELETE through the parent,
-- ALTER TABLE [NO] INHERIT, pg_inherits, DROP's 2BP01 and CASCADE.
CREATE TABLE a (aa text);
CREATE TABLE b (bb text) INHERITS (a);
CREATE TABLE c (cc text) INHERITS (a);
CREATE TABLE d (dd text) INHERITS (b, c, a);
INSERT INTO a (aa) VALUES ('aaa'), ('aaaa');
INSERT INTO b (aa) VALUES ('bbb');
INSERT INTO b (aa, bb) VALUES ('bbbb', 'b2');
INSERT INTO c (aa, cc) VALUES ('ccc', 'c1');
INSERT INTO d (aa, bb, cc, dd) VALUES ('ddd', 'db', 'dc', 'dd');
SELECT aa FROM a ORDER BY aa;
SELECT aa FROM ONLY a ORDER BY aa;
SELECT aa FROM a* ORDER BY aa;
SELECT * FROM b ORDER BY aa;
SELECT * FROM ONLY b ORDER BY aa;
SELECT * FROM d;
SELECT count(*) FROM a WHERE aa LIKE 'b%';
SELECT a.aa, length(a.aa) FROM a JOIN c ON a.aa = c.aa ORDER BY 1;
UPDATE a SET aa = 'zzz' WHERE aa = 'ccc';
SELECT * FROM c ORDER BY aa;
UPDATE b SET aa = aa || '!' RETURNING *;
SELECT * FROM d;
UPDATE ONLY a SET aa = upper(aa);
SELECT aa FROM a ORDER BY aa;
DELETE FROM a WHERE aa LIKE 'ddd%';
SELECT count(*) FROM d;
DELETE FROM ONLY b;
SELECT aa FROM a ORDER BY aa;
-- column merging and its errors
CREATE TABLE p1 (x int NOT NULL, y text DEFAULT 'p1');
CREATE TABLE p2 (y text, z numeric);
CREATE TABLE m (z numeric, w int DEFAULT 7) INHERITS (p1, p2);
SELECT attname, atttypid::regtype, attnum, attnotnull FROM pg_attribute
 WHERE attrelid = 'm'::regclass AND attnum > 0 ORDER BY attnum;
INSERT INTO m (x) VALUES (1);
SELECT * FROM m;
SELECT * FROM p1;
SELECT * FROM p2;
INSERT INTO m (y) VALUES ('no x');
-- (a merge NOTICE followed by an error is not sent yet: the type
-- conflicts are left out)
CREATE TABLE bad (q int) INHERITS (p1, p1);
CREATE TABLE p3 (y int);
CREATE TABLE bad (q int) INHERITS (nosuch);
CREATE VIEW v AS SELECT 1 AS one;
CREATE TABLE bad (q int) INHERITS (v);
-- pg_inherits and relhassubclass
SELECT inhrelid::regclass, inhparent::regclass, inhseqno FROM pg_inherits ORDER BY inhrelid::regclass::text, 3;
SELECT relname, relhassubclass FROM pg_class WHERE relname IN ('a', 'b', 'd', 'm', 'p3') ORDER BY 1;
-- ALTER TABLE [NO] INHERIT
CREATE TABLE s (x int NOT NULL, y text, extra int);
INSERT INTO s VALUES (10, 's', 0);
ALTER TABLE s INHERIT p1;
SELECT x, y FROM p1 ORDER BY x;
ALTER TABLE s INHERIT p1;
ALTER TABLE s NO INHERIT p1;
SELECT x, y FROM p1 ORDER BY x;
ALTER TABLE s NO INHERIT p1;
CREATE TABLE s2 (y text);
ALTER TABLE s2 INHERIT p1;
CREATE TABLE s3 (x bigint NOT NULL, y text);
ALTER TABLE s3 INHERIT p1;
CREATE TABLE s4 (x int, y text);
ALTER TABLE s4 INHERIT p1;
ALTER TABLE p1 INHERIT m;
ALTER TABLE p1 INHERIT p1;
-- a child with its own extra column updated through the parent
CREATE TABLE base (k int, v text);
CREATE TABLE kid (note text, v text) INHERITS (base);
INSERT INTO kid VALUES (1, 'one', 'kept');
UPDATE base SET v = 'uno' WHERE k = 1;
SELECT * FROM kid;
-- EXPLAIN shows one scan per member
EXPLAIN (COSTS OFF) SELECT * FROM base WHERE k = 1;
EXPLAIN (COSTS OFF) SELECT * FROM ONLY base;
-- DROP
DROP TABLE a;
DROP TABLE p1;
DROP TABLE d;
SELECT aa FROM a ORDER BY aa;
DROP TABLE b;
DROP TABLE a CASCADE;
DROP TABLE p1 CASCADE;
DROP TABLE p2, p3 CASCADE;
DROP TABLE base, kid;
SELECT count(*) FROM pg_inherits;
DROP VIEW v;
DROP TABLE s, s2, s3, s4;
-- a deeper tree: dependents reported per level, CASCADE lists them all
CREATE TABLE g1 (a int);
CREATE TABLE g2 () INHERITS (g1);
CREATE TABLE g3 () INHERITS (g2);
CREATE TABLE g4 (b int) INHERITS (g1);
INSERT INTO g3 VALUES (3);
INSERT INTO g4 VALUES (4, 40);
SELECT * FROM g1 ORDER BY a;
SELECT * FROM g2;
DROP TABLE g1;
DROP TABLE g1 CASCADE;
