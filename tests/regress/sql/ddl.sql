-- DDL: CREATE TABLE with every supported type, NOT NULL, DEFAULT,
-- IF NOT EXISTS; DROP TABLE [IF EXISTS] lists; TRUNCATE; their errors.
\set VERBOSITY verbose

create table typed (
  s smallint,
  i integer,
  b bigint,
  r real,
  d double precision,
  n numeric(10,2),
  f boolean,
  t text,
  v varchar(5),
  c char(3),
  dt date,
  ts timestamp
);
insert into typed values (1, 2, 3, 1.5, 2.25, 12.345, true, 'text', 'abc', 'x', '2026-01-02', '2026-01-02 03:04:05');
insert into typed values (null, null, null, null, null, null, null, null, null, null, null, null);
select s, i, b, r, d, n, f, t, v, c, dt, ts from typed order by i nulls last;
select c || '|' as padded, length(c) as len, v from typed where c is not null;

-- typmods are enforced on store
insert into typed (v) values ('toolong');
insert into typed (c) values ('abcd');
insert into typed (c) values ('ab  ');
insert into typed (n) values (123456789.12);
insert into typed (n) values (1.005);
select c, n from typed where c = 'ab' or n = 1.01 order by c;

-- NOT NULL and DEFAULT
create table defaults (
  id integer not null,
  qty integer default 7,
  label text default 'none' not null,
  amount numeric(8,2) default 1.5
);
insert into defaults (id) values (1);
insert into defaults values (2, default, default, default);
insert into defaults (id, qty) values (3, null);
insert into defaults default values;
insert into defaults (id, label) values (4, null);
select * from defaults order by id;

-- IF NOT EXISTS, duplicates and unknown tables
create table defaults (x int);
create table if not exists defaults (x int);
create table dupcol (a int, a text);
create table badtype (a nosuchtype);
select * from nosuchtable;
drop table nosuchtable;
drop table if exists nosuchtable;
drop table if exists nosuchtable, defaults;
select * from defaults;

-- DROP TABLE of several tables at once
create table d1 (a int);
create table d2 (a int);
create table d3 (a int);
drop table d1, d2;
select * from d1;
drop table d3, d1;
select count(*) from d3;
drop table d3;

-- TRUNCATE
create table tr (a int, b text);
insert into tr values (1, 'one'), (2, 'two'), (3, 'three');
select count(*) from tr;
truncate tr;
select count(*) from tr;
insert into tr values (4, 'four');
select * from tr;
truncate table tr;
select count(*) from tr;
truncate nosuchtable;

-- TRUNCATE and DROP are transactional
insert into tr values (5, 'five');
begin;
truncate tr;
select count(*) from tr;
rollback;
select * from tr;
begin;
drop table tr;
rollback;
select * from tr;
begin;
create table intx (a int);
insert into intx values (1);
rollback;
select * from intx;

-- maintenance commands
vacuum;
vacuum tr;
analyze;
analyze tr;
vacuum analyze typed;
vacuum nosuchtable;
select count(*) from tr;

drop table typed, tr;
