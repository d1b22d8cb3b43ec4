-- Errors: SQLSTATE, message and position for each class hearthd reports.
\set VERBOSITY verbose

-- 42601 syntax errors with positions
selec 1;
select 1 +;
select 1, , 2;
select 1 from;

-- 22012 division by zero
select 1 / 0;
select 1 % 0;
select 1.5 / 0;
select 1::float8 / 0;

-- 22003 out of range
select 2147483647 + 1;
select 32767::int2 + 1::int2;
select 9223372036854775807 * 2;
select 100000::int2;
select -2147483648 / -1;
select 1e400::float8;

-- 22P02 / 22007 / 22008 bad input
select 'abc'::int;
select 1 + 'x';
select '2026-02-30'::date;
select 'notadate'::date;
select 'maybe'::bool;
select '1.2.3'::numeric;

-- 42883 undefined function or operator
select nosuchfunc(1);
select true + 1;

-- 22001 string too long for an explicit varchar length is truncation, not error
select 'abcdef'::varchar(3);

-- 0A000 statements that parse but do not run yet
create table e0 (a int);
alter table e0 set (fillfactor = 50);
drop table e0;
-- roles exist
create role bob;
drop role bob;

-- the session is still fine
select 'still alive';
\echo :LAST_ERROR_SQLSTATE
select 1 / 0;
\echo :LAST_ERROR_SQLSTATE
