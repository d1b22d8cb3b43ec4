-- Set-returning functions in FROM and in the select list, LATERAL, VALUES
-- in FROM (PostgreSQL 15 semantics).
\set VERBOSITY verbose
-- generate_series in FROM: names, aliases, steps, types
select * from generate_series(1, 3);
select * from generate_series(1, 3) g;
select x from generate_series(1, 3) as g(x);
select * from generate_series(1, 10, 3);
select * from generate_series(5, 1, -2);
select * from generate_series(1, 10, -1);
select * from generate_series(3, 1);
select * from generate_series(null::int, 3);
select * from generate_series(1::int8, 3) s;
select * from generate_series(4294967296, 4294967298) big;
select * from generate_series(2147483645, 2147483647);
select * from generate_series(9223372036854775806, 9223372036854775807);
select * from generate_series(-2147483647, -2147483648, -1);
select * from generate_series(1.5, 3, 0.5);
select * from generate_series(1, 3.3, 1.1);
select * from generate_series(1, 3) g where g > 1;
select sum(g), count(*), max(g) from generate_series(1, 100) g;
select g, g * 2 as twice from generate_series(1, 3) g order by g desc;
-- WITH ORDINALITY and ROWS FROM
select * from generate_series(10, 12) with ordinality;
select * from generate_series(10, 12) with ordinality as t;
select * from generate_series(10, 12) with ordinality as t(v, n);
select * from rows from (generate_series(1, 2), generate_series(1, 3));
select * from rows from (generate_series(1, 2), generate_series(1, 3)) with ordinality as r(a, b, o);
select * from rows from (generate_series(1, 2)) r;
select * from rows from (generate_series(1, 3), upper('x')) z;
-- scalar functions in FROM
select * from upper('abc');
select * from upper('abc') u;
select * from upper('abc') as u(v);
select u from abs(-4) u;
select * from lower('A') with ordinality;
-- errors
select * from generate_series(1, 3, 0);
select * from generate_series(1.0, 3, 0);
select * from generate_series('1'::numeric, 'NaN');
select * from generate_series('NaN'::numeric, 1);
select * from generate_series(1, 3, 'NaN'::numeric);
select * from nosuch_function(1);
select * from generate_series(1, 'a');
select * from generate_series(1, 2) a(x, y);
select * from generate_series(1, 2) with ordinality a(x, y, z);
select * from generate_series(generate_series(1, 2), 3);
select * from generate_series(sum(1), 3);
select * from generate_series(1, x);
-- EXPLAIN
explain (costs off) select * from generate_series(1, 3);
explain (costs off) select * from generate_series(1, 3) g;
explain (costs off) select * from generate_series(1, 3) g where g > 1;
explain (costs off) select * from rows from (generate_series(1, 2), generate_series(1, 3));
explain (costs off) select * from rows from (generate_series(1, 2), generate_series(1, 3)) r;
explain (costs off) select * from upper('a');
-- INSERT ... SELECT from a series
create table srf_t (a int, b text);
insert into srf_t select g, 'row ' || g from generate_series(1, 100000) g;
select count(*), sum(a), min(b), max(a) from srf_t;
insert into srf_t (a) select * from generate_series(1, 3);
select count(*) from srf_t where b is null;
drop table srf_t;
-- SRFs in the select list (ProjectSet)
select generate_series(1, 3);
select generate_series(1, 3) as g, 'x' as c;
select generate_series(1, 3), generate_series(1, 2);
select generate_series(1, 2), generate_series(1, 0);
select generate_series(1, 3) + 1 as plus;
select generate_series(1, 3) as g order by g desc;
select generate_series(1, 3) order by generate_series(1, 3) desc;
create table srf_u (a int, n int);
insert into srf_u values (1, 2), (2, 0), (3, 3), (4, null);
select a, generate_series(1, n) from srf_u order by 1, 2;
select generate_series(1, 2) as g, a from srf_u order by 2, 1;
select count(*), generate_series(1, 2) from srf_u;
select n, generate_series(1, 2) from srf_u where n is not null group by n order by n desc, 2;
select distinct generate_series(1, 3) % 2 as m from srf_u order by m;
select generate_series(1, a) as g from srf_u order by g limit 4;
explain (costs off) select generate_series(1, 3);
explain (costs off) select generate_series(1, 3), a from srf_u;
select case when true then generate_series(1, 2) end;
select coalesce(generate_series(1, 2), 0);
select sum(generate_series(1, 3));
select 1 where generate_series(1, 2) > 1;
select count(*) from srf_u having generate_series(1, 2) > 0;
select * from srf_u a join srf_u b on generate_series(1, 2) = 1;
select generate_series(1, 3) limit generate_series(1, 2);
select a from srf_u order by generate_series(1, 2) limit 1;
-- LATERAL
create table srf_v (a int, b text);
insert into srf_v values (1, 'x'), (1, 'y'), (3, 'z');
select * from srf_u, lateral (select * from srf_v where srf_v.a = srf_u.a) s order by 1, 4;
select * from srf_u, lateral generate_series(1, srf_u.n) g order by 1, 3;
select * from srf_u, generate_series(1, n) g order by 1, 3;
select * from srf_u, generate_series(1, n) with ordinality g(v, o) where o > 1 order by 1, 3;
select * from srf_u left join lateral (select b from srf_v where srf_v.a = srf_u.a) s on true order by 1, 3;
select * from srf_u left join lateral generate_series(1, srf_u.n) g on g > 1 order by 1, 3;
select * from srf_u join lateral (select srf_u.a * 10 as t) s on true order by 1;
select * from srf_u u, lateral (select count(*) as c from srf_v v where v.a = u.a) s order by 1;
select * from srf_u u, lateral (select b from srf_v v where v.a = u.a order by b desc limit 1) s order by 1;
select * from srf_u, lateral (select * from srf_v where srf_v.a = srf_u.a) s where s.b <> 'x' order by 1, 4;
select * from lateral (select 1 as one) s;
select * from srf_u where a in (select g from generate_series(1, srf_u.n) g) order by 1;
select (select sum(g) from generate_series(1, srf_u.n) g) as s from srf_u order by 1;
explain (costs off) select * from srf_u, generate_series(1, srf_u.n) g;
explain (costs off) select * from srf_u left join lateral generate_series(1, srf_u.n) g on true;
select * from srf_u, (select * from srf_v where srf_v.a = srf_u.a) s;
select * from srf_u, (select a from srf_v where srf_v.a = n) s;
select * from srf_u full join lateral (select srf_u.a) s on true;
select * from srf_u right join lateral (select srf_u.a) s on true;
select * from (select * from srf_v where srf_v.a = zz.a) s, srf_u zz;
prepare lat(int) as select u.a, g from srf_u u, generate_series($1, u.n) g order by 1, 2;
execute lat(2);
execute lat(3);
deallocate lat;
-- VALUES in FROM
select * from (values (1, 'a'), (2, 'b')) as v(id, name);
select * from (values (1, 'a'), (2, 'b')) as v(id);
select * from (values (1, 'a'), (2, 'b')) as v;
select v.name from (values (1, 'a'), (2, 'b')) v(id, name) where id = 2;
select * from (values (1, 'a'), (2, 'b')) v(a, b, c);
select * from srf_u join (values (1, 'one'), (3, 'three')) as w(k, label) on srf_u.a = w.k order by 1;
explain (costs off) select * from (values (1, 'a'), (2, 'b')) as v(id, name);
drop table srf_u;
drop table srf_v;
