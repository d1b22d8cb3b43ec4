-- ORDER BY over more rows than work_mem holds (the sort spills to disk),
-- with LIMIT/OFFSET, several keys and directions, NULLs, DISTINCT and
-- GROUP BY over many groups. Rows are generated with a cross join; values
-- are a fixed permutation so the output is deterministic.
set work_mem = '64kB';
show work_mem;
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table big (k int, v int, s text, f double precision, n numeric(12,3), dt date);
insert into big (k)
  select a.d * 10000 + b.d * 1000 + c.d * 100 + e.d * 10 + g.d
  from digits a, digits b, digits c, digits e, digits g where a.d < 2;
update big set v = (k * 7919) % 20000,
               s = 'row ' || ((k * 37) % 1000)::text,
               f = ((k * 7919) % 20000) / 8.0,
               n = ((k * 13) % 2000) / 7.0,
               dt = date '2026-01-01' + (k % 400);
update big set v = null, s = null where k % 1000 = 999;
select count(*), count(v), sum(k), min(v), max(v), count(distinct v) from big;

-- first and last rows of full sorts
select k, v from big order by v limit 5;
select k, v from big order by v desc nulls last limit 5;
select k, v from big order by v nulls first, k limit 3;
select k, v from big order by v, k offset 19975;
select k, v from big order by v limit 3 offset 10000;
select k, s from big order by s, k limit 5;
select k, s from big order by s desc, k desc limit 5;
select k, f from big order by f desc nulls last, k limit 4;
select k, n from big order by n, k limit 4;
select k, n from big order by n desc, k desc limit 4;
select k, dt from big order by dt desc, k limit 4;
select k, v % 100 as m from big order by v % 100, k desc limit 5 offset 5000;

-- a sort whose every row is needed: the top half must be exactly the keys below the median
select count(*), sum(v), min(v), max(v) from (select v from big where v is not null order by v limit 9990) x;
select count(*), sum(k) from (select k from big order by k desc offset 15000) x;

-- DISTINCT and GROUP BY over many groups
select count(*) from (select distinct v % 5000 from big) x;
select count(*), sum(c), max(c) from (select v % 3000 as g, count(*) as c from big group by v % 3000) x;
select g, c from (select s as g, count(*) as c from big group by s) x order by c desc, g nulls first limit 3;
select distinct (v % 7) as r from big order by r nulls first;

-- sort after a join, and ORDER BY of a set operation
select count(*), sum(a.k) from big a join big b on a.k = b.v where a.k < 20000;
select a.k, b.k from big a join big b on a.k = b.v where a.k < 5 order by a.k;
select k from big where k < 3 union all select v from big where v < 3 order by 1;
select v from big where k < 5000 except select v from big where k >= 5000 order by 1 limit 5;

-- a second sort in the same session after the first ones spilled
reset work_mem;
show work_mem;
select k, v from big order by v desc nulls last limit 2;
drop table big, digits;
