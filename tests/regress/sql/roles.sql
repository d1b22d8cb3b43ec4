-- CREATE ROLE / USER and their attributes
create role r_plain;
create user r_user;
create role r_all superuser createdb createrole noinherit login replication bypassrls connection limit 5 valid until '2030-01-01 00:00:00+00';
select rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication, rolbypassrls, rolconnlimit, rolvaliduntil
  from pg_authid where rolname like 'r\_%' order by rolname;
-- 42710 exists, 42939 reserved names, 22023 bad limit
create role r_plain;
create role pg_mine;
create role r_x connection limit -2;
-- passwords: SCRAM-SHA-256 by default, md5 on request, hashes kept as given
create role r_scram password 'secret';
set password_encryption = 'md5';
create role r_md5 password 'secret';
reset password_encryption;
create role r_hashed password 'md5e8a48653851e28c69d0506508fb27fc5';
create role r_given password 'SCRAM-SHA-256$4096:c2FsdHNhbHRzYWx0c2FsdA==$4Xf3E3LxPOIbS9PLs5pJVWlNe93YpwmJ8ZvlYsVS0Rg=:1b3JXf3ZgTR5GH3hUm5oMBNEzrJbNFuLnwbRi7G9vbE=';
create role r_empty password '';
select rolname, substr(rolpassword, 1, 14) as prefix, length(rolpassword) as len
  from pg_authid where rolname in ('r_scram', 'r_md5', 'r_hashed', 'r_empty', 'r_given') order by 1;
select rolpassword from pg_authid where rolname in ('r_md5', 'r_given') order by rolname;
select rolname, rolpassword from pg_roles where rolname = 'r_scram';
select usename, passwd from pg_user where usename like 'r\_%' order by 1;
-- ALTER ROLE
alter role r_plain login createdb connection limit 3 valid until 'infinity';
alter role r_scram password null;
alter role r_nosuch login;
alter role r_plain rename to r_renamed;
alter role r_md5 rename to r_md5b;
alter role r_md5b rename to r_renamed;
select rolname, rolcanlogin, rolcreatedb, rolconnlimit, rolvaliduntil, rolpassword is null as nopass
  from pg_authid where rolname in ('r_renamed', 'r_md5b', 'r_scram') order by 1;
-- memberships
create role r_group;
grant r_group to r_renamed, r_user;
grant r_group to r_user;
grant r_renamed to r_group;
grant r_group to r_group;
grant r_nosuch to r_user;
revoke r_group from r_scram;
grant r_group to r_scram with admin option;
create role r_child in role r_group;
create role r_parent role r_child admin r_user;
select r.rolname as role, m.rolname as member, a.admin_option
  from pg_auth_members a join pg_roles r on r.oid = a.roleid join pg_roles m on m.oid = a.member
  where r.rolname like 'r\_%' order by 1, 2;
revoke admin option for r_group from r_scram;
revoke r_group from r_renamed;
select r.rolname as role, m.rolname as member, a.admin_option
  from pg_auth_members a join pg_roles r on r.oid = a.roleid join pg_roles m on m.oid = a.member
  where r.rolname like 'r\_%' order by 1, 2;
-- current_user, session_user, SET ROLE, SET SESSION AUTHORIZATION
select current_user, session_user;
set role r_user;
select current_user, session_user;
show role;
show is_superuser;
create role r_denied;
select count(*) from pg_authid;
select count(*) > 0 as visible from pg_roles;
reset role;
set role r_nosuch;
set session authorization r_user;
select current_user, session_user;
set role r_group;
select current_user, session_user;
set role r_renamed;
reset session authorization;
select current_user, session_user;
show is_superuser;
begin;
set local role r_user;
select current_user;
commit;
select current_user;
begin;
set role r_user;
rollback;
select current_user;
show is_superuser;
-- CREATEROLE lets a role manage non-superuser roles only
alter role r_user createrole;
set role r_user;
create role r_made;
alter role r_made login;
create role r_super superuser;
alter role r_all nosuperuser;
drop role r_all;
drop role r_made;
reset role;
-- a role without CREATEROLE may change only its own password
set role r_scram;
alter role r_scram password 'new';
alter role r_scram login;
alter role r_renamed password 'x';
reset role;
-- DROP ROLE
drop role hearth;
drop role r_nosuch;
drop role if exists r_nosuch, r_group;
drop role r_user, r_all, r_renamed, r_scram, r_hashed, r_given, r_empty, r_child, r_parent, r_md5b;
select count(*) from pg_authid where rolname like 'r\_%';
select count(*) from pg_auth_members a join pg_authid r on r.oid = a.roleid where r.rolname like 'r\_%';
