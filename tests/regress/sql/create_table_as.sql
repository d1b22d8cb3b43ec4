-- CREATE TABLE ... AS and SELECT ... INTO: column names and types from the query (or the
-- given names), rows loaded through the bulk path, WITH NO DATA, IF NOT
-- EXISTS, errors, and transactional behaviour.
\set VERBOSITY verbose
create table src (a int, b text, c numeric(8,2), d varchar(10), e date);
insert into src values (1, 'one', 1.5, 'x', '2026-01-01'), (2, 'two', 2.25, 'y', '2026-02-01'),
  (3, null, null, null, null);
create table t1 as select * from src;
select * from t1 order by a;
create table t2 (x, y) as select a * 10, b || '!' from src where a < 3;
select * from t2 order by x;
-- fewer names than columns: the rest keep the query's names
create table t3 (first) as select a, b from src order by a;
select * from t3 order by first;
-- literals: unknown becomes text
create table t4 as select 'lit' as l, 42 as n, 1.5 as f;
select l, n, f, l || 'x' as lx, n + 1 as n1 from t4;
create table t4 as select 1;
create table if not exists t4 as select 1;
create table t5 as select * from src with no data;
select count(*) from t5;
insert into t5 select * from src where a = 2;
select * from t5;
create table t6 (p, q, r, s, t, u) as select * from src;
create table t6 (p, p) as select a, b from src;
create table t6 as select nosuch from src;
-- many rows, then the copy answers the same aggregates as the source
create table big as select a.a * 1000 + b.a as k, repeat('p', 50) as pad
  from (select a from src union all select a + 3 from src union all select a + 6 from src) a,
       (select a from src union all select a + 3 from src union all select a + 6 from src) b;
select count(*), sum(k), min(length(pad)) from big;
-- transactional: a rolled back CREATE TABLE AS leaves nothing
begin;
create table t7 as select * from src;
select count(*) from t7;
rollback;
select count(*) from t7;
drop table src, t1, t2, t3, t4, t5, big;

-- SELECT ... INTO: the same through the SELECT statement
create table si_src (a int, b text);
insert into si_src values (1, 'one'), (2, 'two'), (3, 'three');
select * into si1 from si_src where a < 3;
select * from si1 order by a;
select a * 2 as d, b into table si2 from si_src;
select * from si2 order by d;
select a into si3 from si_src union all select a + 10 from si_src;
select * from si3 order by a;
select a into si1 from si_src;
select count(*) from (select a into si5 from si_src) s;
insert into si_src select a into si6 from si_src;
select a from si_src union select a into si7 from si_src;
begin;
select a into si8 from si_src;
select count(*) from si8;
rollback;
select count(*) from si8;
drop table si_src, si1, si2, si3;
