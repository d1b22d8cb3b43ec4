-- REASSIGN OWNED and DROP OWNED
create role r_a login;
create role r_b login;
create role r_c;
grant r_a to r_c;
set role r_a;
create table r_t (a serial);
create sequence r_s;
create table r_u (a int);
create index r_u_a on r_u (a);
reset role;
set role r_b;
create table r_v (a int);
grant select on r_v to r_a with grant option;
reset role;
set role r_a;
grant select on r_v to r_c;
reset role;
-- the acting role needs the privileges of both sides
set role r_c;
reassign owned by r_a to r_b;
reassign owned by r_a to r_c;
reset role;
reassign owned by r_a, r_nosuch to r_b;
reassign owned by r_a to r_b;
select relname, (select rolname from pg_roles where oid = relowner) as owner, relacl
  from pg_class where relname like 'r\_%' order by 1;
reassign owned by hearth to r_a;
reassign owned by r_b to hearth;
select relname, (select rolname from pg_roles where oid = relowner) as owner, relacl
  from pg_class where relname like 'r\_%' order by 1;
-- DROP OWNED drops what the role owns and revokes what it was granted
set role r_c;
drop owned by r_b;
reset role;
drop owned by r_a;
select relname, (select rolname from pg_roles where oid = relowner) as owner, relacl
  from pg_class where relname like 'r\_%' order by 1;
drop owned by hearth;
drop owned by r_nosuch;
begin;
drop owned by r_c cascade;
select count(*) from pg_class where relname like 'r\_%';
rollback;
select count(*) from pg_class where relname like 'r\_%';
drop owned by r_c restrict;
select count(*) from pg_class where relname like 'r\_%';
drop table r_v;
drop role r_a, r_b, r_c;
