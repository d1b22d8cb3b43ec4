-- A temporary table stays visible after TRUNCATE, ALTER TABLE and RENAME
-- (its catalog row rewritten), by bare and pg_temp-qualified name.
create temp table tt (a int);
insert into tt select generate_series(1, 3);
truncate tt;
insert into tt values (42);
select * from tt;
select * from pg_temp.tt;
begin;
truncate table tt;
insert into tt values (7);
commit;
select * from tt;
alter table tt add column b text default 'x';
select * from tt;
alter table tt rename to tt2;
select * from tt2;
create index on tt2 (a);
truncate tt2;
insert into tt2 values (1, 'y');
select * from tt2 where a = 1;
drop table tt2;
