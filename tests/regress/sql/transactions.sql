-- Transaction blocks: status, warnings, the failed state and its end.
\set VERBOSITY verbose

begin;
select 1;
commit;

-- BEGIN inside a block warns
begin;
begin;
commit;

-- COMMIT / ROLLBACK outside a block warn
commit;
rollback;
end;

-- an error aborts the block: 25P02 until it ends, COMMIT answers ROLLBACK
begin;
select 1 / 0;
select 1;
show work_mem;
set work_mem = '1MB';
commit;
show work_mem;

-- ROLLBACK of a failed block
start transaction;
selec;
select 2;
rollback;

-- SET inside a rolled back block is undone, inside a committed one kept
begin;
set work_mem = '2MB';
rollback;
show work_mem;
begin;
set work_mem = '3MB';
commit;
show work_mem;
reset work_mem;

-- SET LOCAL lasts until the end of the block
begin;
set local statement_timeout = '10s';
show statement_timeout;
commit;
show statement_timeout;

-- END is COMMIT, ABORT is ROLLBACK
begin;
end;
begin;
abort;
begin transaction;
commit work;
begin work;
rollback transaction;
