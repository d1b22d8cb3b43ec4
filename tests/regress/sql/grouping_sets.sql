-- GROUP BY GROUPING SETS / ROLLUP / CUBE, GROUPING(); ORDER BY ... USING.
create table gs (a int, b text, v int);
insert into gs values (1, 'x', 10), (1, 'y', 20), (2, 'x', 30), (2, null, 40), (3, 'z', 50);
select a, b, sum(v), count(*) from gs group by grouping sets ((a, b), (a), ()) order by a, b, 3;
select a, b, sum(v) from gs group by rollup (a, b) order by a nulls first, b nulls first, 3;
select a, b, sum(v), grouping(a, b), grouping(b) from gs group by cube (a, b) order by 4, 1, 2;
select a, b, count(*) from gs group by a, rollup (b) order by 1, 2;
select grouping(a), a, sum(v) from gs group by rollup (a) having sum(v) > 40 order by 2;
select a, b, sum(v) from gs group by grouping sets (a, b) order by 1, 2;
select a, sum(v) from gs group by grouping sets ((), a, (a)) order by 1, 2;
select a + 1 as a1, sum(v) from gs group by rollup (a + 1) order by 1;
select count(*) from gs group by grouping sets (());
select count(*), sum(v) from gs where false group by grouping sets ((), a);
select a, sum(v) filter (where v > (select 15)), (select max(v) from gs) as m from gs group by rollup (a) order by 1;
select a, grouping(a) from gs group by a order by a;
select a, b, string_agg(b, ',' order by b), count(distinct b) from gs group by rollup (a, b) order by 1, 2;
select * from (select a, b, sum(v) s from gs group by cube (a, b)) c where a is null and b is null order by s;
-- errors
select a, grouping(b) from gs group by a;
select a, b from gs group by rollup (a);
select a from gs group by ();
-- ORDER BY ... USING
select a, v from gs order by a using >, v using <;
drop table gs;
