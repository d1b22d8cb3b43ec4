-- ALTER DEFAULT PRIVILEGES: entries in pg_default_acl, \ddp, and the ACLs
-- new tables, views, sequences, functions and schemas start with
create role dp_owner login;
create role dp_reader;
create role dp_other;
create schema dp_s authorization dp_owner;
create schema dp_x authorization dp_owner;
grant usage on schema dp_s, dp_x to dp_reader;
-- errors
alter default privileges grant select on tables to dp_nosuch;
alter default privileges for role dp_nosuch grant select on tables to dp_reader;
alter default privileges in schema dp_nosuch grant select on tables to dp_reader;
alter default privileges grant execute on tables to dp_reader;
alter default privileges grant insert on sequences to dp_reader;
alter default privileges grant select on functions to dp_reader;
alter default privileges grant select on schemas to dp_reader;
alter default privileges grant fly on tables to dp_reader;
alter default privileges in schema dp_s grant usage on schemas to dp_reader;
alter default privileges grant select on tables to public with grant option;
alter default privileges for role dp_owner for role dp_owner grant select on tables to dp_reader;
alter default privileges grant select on indexes to dp_reader;
set role dp_other;
alter default privileges for role dp_owner grant select on tables to dp_reader;
reset role;
-- entries for every schema and for one schema
alter default privileges for role dp_owner grant select on tables to dp_reader;
alter default privileges for role dp_owner in schema dp_x grant insert, update on tables to dp_other;
alter default privileges for user dp_owner grant usage on sequences to dp_reader;
alter default privileges for role dp_owner revoke execute on functions from public;
alter default privileges for role dp_owner grant all privileges on schemas to dp_reader with grant option;
select pg_get_userbyid(defaclrole) as role, coalesce(n.nspname, '-') as schema, defaclobjtype, defaclacl
  from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace order by 1, 2, 3;
\ddp
-- objects the role creates start with them
set role dp_owner;
set search_path = dp_s;
create table dp_t (a int);
insert into dp_t values (1);
create table dp_x.dp_t2 (a int);
create sequence dp_seq;
create view dp_v as select 1 as x;
create function dp_f() returns int language sql as 'select 1';
reset role;
reset search_path;
create schema dp_s2 authorization dp_owner;
select relname, relacl from pg_class where relname in ('dp_t', 'dp_t2', 'dp_seq', 'dp_v') order by 1;
select proacl from pg_proc where proname = 'dp_f';
select nspacl from pg_namespace where nspname = 'dp_s2';
-- objects of other roles keep the built-in default
create table dp_mine (a int);
select relacl from pg_class where relname = 'dp_mine';
-- the reader reads what was created, without a GRANT
set role dp_reader;
select * from dp_s.dp_t;
select * from dp_x.dp_t2;
select * from dp_mine;
reset role;
select has_table_privilege('dp_other', 'dp_x.dp_t2', 'INSERT') as other_inserts,
       has_table_privilege('dp_other', 'dp_s.dp_t', 'INSERT') as not_in_dp_s;
-- revoking back to the built-in default removes the entry
alter default privileges for role dp_owner revoke select on tables from dp_reader;
alter default privileges for role dp_owner in schema dp_x revoke insert, update on tables from dp_other;
alter default privileges for role dp_owner revoke usage on sequences from dp_reader;
alter default privileges for role dp_owner grant execute on functions to public;
alter default privileges for role dp_owner revoke grant option for create on schemas from dp_reader;
\ddp
set role dp_owner;
create table dp_s.dp_t3 (a int);
reset role;
select relacl from pg_class where relname = 'dp_t3';
-- revoking from the owner itself is kept as an entry
alter default privileges for role dp_owner revoke delete, truncate on tables from dp_owner;
\ddp
set role dp_owner;
create table dp_s.dp_t4 (a int);
reset role;
select relacl from pg_class where relname = 'dp_t4';
-- DROP ROLE names the entries; DROP OWNED removes them
create role dp_tmp;
alter default privileges for role dp_tmp grant select on tables to dp_other;
drop role dp_tmp;
drop owned by dp_tmp;
drop role dp_tmp;
-- a rolled-back change leaves nothing
begin;
alter default privileges grant select on tables to dp_other;
select count(*) from pg_default_acl where pg_get_userbyid(defaclrole) = 'hearth';
rollback;
select count(*) from pg_default_acl where pg_get_userbyid(defaclrole) = 'hearth';
-- clean up
set search_path = dp_s, public;
drop function dp_f();
reset search_path;
drop view dp_s.dp_v;
drop table dp_s.dp_t, dp_s.dp_t3, dp_s.dp_t4, dp_x.dp_t2, dp_mine;
drop sequence dp_s.dp_seq;
drop schema dp_s, dp_x, dp_s2;
drop owned by dp_reader;
drop owned by dp_other;
drop owned by dp_owner;
drop role dp_owner, dp_reader, dp_other;
