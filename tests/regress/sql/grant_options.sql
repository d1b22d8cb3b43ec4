-- WITH GRANT OPTION, the grantor recorded, REVOKE ... CASCADE / RESTRICT
create role g_own login;
create role g_a login;
create role g_b login;
create role g_c login;
create role g_grp;
grant g_grp to g_c;
set role g_own;
create table g_t (a int, b int);
grant select, insert on g_t to g_a with grant option;
grant update on g_t to g_a;
reset role;
-- a grant option lets the grantee grant on, as grantor
set role g_a;
grant select on g_t to g_b with grant option;
grant select, update on g_t to g_b;
grant update on g_t to g_b;
grant all on g_t to g_b;
grant delete on g_t to g_b;
reset role;
set role g_b;
grant select on g_t to g_c;
grant select on g_t to g_a with grant option;
grant insert on g_t to g_c;
reset role;
select relacl from pg_class where relname = 'g_t';
select has_table_privilege('g_a', 'g_t', 'select with grant option') as a_sel_go,
       has_table_privilege('g_a', 'g_t', 'update with grant option') as a_upd_go,
       has_table_privilege('g_own', 'g_t', 'delete with grant option') as own_go,
       has_table_privilege('g_c', 'g_t', 'select') as c_sel;
set role g_c;
select * from g_t;
reset role;
-- dependent privileges
set role g_own;
revoke select on g_t from g_a;
revoke select on g_t from g_a restrict;
revoke grant option for select on g_t from g_a cascade;
select relacl from pg_class where relname = 'g_t';
revoke select on g_t from g_b;
select relacl from pg_class where relname = 'g_t';
reset role;
set role g_c;
select * from g_t;
reset role;
-- a grantor revokes only what it granted
set role g_a;
revoke insert on g_t from g_b;
revoke delete on g_t from g_b;
reset role;
select relacl from pg_class where relname = 'g_t';
-- no privilege at all: 42501
set role g_c;
grant select on g_t to g_grp;
revoke select on g_t from g_grp;
reset role;
revoke all on g_t from g_a cascade;
select relacl from pg_class where relname = 'g_t';
-- a grant option held through a role: that role is the grantor
grant select on g_t to g_grp with grant option;
set role g_c;
grant select on g_t to g_b;
select relacl from pg_class where relname = 'g_t';
reset role;
revoke grant option for select on g_t from g_grp;
revoke grant option for select on g_t from g_grp cascade;
select relacl from pg_class where relname = 'g_t';
grant select on g_t to public with grant option;
revoke grant option for select on g_t from public;
drop table g_t;
drop role g_own, g_a, g_b, g_c, g_grp;
