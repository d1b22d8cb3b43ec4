-- Hypothetical-set aggregates (rank, dense_rank, percent_rank, cume_dist
-- WITHIN GROUP) with NULLs, directions, several keys, type unification
-- and PostgreSQL's errors; percentile_cont/disc over arrays of fractions.
select rank(3) within group (order by x) from (values (1),(2),(3),(3),(null),(5)) v(x);
select dense_rank(3) within group (order by x) , percent_rank(3) within group (order by x), cume_dist(3) within group (order by x) from (values (1),(2),(3),(3),(null),(5)) v(x);
select rank(3) within group (order by x desc nulls last), rank(null) within group (order by x), rank(null::int) within group (order by x nulls first) from (values (1),(2),(3),(3),(null),(5)) v(x);
select rank(1, 2) within group (order by x) from (values (1)) v(x);
select rank(1) within group (order by x, x) from (values (1)) v(x);
select rank('a') within group (order by x) from (values (1)) v(x);
select rank(1.5) within group (order by x), pg_typeof(rank(1.5) within group (order by x)) from (values (1),(2)) v(x);
select rank(1) within group (order by x), percent_rank(1) within group (order by x), cume_dist(1) within group (order by x), dense_rank(1) within group (order by x) from (values (1)) v(x) where false;
select rank(1);
select rank(2, 'b') within group (order by x, y) from (values (1,'a'),(2,'a'),(2,'c')) v(x, y);
select percentile_cont(array[0, 0.25, 0.5, 1]) within group (order by x), percentile_disc(array[0.5, null, 1]) within group (order by x) from (values (1),(2),(3),(4)) v(x);
select percentile_cont(array[0.5, 2]) within group (order by x) from (values (1)) v(x);
select percentile_disc(array[0.5]::float8[]) within group (order by x) from (values (1)) v(x) where false;
select percentile_cont(array[[0.5, 0.1],[0.2,0.3]]) within group (order by x) from (values (1),(2)) v(x);
select pg_typeof(percentile_disc(array[0.5]) within group (order by x)) from (values ('a'::text)) v(x);
create table hy (g int, x int, y text);
insert into hy values (1, 10, 'a'), (1, 20, 'b'), (1, 20, 'c'), (2, 5, null), (2, null, 'x'), (3, 7, 'q');
select g, rank(20) within group (order by x), dense_rank(20) within group (order by x desc), percent_rank(15) within group (order by x), cume_dist(20) within group (order by x) from hy group by g order by g;
select g, rank(20, 'b') within group (order by x, y desc) from hy group by g order by g;
select g, percentile_disc(array[0, 0.5, 1]) within group (order by y), percentile_cont(array[0.5]) within group (order by x) from hy group by g order by g;
select rank(5) within group (order by x) filter (where g > 1) from hy;
drop table hy;
