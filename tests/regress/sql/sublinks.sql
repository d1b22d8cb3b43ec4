-- Subqueries in expressions: correlation at any depth and in every clause,
-- op ANY/SOME/ALL (subquery), NOT IN with NULLs, EXISTS under OR, row
-- constructors in comparisons.
create table o (id int primary key, g int, v int);
create table i (id int primary key, oid int, w int);
create table k (id int, x int);
insert into o values (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, 2, null), (5, 3, 50);
insert into i values (1, 1, 5), (2, 1, 15), (3, 2, 25), (4, 3, null), (5, 9, 100);
insert into k values (1, 1), (2, null);

-- correlated EXISTS through an index scan of the inner table (the outer
-- value is a parameter of the inner index condition)
select o.id from o where exists (select 1 from i where i.id = o.id and i.w > 10) order by 1;
select o.id from o where not exists (select 1 from i where i.id = o.g) order by 1;
-- EXISTS under OR, and in the select list
select o.id from o where o.v = 50 or exists (select 1 from i where i.oid = o.id and i.w < 10) order by 1;
select o.id, exists (select 1 from i where i.oid = o.id) as has from o order by 1;

-- correlation two and three levels deep
select o.id from o
 where exists (select 1 from i where i.oid = o.id
                 and exists (select 1 from k where k.x = o.g and k.id = i.id))
 order by 1;
select o.id, (select (select max(k.id) from k where k.x = o.g and k.id <= i.id) from i where i.id = o.id) as deep
  from o order by 1;
select o.id from o where o.v > (select min(w) from i where i.oid = o.g and exists
   (select 1 from k where k.id = i.id and exists (select 1 from i i2 where i2.id = o.id))) order by 1;

-- correlation in ORDER BY, HAVING, JOIN ON and a subquery in FROM
select o.id from o order by (select count(*) from i where i.oid = o.id) desc, o.id;
select o.g, count(*) from o group by o.g
  having count(*) > (select count(*) from i where i.oid = o.g) order by 1;
select o.id, i.id from o join i on i.oid = o.id and i.w = (select max(w) from i i2 where i2.oid = o.id)
  order by 1, 2;
select o.id from o where exists (select * from (select * from i where i.oid = o.id) s where s.w > 10)
  order by 1;
select o.id from o where o.v in (select i.w * 2 from i where i.oid = o.id union all select 50) order by 1;

-- op ANY/SOME/ALL (subquery) for each comparison operator
select o.id from o where o.v > any (select w from i) order by 1;
select o.id from o where o.v < some (select w from i where w is not null) order by 1;
select o.id from o where o.v >= all (select w from i where w is not null) order by 1;
select o.id from o where o.v <> all (select w * 2 from i where w is not null) order by 1;
select o.id from o where o.v <= all (select w from i) order by 1;
select o.id, o.v = any (select w * 2 from i where i.oid = o.id) as eq_any from o order by 1;
select 5 > all (select w from i where false) as empty_all, 5 > any (select w from i where false) as empty_any;
select null::int < all (select 1) as null_all, 1 < all (select null::int) as all_null;
select 'abc' = any (select 'abc'::text) as unknown_literal;

-- NOT IN with NULLs on either side, uncorrelated and correlated
select o.id from o where o.g not in (select x from k) order by 1;
select o.id from o where o.g not in (select x from k where x is not null) order by 1;
select o.id, o.v not in (select w from i where i.oid = o.g) as not_in from o order by 1;
select null::int not in (select 1 where false) as empty_not_in, null::int in (select 1) as null_in;

-- row constructors
select (1, 2) = (1, 2) as eq, (1, 2) <> (1, 3) as ne, (1, 2) < (1, 3) as lt, (2, 1) <= (1, 9) as le,
       (1, null) < (2, 0) as lt_decided, (1, null::int) = (1, 2) as eq_null, row(1, 'a') > row(1, 'A') as gt;
select (1, 2, 3) >= (1, 2, 3) as ge, (null::int, 1) is null as isnull, row(null::int, null::int) is null as allnull,
       (1, null::int) is not null as notnull, (1, 2) is distinct from (1, null::int) as dist,
       (1, null::int) is not distinct from (1, null::int) as notdist;
select o.id from o where (o.g, o.v) in ((1, 20), (2, 30), (3, 0)) order by 1;
select o.id from o where (o.g, o.v) not in ((1, 20), (2, 30)) order by 1;
select o.id from o where (o.id, o.g) in (select i.id, i.oid from i) order by 1;
select o.id from o where (o.id, o.v) > (3, 0) order by 1;
select o.id from o where (o.id, o.g) = any (select i.id, i.oid from i where i.w > 10) order by 1;
-- a row as a value: type record, PostgreSQL's text form
select row(1, 'abc') as r, (1, null::int, 'a b', '', 'q"x', 'p(q)', 2.50) as q;
select (o.id, o.v) from o where o.id in (1, 4) order by o.id;
select pg_typeof_is_record from (select row(1) is not null as pg_typeof_is_record) s;
select row(1, 'abc') as r, (1, 2) = (1, 2) as b \gdesc

-- errors
select (1, 2) = (1, 2, 3);
select 1 where 1 in (select 1, 2);
select 1 where (1, 2) in (select 1);
select (1, 2) ~~ (1, 2);
select o.id from o where o.v > any (select 'x'::text);

drop table o, i, k;
