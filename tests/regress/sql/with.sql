-- WITH queries (common table expressions): plain, materialized or inlined,
-- recursive, in INSERT/UPDATE/DELETE, and their errors.
\set VERBOSITY verbose
CREATE TABLE wt (id int PRIMARY KEY, grp text, v int);
INSERT INTO wt VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 30), (4, 'b', NULL), (5, 'c', 50);

-- plain, column lists, several queries, a query using an earlier one
WITH x AS (SELECT id, v FROM wt WHERE v > 15) SELECT * FROM x ORDER BY id;
WITH x(a, b) AS (SELECT id, v FROM wt) SELECT a, b FROM x WHERE a < 3 ORDER BY a;
WITH x(a) AS (SELECT id, v FROM wt) SELECT * FROM x ORDER BY a LIMIT 2;
WITH x AS (SELECT grp, sum(v) AS s FROM wt GROUP BY grp),
     y AS (SELECT grp FROM x WHERE s > 25)
SELECT * FROM y ORDER BY grp;
-- referenced twice: computed once, read by two CTE scans
WITH x AS (SELECT id, v FROM wt)
SELECT a.id, b.v FROM x a JOIN x b ON a.id = b.id + 1 ORDER BY a.id;
WITH s AS (SELECT count(*) AS n FROM wt) SELECT (SELECT n FROM s) AS n, (SELECT n * 2 FROM s) AS twice;
-- MATERIALIZED / NOT MATERIALIZED
WITH x AS MATERIALIZED (SELECT id FROM wt WHERE id <= 2) SELECT * FROM x ORDER BY id;
WITH x AS NOT MATERIALIZED (SELECT id FROM wt WHERE id <= 2) SELECT * FROM x, x y WHERE x.id = y.id ORDER BY 1;
EXPLAIN (COSTS OFF) WITH x AS MATERIALIZED (SELECT * FROM wt) SELECT * FROM x;
EXPLAIN (COSTS OFF) WITH x AS (SELECT * FROM wt) SELECT * FROM x a, x b;
EXPLAIN (COSTS OFF) WITH x AS MATERIALIZED (SELECT * FROM wt) SELECT count(*) FROM x WHERE id > 1;
-- a query calling a volatile function is never inlined
EXPLAIN (COSTS OFF) WITH x AS (SELECT id, random() AS r FROM wt) SELECT id FROM x;
WITH r AS (SELECT random() AS x) SELECT count(DISTINCT x) FROM (SELECT x FROM r UNION ALL SELECT x FROM r) s;
-- a WITH name hides a table of that name; visible in nested subqueries
WITH wt AS (SELECT 42 AS id) SELECT * FROM wt;
WITH x AS (SELECT max(id) AS m FROM wt)
SELECT id FROM wt WHERE id = (SELECT m FROM x) OR id IN (SELECT m - 4 FROM x) ORDER BY id;
WITH x AS (SELECT 1 AS k) SELECT * FROM (SELECT k + 1 AS k2 FROM x) sub;
WITH x AS (SELECT 1 AS k) SELECT * FROM (WITH x AS (SELECT 2 AS k) SELECT * FROM x) s, x;
SELECT * FROM (WITH q AS (SELECT 7 AS z) SELECT z FROM q) s;
-- FOR UPDATE does not lock a WITH query's rows; naming one is an error
WITH x AS (SELECT id FROM wt WHERE id = 1) SELECT * FROM x FOR UPDATE;
WITH x AS (SELECT id FROM wt) SELECT * FROM x FOR UPDATE OF x;
-- unused queries are not run, but are checked
WITH unused AS (SELECT 1 / 0) SELECT 1 AS one;
WITH unused AS (SELECT * FROM no_such_table) SELECT 1;
-- WITH on a set operation and in INSERT/UPDATE/DELETE
WITH x AS (SELECT 1 AS n) SELECT n FROM x UNION ALL SELECT n + 1 FROM x;
CREATE TABLE wt2 (id int, v int);
WITH src AS (SELECT id, v FROM wt WHERE v IS NOT NULL) INSERT INTO wt2 SELECT * FROM src;
SELECT * FROM wt2 ORDER BY id;
WITH big AS (SELECT id FROM wt WHERE v >= 30) UPDATE wt2 SET v = -v WHERE id IN (SELECT id FROM big) RETURNING *;
WITH gone AS (SELECT 1 AS id) DELETE FROM wt2 WHERE id IN (SELECT id FROM gone);
SELECT * FROM wt2 ORDER BY id;
-- prepared statements: each execution computes the query again
PREPARE pw(int) AS WITH x AS MATERIALIZED (SELECT id FROM wt WHERE id > $1) SELECT count(*) FROM x a, x b;
EXECUTE pw(3);
EXECUTE pw(0);
DEALLOCATE pw;
CREATE TABLE wt3 AS WITH x AS (SELECT id * 10 AS t FROM wt) SELECT * FROM x WHERE t > 20;
SELECT * FROM wt3 ORDER BY t;

-- errors
WITH x AS (SELECT 1), x AS (SELECT 2) SELECT * FROM x;
WITH x(a, b) AS (SELECT 1) SELECT * FROM x;
WITH x AS (SELECT * FROM y), y AS (SELECT 1) SELECT * FROM x;

