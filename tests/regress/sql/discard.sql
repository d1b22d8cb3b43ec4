-- DISCARD: what a connection pooler sends before handing a server
-- connection to its next client.
create temp table tt (a int);
insert into tt values (1);
create sequence discard_seq;
select nextval('discard_seq');
prepare p1 as select 1 as one;
set work_mem = '8MB';
set datestyle = 'SQL, DMY';
begin;
declare c cursor with hold for select 1;
commit;
-- not inside a transaction block
begin;
discard all;
rollback;
select count(*) from tt;
discard all;
show work_mem;
show datestyle;
execute p1;
fetch c;
select * from tt;
select currval('discard_seq');
select to_regclass('tt') is null as tt_gone;
-- the parts on their own
create temp table tt2 (a int);
begin;
discard temp;
rollback;
select count(*) from tt2;
discard temp;
select to_regclass('tt2') is null as tt2_gone;
select nextval('discard_seq');
discard sequences;
select currval('discard_seq');
select lastval();
prepare p2 as select 2 as two;
discard plans;
execute p2;
discard temporary;
discard everything;
drop sequence discard_seq;
-- to_regclass: NULL instead of 42P01 / 3F000; bad names still fail
create table reg_t (a int);
select to_regclass('reg_t')::oid > 0 as found, to_regclass('public.reg_t') as qualified;
select to_regclass('nosuch') is null as a, to_regclass('nosuch.reg_t') is null as b, to_regclass('12345') is null as c;
select to_regclass('pg_namespace'), to_regclass('pg_catalog.pg_type');
select to_regclass('"unterminated');
select to_regclass(null) is null as null_in;
drop table reg_t;
