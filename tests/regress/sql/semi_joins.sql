-- [NOT] EXISTS at the top of WHERE as Hash Semi / Anti Joins, and EXISTS
-- elsewhere (under OR, NOT, in the select list, in ON, nested) as hashed
-- subplans: same answers as a per-row subquery, NULLs included.
create table so (id int, a int, b text);
create table si (id int, x int, y text, z int);
insert into so values (1, 1, 'one'), (2, 2, 'two'), (3, null, 'three'), (4, 4, null), (5, 5, 'five'), (6, 1, 'six');
insert into si values (1, 1, 'one', 10), (2, 2, 'deux', 20), (3, null, 'three', 30), (4, 4, null, null), (5, 1, 'uno', 50);
select * from so where exists (select 1 from si where si.x = so.a) order by id;
explain (costs off) select * from so where not exists (select 1 from si where si.x = so.a);
select * from so where not exists (select 1 from si where si.x = so.a) order by id;
-- several keys, an inner-only condition, a condition on outer values only
select id from so where exists (select * from si where si.x = so.a and so.b = si.y) order by 1;
select id from so where exists (select * from si where si.x = so.a and si.z > 15) order by 1;
select id from so where exists (select 1 from si where si.x = so.a and so.id > 2) order by 1;
select id from so where not exists (select 1 from si where si.x = so.a and so.id > 2) order by 1;
-- keys across types of one hash class, expressions, LIMIT that changes nothing
select id from so where exists (select 1 from si where si.x::int8 + 0 = so.a * 1 limit 1) order by 1;
select id from so where exists (select 1 from si where si.x = so.a limit null) order by 1;
-- under OR, NOT, in the select list: hashed subplans
select id from so where exists (select 1 from si where si.x = so.a) or id = 3 order by 1;
select id from so where not (exists (select 1 from si where si.x = so.a) and id < 5) order by 1;
select id, exists (select 1 from si where si.x = so.a) as e, not exists (select 1 from si where si.y = so.b) as ne from so order by 1;
-- in a join's ON clause and with a parameter
prepare q(bool) as select count(*) from so left join si on so.id = si.id and exists (select 1 from si s2 where s2.x = si.z / 10 and $1);
execute q(true);
execute q(false);
deallocate q;
-- nested: the inner NOT EXISTS reads the outermost query
select s1.id from so s1, so s2 where s1.a = s2.a
  and exists (select 1 from si where si.x = s2.a and not exists (select 1 from si s3 where s3.z = s1.id * 10))
  order by 1;
-- correlation that is no plain equality keeps the per-row subquery
select id from so where exists (select 1 from si where si.x < so.a) order by 1;
select id from so where exists (select 1 from si where si.x = so.a or si.z = so.id * 10) order by 1;
-- an aggregate in the select list: always one row
select id from so where exists (select max(si.x) from si where si.x = so.a) order by 1;
-- UPDATE and DELETE with EXISTS
begin;
update so set b = 'hit' where exists (select 1 from si where si.x = so.a);
select * from so order by id;
delete from so where not exists (select 1 from si where si.x = so.a);
select id from so order by id;
rollback;
-- EXISTS in a subquery in FROM and with several FROM items inside
select * from (select id from so where exists (select 1 from si, si s2 where si.x = so.a and s2.id = si.id)) ss order by 1;
-- scalar subqueries correlated by equalities: one pass over the subquery,
-- NULL for no row, the value computed only for a probed key, 21000 only
-- when a probed key has several rows
select id, (select si.y from si where si.id = so.id) from so order by id;
select id, (select 100 / (si.z - 30) from si where si.id = so.id + 1 and so.id <> 2 and si.id < 5) from so order by id;
select id, (select si.z from si where si.x = so.a and si.id <> 5) from so order by id;
select id, (select si.z from si where si.x = so.a) from so order by id;
select count(*) from so where (select si.id from si where si.id = so.id and si.y = so.b) is not null;
drop table so, si;
