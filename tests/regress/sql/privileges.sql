-- object owners and table privileges
create role p_owner login;
create role p_reader login;
create role p_writer login;
create role p_group;
grant p_group to p_reader;
set role p_owner;
create table p_t (a int, b text);
insert into p_t values (1, 'one');
create sequence p_s;
reset role;
-- nothing for others until granted
set role p_reader;
select * from p_t;
insert into p_t values (2, 'two');
reset role;
select has_table_privilege('p_reader', 'p_t', 'select') as reader_select,
       has_table_privilege('p_owner', 'p_t', 'select, insert') as owner_any;
-- only the owner grants
set role p_reader;
grant select on p_t to p_reader;
reset role;
set role p_owner;
grant select on p_t to p_group;
grant insert, update on table p_t to p_writer with grant option;
grant usage on p_t to p_writer;
grant select on p_nosuch to p_writer;
grant select on p_t to p_nosuch;
reset role;
select has_table_privilege('p_reader', 'p_t', 'select') as reader_select,
       has_table_privilege('p_reader', 'p_t', 'insert') as reader_insert,
       has_table_privilege('p_writer', 'p_t', 'INSERT WITH GRANT OPTION') as writer_grant,
       has_table_privilege('p_writer', 'p_t', 'delete, update') as writer_any;
select has_table_privilege('p_writer', 'p_t', 'fly');
select has_table_privilege('p_nosuch', 'p_t', 'select');
select has_table_privilege('p_writer', 'p_nosuch', 'select');
-- SELECT through a granted group role
set role p_reader;
select * from p_t;
select has_table_privilege('p_t', 'select') as mine;
update p_t set b = 'x';
delete from p_t;
reset role;
-- INSERT and UPDATE without SELECT: no RETURNING, no WHERE
set role p_writer;
insert into p_t values (2, 'two');
insert into p_t values (3, 'three') returning a;
update p_t set b = 'uno' where a = 1;
update p_t set b = 'all';
select * from p_t;
copy p_t to stdout;
truncate p_t;
drop table p_t;
create index on p_t (a);
alter sequence p_s restart;
drop sequence p_s;
reset role;
-- superusers pass every check
select a, b from p_t order by a;
-- a prepared statement is checked when it runs
set role p_reader;
prepare q as select count(*) from p_t;
execute q;
reset role;
set role p_owner;
revoke select on p_t from p_group;
reset role;
set role p_reader;
execute q;
reset role;
deallocate q;
-- DROP ROLE refuses roles that own objects or hold privileges
drop role p_writer;
set role p_owner;
revoke all on p_t from p_writer;
drop sequence p_s;
reset role;
drop role p_writer;
drop role p_owner;
set role p_owner;
drop table p_t;
reset role;
drop role p_owner, p_reader, p_group;
