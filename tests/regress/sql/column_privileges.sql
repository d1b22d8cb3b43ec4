-- column privileges: GRANT/REVOKE with column lists, pg_attribute.attacl, checks at execution
create role c_own login;
create role c_r login;
create role c_w login;
set role c_own;
create table c_t (a int, b text, c int);
insert into c_t values (1, 'one', 10);
grant select (a, b), update (c) on c_t to c_r;
grant insert (a, c) on c_t to c_w;
grant references (a) on c_t to c_w with grant option;
select attname, attacl from pg_attribute where attrelid = 'c_t'::regclass and attnum > 0 order by attnum;
select relacl from pg_class where relname = 'c_t';
select has_column_privilege('c_r', 'c_t', 'a', 'select') as r_a,
       has_column_privilege('c_r', 'c_t', 'c', 'select') as r_c,
       has_column_privilege('c_r', 'c_t', 'c', 'update') as r_upd_c,
       has_column_privilege('c_w', 'c_t', 'a', 'references with grant option') as w_ref_go,
       has_column_privilege('c_own', 'c_t', 'b', 'insert') as own,
       has_column_privilege('c_t', 'b', 'update') as mine;
select has_column_privilege('c_r', 'c_t', 'nosuch', 'select');
select has_column_privilege('c_r', 'c_t', 'a', 'delete');
reset role;
set role c_r;
select * from c_t;
select a, b from c_t;
select a from c_t where c = 10;
select count(*) from c_t;
select b from c_t order by a;
update c_t set c = 11;
update c_t set c = c + 1;
update c_t set c = a + 1;
update c_t set c = 5 where a = 1;
update c_t set b = 'x';
update c_t set c = 6 returning a;
update c_t set c = 6 returning c;
delete from c_t;
insert into c_t (a) values (2);
reset role;
set role c_w;
insert into c_t (a, c) values (2, 20);
insert into c_t values (3);
insert into c_t values (3, 'x');
insert into c_t (a, b) values (3, 'x');
insert into c_t (a) values (4) returning a;
select count(*) from c_t;
grant references (a) on c_t to c_r;
grant select (a) on c_t to c_r;
reset role;
select attname, attacl from pg_attribute where attrelid = 'c_t'::regclass and attnum > 0 order by attnum;
set role c_own;
grant delete (a) on c_t to c_r;
grant select (nosuch) on c_t to c_r;
grant all (b) on c_t to c_w;
revoke select on c_t from c_r;
revoke update (c) on c_t from c_r;
revoke references (a) on c_t from c_w;
revoke references (a) on c_t from c_w cascade;
select attname, attacl from pg_attribute where attrelid = 'c_t'::regclass and attnum > 0 order by attnum;
reset role;
drop role c_w;
set role c_own;
revoke all (a, b, c) on c_t from c_w;
reset role;
drop role c_w;
alter table c_t owner to c_r;
select attname, attacl from pg_attribute where attrelid = 'c_t'::regclass and attnum > 0 order by attnum;
drop table c_t;
drop role c_own, c_r;
