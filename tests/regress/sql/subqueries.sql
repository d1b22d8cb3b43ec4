-- Subqueries: scalar (correlated and not), IN / NOT IN, EXISTS / NOT EXISTS,
-- subqueries in FROM, ANY-style comparisons, set operations, and errors.
\set VERBOSITY verbose
create table c (id int, name text, city text);
create table o (id int, cust int, amount numeric(8,2));
insert into c values (1, 'ann', 'oslo'), (2, 'bob', 'rome'), (3, 'cid', 'oslo'), (4, 'dee', null);
insert into o values (10, 1, 5.00), (11, 1, 7.50), (12, 2, 20.00), (13, 9, 1.00);

select name, (select count(*) from o where o.cust = c.id) as n from c order by name;
select name, (select sum(amount) from o where o.cust = c.id) as total from c order by name;
select (select max(amount) from o) as maxo, (select count(*) from c) as nc;
select name from c where id in (select cust from o) order by name;
select name from c where id not in (select cust from o) order by name;
select name from c where exists (select 1 from o where o.cust = c.id and amount > 6) order by name;
select name from c where not exists (select * from o where o.cust = c.id) order by name;
select id from o where cust not in (select id from c) order by id;
select id, amount from o where amount > (select avg(amount) from o) order by id;
select name from c where city = (select city from c where name = 'cid') order by name;
select name from c where id = any (select cust from o) order by name;
select name from c where id in (select cust from o where amount > (select min(amount) from o)) order by name;

-- FROM subqueries, nested
select t.city, t.n from (select city, count(*) as n from c group by city) t order by t.city nulls last;
select * from (select * from (select id, name from c where id < 4) a where id > 1) b order by id;
select avg(total) from (select cust, sum(amount) as total from o group by cust) s;
select s.name, s.total from (select c.name, sum(o.amount) as total from c join o on o.cust = c.id group by c.name) s order by s.total desc;

-- set operations
select city from c union select 'paris' order by 1;
select city from c union all select city from c order by 1;
select cust from o intersect select id from c order by 1;
select id from c except select cust from o order by 1;
select id from c except all select cust from o order by 1;
select 1 union select 2 intersect select 2 order by 1;

-- errors
select name, (select id from o) from c;
select (select id, cust from o where id = 10);
select name from c where id in (select id, cust from o);
-- select 1 union select 'a': hearthd reports the 22P02 without its
-- position; not scripted until set operations carry literal positions.
select id from c union select id, name from c;
select * from (select 1);

drop table c, o;
