-- Savepoints: SAVEPOINT / RELEASE / ROLLBACK TO, nesting, repeated names,
-- the failed block, DDL and index entries rolled back to a savepoint.
\set VERBOSITY verbose

create table sp (k int primary key, v text);
insert into sp values (1, 'one'), (2, 'two');

-- outside a transaction block: 25P01 errors
savepoint a;
release a;
release savepoint a;
rollback to a;
rollback to savepoint a;

-- unknown names: 3B001, and the block is aborted
begin;
release nope;
select 1;
rollback;
begin;
rollback to nope;
rollback;

-- inserts, updates and deletes undone by ROLLBACK TO
begin;
insert into sp values (3, 'three');
savepoint s1;
insert into sp values (4, 'four');
update sp set v = 'uno' where k = 1;
delete from sp where k = 2;
select * from sp order by k;
rollback to savepoint s1;
select * from sp order by k;
-- the rolled-back key is free again in the unique index
insert into sp values (4, 'cuatro');
select * from sp where k = 4;
commit;
select * from sp order by k;

-- nesting: inner levels rolled back or released
begin;
savepoint a;
insert into sp values (10, 'a');
savepoint b;
insert into sp values (11, 'b');
savepoint c;
insert into sp values (12, 'c');
rollback to b;
select k from sp where k >= 10 order by k;
insert into sp values (13, 'b2');
release a;
select k from sp where k >= 10 order by k;
release a;
commit;
select k from sp where k >= 10 order by k;

-- the newest of a repeated name wins
begin;
savepoint x;
insert into sp values (20, 'x1');
savepoint x;
insert into sp values (21, 'x2');
rollback to x;
select k from sp where k >= 20 order by k;
release x;
select k from sp where k >= 20 order by k;
rollback to x;
select k from sp where k >= 20 order by k;
release x;
release x;
rollback;

-- an error inside a savepoint: 25P02 until ROLLBACK TO, which resumes the block
begin;
insert into sp values (30, 'kept');
savepoint s;
insert into sp values (31, 'lost');
insert into sp values (1, 'duplicate');
select 1;
savepoint t;
release s;
rollback to nope;
rollback to s;
select k from sp where k >= 30 order by k;
insert into sp values (32, 'after');
commit;
select k from sp where k >= 30 order by k;

-- an error before any savepoint: ROLLBACK TO cannot resume
begin;
select 1 / 0;
rollback to s;
commit;

-- COMMIT of a block failed inside a savepoint rolls everything back
begin;
insert into sp values (40, 'gone');
savepoint s;
select 1 / 0;
commit;
select count(*) from sp where k = 40;

-- DDL after a savepoint
begin;
savepoint d;
create table sp2 (x int);
insert into sp2 values (1);
drop table sp;
rollback to d;
select * from sp2;
rollback to d;
select count(*) from sp;
create table sp2 (y int);
insert into sp2 values (7);
commit;
select * from sp2;

-- savepoints that are never released commit with the block
begin;
savepoint p;
insert into sp values (50, 'p');
savepoint q;
update sp set v = 'q' where k = 50;
commit;
select * from sp where k = 50;

drop table sp;
drop table sp2;
