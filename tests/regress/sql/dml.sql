-- DML: INSERT (multi-row VALUES, column lists, DEFAULT, INSERT ... SELECT,
-- RETURNING), UPDATE and DELETE with WHERE and RETURNING, type coercion and
-- constraint errors, and that failed statements change nothing.
\set VERBOSITY verbose

create table items (id int not null, name text, price numeric(8,2), qty int default 0);
insert into items values (1, 'apple', 0.5, 10), (2, 'banana', 0.25, 20), (3, 'cherry', 3, 5);
insert into items (id, name) values (4, 'date');
insert into items (name, id, price) values ('elder', 5, 1.999);
insert into items values (6, 'fig', default, default) returning *;
insert into items values (7, 'grape', 2, 1), (8, 'honeydew', 4.5, 2) returning id, name || '!' as shout, price * qty as total;
select * from items order by id;

-- coercions: int literal into numeric, numeric into int, text-literal into int
insert into items values ('9', 'kiwi', 1, 2.6);
select id, qty from items where id = 9;

-- errors leave the table unchanged
insert into items values (10, 'lemon', 1, 'many');
insert into items (id, name) values (null, 'nullid');
insert into items values (11, 'x', 1, 1, 1);
insert into items (nosuchcol) values (1);
insert into items (id, id) values (1, 2);
insert into items values (12, 'y', 1, 1), (13, 'z', 1, 1 / 0);
select count(*) from items;

-- INSERT ... SELECT
create table cheap (id int, name text);
insert into cheap select id, name from items where price < 1;
insert into cheap (name, id) select upper(name), id + 100 from items where id > 7 returning id, name;
select * from cheap order by id;

-- UPDATE
update items set qty = qty + 1 where id <= 3;
update items set price = price * 2, name = name || '2' where price > 2 returning id, name, price;
update items set qty = 0 where false;
update items set qty = null where id = 4 returning *;
select * from items order by id;
update items set id = null where id = 1;
update items set nosuch = 1;
update items set qty = 'abc' where id = 1;
select id, qty from items where id = 1;

-- UPDATE with a subquery in SET and WHERE
update items set qty = (select count(*) from cheap) where id in (select id from cheap where id < 100);
select id, qty from items order by id;

-- DELETE
delete from items where qty is null returning id, name;
delete from items where id > 100;
delete from items where price > (select avg(price) from items) returning id;
select id, name from items order by id;
delete from cheap;
select count(*) from cheap;

-- statements in a transaction see their own changes; rollback undoes them
begin;
insert into cheap values (1, 'a');
update cheap set name = 'b' where id = 1;
select * from cheap;
delete from cheap;
select count(*) from cheap;
insert into cheap values (2, 'c');
rollback;
select count(*) from cheap;

-- the same row updated twice in one transaction
begin;
insert into cheap values (1, 'one');
commit;
begin;
update cheap set name = name || '+' where id = 1;
update cheap set name = name || '+' where id = 1;
commit;
select * from cheap;

-- a failed statement inside a transaction block
begin;
insert into cheap values (2, 'two');
insert into cheap values ('bad', 'three');
select * from cheap;
commit;
select * from cheap order by id;

drop table items, cheap;
