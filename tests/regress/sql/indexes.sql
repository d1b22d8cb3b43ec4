-- Indexes: CREATE [UNIQUE] INDEX with default and explicit names, IF NOT
-- EXISTS, DROP INDEX [IF EXISTS], PRIMARY KEY / UNIQUE in CREATE TABLE and
-- ALTER TABLE, unique violations (23505) on INSERT, UPDATE and COPY and when
-- building a unique index over duplicates, PRIMARY KEY implying NOT NULL,
-- multi-column and DESC keys, and query results through indexes (=, IN,
-- ranges, BETWEEN, ORDER BY ... LIMIT both ways, NULLs). Results only: plans
-- are checked by tests/integration/index_test.cpp.
-- Default verbosity with the SQLSTATE echoed after each error: under
-- VERBOSITY verbose PostgreSQL adds SCHEMA NAME / TABLE NAME / CONSTRAINT
-- NAME (COLUMN NAME for ALTER's 23502) lines that hearthd does not send yet.

-- names chosen by default
create table t (a int, b text, c int);
create index on t (a);
create index on t (a);
create index on t (b, c);
create unique index on t (c);
create index t_named on t (a desc);
insert into t values (1, 'x', 7), (2, 'y', 7);
\echo :LAST_ERROR_SQLSTATE

-- IF NOT EXISTS, duplicate names, bad columns, missing tables
create index if not exists t_named on t (b);
create index t_named on t (b);
\echo :LAST_ERROR_SQLSTATE
create index t on t (b);
\echo :LAST_ERROR_SQLSTATE
create index t_bad on t (nosuch);
\echo :LAST_ERROR_SQLSTATE
create index t_bad2 on nosuchtable (a);
\echo :LAST_ERROR_SQLSTATE
create index if not exists t_bad3 on t (nosuch);
\echo :LAST_ERROR_SQLSTATE

-- DROP INDEX
drop index t_named;
drop index t_named;
\echo :LAST_ERROR_SQLSTATE
drop index if exists t_named;
drop index t_a_idx, t_a_idx1;
-- (left out: DROP INDEX of a table. PostgreSQL: 42809 "t" is not an index,
-- HINT Use DROP TABLE to remove a table; hearthd: 42704 index "t" does not exist.)
drop index t_b_c_idx;
drop index t_b_c_idx;
\echo :LAST_ERROR_SQLSTATE
-- dropping the table drops its remaining index (t_c_idx)
drop table t;
drop index t_c_idx;
\echo :LAST_ERROR_SQLSTATE
create table t (c int);
create unique index on t (c);
insert into t values (1), (1);
\echo :LAST_ERROR_SQLSTATE
drop table t;

-- PRIMARY KEY and UNIQUE in CREATE TABLE: default names, NOT NULL
create table p (id int primary key, code text unique, note text);
insert into p values (1, 'a', 'one'), (2, 'b', 'two'), (3, null, 'three'), (4, null, 'four');
insert into p values (1, 'c', 'dup id');
\echo :LAST_ERROR_SQLSTATE
insert into p values (5, 'a', 'dup code');
\echo :LAST_ERROR_SQLSTATE
insert into p values (null, 'z', 'null id');
\echo :LAST_ERROR_SQLSTATE
insert into p (code) values ('zz');
\echo :LAST_ERROR_SQLSTATE
insert into p values (6, 'f', 'six'), (7, 'g', 'seven'), (6, 'h', 'dup in one statement');
\echo :LAST_ERROR_SQLSTATE
select * from p order by id;
update p set id = 2 where id = 1;
\echo :LAST_ERROR_SQLSTATE
update p set code = 'b' where id = 1;
\echo :LAST_ERROR_SQLSTATE
update p set id = id + 10 where id = 3;
select * from p order by id;
create table p (x int);
\echo :LAST_ERROR_SQLSTATE
create table p2 (a int, b int, primary key (a, b), unique (b));
insert into p2 values (1, 1), (1, 2), (2, 3);
insert into p2 values (1, 1);
\echo :LAST_ERROR_SQLSTATE
insert into p2 values (3, 1);
\echo :LAST_ERROR_SQLSTATE
insert into p2 values (null, 5);
\echo :LAST_ERROR_SQLSTATE
select * from p2 order by a, b;
-- (left out: two PRIMARY KEY clauses. Both answer 42P16 multiple primary keys
-- for table "twopk" are not allowed; PostgreSQL adds the position (LINE 1 with
-- a caret under the second PRIMARY KEY), hearthd sends none.)
drop table p, p2;

-- ALTER TABLE ... ADD PRIMARY KEY / UNIQUE
create table q (a int, b text);
-- (left out: duplicates AND nulls in the column. PostgreSQL 15 reports the
-- duplicate (23505 could not create unique index "q_pkey"), hearthd the
-- null (23502 column "a" of relation "q" contains null values).)
insert into q values (1, 'x'), (2, 'y'), (2, 'z');
alter table q add primary key (a);
\echo :LAST_ERROR_SQLSTATE
delete from q where b = 'z';
insert into q values (null, 'w');
alter table q add primary key (a);
\echo :LAST_ERROR_SQLSTATE
delete from q where a is null;
alter table q add primary key (a);
alter table q add constraint q_b_uniq unique (b);
alter table q add primary key (b);
\echo :LAST_ERROR_SQLSTATE
insert into q values (3, 'x');
\echo :LAST_ERROR_SQLSTATE
insert into q values (1, 'new');
\echo :LAST_ERROR_SQLSTATE
drop table q;
drop index if exists q_pkey;
drop index if exists q_b_uniq;

-- CREATE UNIQUE INDEX over duplicates
create table u (a int, b text);
insert into u values (1, 'x'), (2, 'y'), (1, 'z'), (null, 'n1'), (null, 'n2');
create unique index u_a on u (a);
\echo :LAST_ERROR_SQLSTATE
create unique index u_b on u (b);
create unique index u_ab on u (a, b);
insert into u values (1, 'x');
\echo :LAST_ERROR_SQLSTATE
insert into u values (null, 'n1');
\echo :LAST_ERROR_SQLSTATE
select * from u order by a, b;
drop table u;

-- UNIQUE violations from COPY
create table cp (id int primary key, name text);
copy cp from stdin;
1	one
2	two
\.
-- (left out: a duplicate key in COPY. Both answer 23505 with the same message
-- and detail; PostgreSQL adds CONTEXT:  COPY cp, line 2, hearthd sends no
-- CONTEXT. tests/integration/index_test.cpp checks COPY's 23505.)
select * from cp order by id;

-- a unique violation aborts the transaction block; savepoint-free retry after rollback
begin;
insert into cp values (5, 'five');
insert into cp values (2, 'again');
\echo :LAST_ERROR_SQLSTATE
select 1;
\echo :LAST_ERROR_SQLSTATE
rollback;
select * from cp order by id;
drop table cp;

-- text and multi-column keys with DESC and NULLS
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table mk (a int, b text, c int);
insert into mk select i % 10, 'k' || (i % 7), i
  from (select x.d * 100 + y.d * 10 + z.d + 1 as i from digits x, digits y, digits z) n where i <= 200;
insert into mk values (null, 'knull', 1000), (3, null, 1001), (null, null, 1002);
create index mk_ab on mk (a, b desc);
create unique index mk_c on mk (c);
create index mk_b on mk (b nulls first);
select count(*) from mk where a = 3;
select a, b, c from mk where a = 3 and b = 'k2' order by c;
select c from mk where a = 3 and b is null;
select a, count(*) from mk where a in (1, 5, 9, 42) group by a order by a;
select c from mk where c in (7, 70, 700, 1002) order by c;
select count(*) from mk where a > 7;
select count(*) from mk where a >= 7;
select count(*) from mk where a < 2;
select count(*) from mk where a <= 2;
select count(*) from mk where a between 4 and 6;
select count(*) from mk where a between 6 and 4;
select count(*) from mk where a is null;
select c from mk where a is null order by c;
select c from mk where c between 195 and 205 order by c;
select c from mk where c > 198 and c < 1001 order by c;
select b, count(*) from mk where b >= 'k5' group by b order by b;
select c from mk order by c limit 5;
select c from mk order by c desc limit 5;
select a, b from mk order by a, b desc limit 4;
select a, b from mk order by a desc, b limit 4;
select a from mk order by a nulls first limit 3;
select a from mk order by a desc limit 3;
select a from mk order by a desc nulls last limit 3;
select b from mk order by b limit 3;
select b from mk order by b nulls first limit 3;
select b from mk order by b desc limit 3;
select c from mk where a = 9 order by c desc limit 3;
select c from mk where c >= 100 order by c limit 3 offset 2;
select count(*) from mk where c = null;

-- updates and deletes keep the indexes in step with the heap
update mk set c = c + 10000 where c <= 100;
select count(*) from mk where c <= 100;
select count(*) from mk where c > 10000;
select c from mk where c in (10001, 10100, 100) order by c;
delete from mk where a = 3;
select count(*) from mk where a = 3;
select count(*) from mk where a between 2 and 4;
vacuum mk;
select count(*) from mk where a between 2 and 4;
select min(c), max(c) from mk;
update mk set c = 5 where c = 10001;
update mk set c = 5 where c = 10002;
\echo :LAST_ERROR_SQLSTATE
select c, a from mk where c = 5;
drop index mk_c;
update mk set c = 5 where c = 10002;
select count(*) from mk where c = 5;
drop table mk;

-- other key types
create table ty (n numeric primary key, d date unique, ts timestamp, f boolean, v varchar(10));
create index ty_ts on ty (ts);
create index ty_fv on ty (f, v);
insert into ty values (1.5, '2026-01-01', '2026-01-01 10:00', true, 'x'),
  (2.50, '2026-02-01', '2026-02-01 10:00', false, 'y'),
  (-3, '2025-12-31', null, null, 'z');
insert into ty values (2.5, '2026-03-01', null, true, 'w');
\echo :LAST_ERROR_SQLSTATE
insert into ty values (9, '2026-01-01', null, true, 'w');
\echo :LAST_ERROR_SQLSTATE
select n from ty where n = 2.5;
select n from ty where n between -5 and 2 order by n;
select d from ty where d > '2026-01-01' order by d;
select ts from ty where ts < '2026-01-15' order by ts;
select n from ty where f = true and v = 'x';
select n from ty order by d desc limit 2;
drop table ty;

-- PREPARE / EXECUTE through an index
create table pe (id int primary key, v text);
insert into pe select i, 'v' || i
  from (select x.d * 100 + y.d * 10 + z.d + 1 as i from digits x, digits y, digits z) n;
prepare get(int) as select v from pe where id = $1;
execute get(1);
execute get(500);
execute get(1001);
prepare ins(int, text) as insert into pe values ($1, $2);
execute ins(1001, 'new');
execute ins(1001, 'again');
\echo :LAST_ERROR_SQLSTATE
execute get(1001);
deallocate all;
drop table pe, digits;