-- WITH RECURSIVE
WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 100) SELECT sum(n), count(*) FROM t;
-- LIMIT stops an endless recursion: rows are computed as they are read
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT * FROM t LIMIT 4;
-- UNION drops rows seen before, so a cycle ends
CREATE TABLE edges (src int, dst int);
INSERT INTO edges VALUES (1, 2), (2, 3), (3, 1), (3, 4), (5, 6);
WITH RECURSIVE reach(node) AS (SELECT 1 UNION SELECT e.dst FROM edges e JOIN reach r ON e.src = r.node)
SELECT * FROM reach ORDER BY node;
WITH RECURSIVE paths(node, path, depth) AS (
  SELECT 1, '1'::text, 0
  UNION ALL
  SELECT e.dst, p.path || '>' || e.dst, p.depth + 1 FROM edges e, paths p WHERE e.src = p.node AND p.depth < 4)
SELECT * FROM paths ORDER BY depth, path;
-- a tree
CREATE TABLE tree (id int, parent int, name text);
INSERT INTO tree VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1'), (5, 4, 'a1x');
WITH RECURSIVE sub AS (SELECT id, name, 0 AS lvl FROM tree WHERE id = 2
  UNION ALL SELECT t.id, t.name, s.lvl + 1 FROM tree t JOIN sub s ON t.parent = s.id)
SELECT * FROM sub ORDER BY lvl, id;
-- the recursive query read twice, and a non-recursive one in the same list
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3), d AS (SELECT n * 2 AS m FROM r)
SELECT r.n, d.m FROM r, d WHERE d.m = r.n + 1 ORDER BY 1;
EXPLAIN (COSTS OFF) WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT * FROM t;
-- the recursive term's types follow the non-recursive term
WITH RECURSIVE t(n) AS (SELECT 1::bigint UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT n * 3000000000 FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1::bigint FROM t WHERE n < 3) SELECT * FROM t;
WITH RECURSIVE t(s) AS (SELECT 'a' UNION ALL SELECT s || 'b' FROM t WHERE length(s) < 3) SELECT * FROM t;
-- beyond work_mem the stored rows and the working table go to disk
SET work_mem = '64kB';
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000),
  x AS MATERIALIZED (SELECT n, repeat('x', 30) AS pad FROM s)
SELECT count(*), sum(a.n), min(b.pad) FROM x a JOIN x b ON a.n = b.n;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000),
  w(n, k) AS (SELECT n, 0 FROM s UNION ALL SELECT n, k + 1 FROM w WHERE k < 2)
SELECT count(*), sum(k), sum(n) FROM w;
RESET work_mem;
-- WITH RECURSIVE without a self-reference is a plain WITH
WITH RECURSIVE x AS (SELECT 5 AS five) SELECT * FROM x;

-- ill-formed recursion (42P19) and what is not implemented
WITH RECURSIVE t(n) AS (SELECT n FROM t) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT n FROM t UNION ALL SELECT 1) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t, t t2 WHERE n < 3) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 2 WHERE EXISTS (SELECT 1 FROM t)) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT w.id FROM wt w LEFT JOIN t ON t.n = w.id) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM t) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t ORDER BY 1) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t LIMIT 3) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 'x'::text FROM t) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n, n FROM t) SELECT * FROM t;

-- data-modifying statements in WITH: run once, to completion, even when
-- not read; the main query sees the table as it was before the statement
CREATE TABLE dm (a int);
CREATE TABLE dm_log (a int);
INSERT INTO dm VALUES (1), (2), (3);
WITH d AS (DELETE FROM dm WHERE a >= 2 RETURNING *) INSERT INTO dm_log SELECT * FROM d;
SELECT * FROM dm ORDER BY a;
SELECT * FROM dm_log ORDER BY a;
WITH i AS (INSERT INTO dm VALUES (10), (20) RETURNING a)
SELECT (SELECT count(*) FROM dm) AS before_insert, (SELECT sum(a) FROM i) AS inserted;
WITH u AS (UPDATE dm_log SET a = a * 100 RETURNING a) SELECT * FROM u ORDER BY a;
WITH i AS (INSERT INTO dm_log VALUES (7) RETURNING a) UPDATE dm SET a = a + (SELECT a FROM i) WHERE a = 1 RETURNING *;
WITH gone AS (DELETE FROM dm_log) SELECT count(*) FROM dm;
SELECT count(*) FROM dm_log;
EXPLAIN (COSTS OFF) WITH d AS (DELETE FROM dm WHERE a = 10 RETURNING *) INSERT INTO dm_log SELECT * FROM d;
WITH t AS (INSERT INTO dm VALUES (0)) SELECT * FROM t;
SELECT * FROM (WITH t AS (UPDATE dm SET a = a + 1 RETURNING *) SELECT * FROM t) ss;
WITH RECURSIVE t AS (INSERT INTO dm SELECT * FROM t) VALUES (false);
SELECT * FROM dm ORDER BY a;
DROP TABLE wt, wt2, wt3, edges, tree, dm, dm_log;

-- privileges: tables read by a WITH query need SELECT, the target of a
-- data-modifying one its own privilege
CREATE ROLE with_reader;
CREATE TABLE wpriv (a int);
CREATE TABLE wsecret (a int);
INSERT INTO wpriv VALUES (1);
GRANT SELECT ON wpriv TO with_reader;
SET ROLE with_reader;
WITH x AS (SELECT * FROM wpriv) SELECT count(*) FROM x;
WITH x AS (SELECT * FROM wsecret) SELECT count(*) FROM x;
WITH d AS (DELETE FROM wpriv RETURNING *) SELECT count(*) FROM d;
WITH i AS (INSERT INTO wpriv VALUES (2) RETURNING *) SELECT * FROM wpriv;
RESET ROLE;
SELECT * FROM wpriv;
DROP TABLE wpriv, wsecret;
DROP ROLE with_reader;
