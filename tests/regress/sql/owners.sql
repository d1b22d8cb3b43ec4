-- ALTER TABLE / SEQUENCE / INDEX / VIEW ... OWNER TO
create role o_a login;
create role o_b login;
create role o_c;
grant o_b to o_a;
set role o_a;
create table o_t (a serial, b text);
create index o_i on o_t (a);
create sequence o_s;
grant select on o_t to o_c;
grant update on o_t to o_b with grant option;
select relname, (select rolname from pg_roles where oid = relowner) as relowner, relacl from pg_class where relname like 'o\_%' order by 1;
-- a non-superuser must be a member of the new owner
alter table o_t owner to o_c;
alter table o_t owner to o_b;
-- the owner's ACL entries follow; owned sequences and indexes too
select relname, (select rolname from pg_roles where oid = relowner) as relowner, relacl from pg_class where relname like 'o\_%' order by 1;
alter table o_t owner to o_a;
select relname, (select rolname from pg_roles where oid = relowner) as relowner from pg_class where relname like 'o\_%' order by 1;
alter index o_i owner to o_b;
alter sequence o_t_a_seq owner to o_b;
alter sequence o_s owner to o_b;
alter sequence o_t owner to o_b;
alter table o_s owner to o_a;
alter table o_i owner to o_a;
alter table if exists o_nosuch owner to o_a;
alter table o_nosuch owner to o_a;
alter table o_t owner to o_nosuch;
alter view o_t owner to o_a;
alter index o_t owner to o_a;
alter table o_t owner to public;
reset role;
-- only the owner (or a superuser) may give a table away
set role o_b;
alter table o_t owner to o_b;
alter sequence o_s owner to o_b;
reset role;
alter table o_t owner to o_c;
select relname, (select rolname from pg_roles where oid = relowner) as relowner, relacl from pg_class where relname like 'o\_%' order by 1;
-- the new owner acts as owner; the old one lost its rights
set role o_a;
select * from o_t;
drop table o_t;
reset role;
alter table o_t owner to current_user;
select relname, (select rolname from pg_roles where oid = relowner) as relowner, relacl from pg_class where relname like 'o\_%' order by 1;
-- a rolled-back change leaves the owner as it was
begin;
alter sequence o_s owner to o_c;
select (select rolname from pg_roles where oid = relowner) as relowner from pg_class where relname = 'o_s';
rollback;
select (select rolname from pg_roles where oid = relowner) as relowner from pg_class where relname = 'o_s';
drop table o_t;
drop sequence o_s;
drop role o_a, o_b, o_c;
