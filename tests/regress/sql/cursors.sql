-- SQL cursors: DECLARE / FETCH / MOVE / CLOSE with every direction, NO
-- SCROLL, WITH HOLD, pg_cursors, errors and lifetimes.
\set VERBOSITY verbose

create table cur (k int primary key, v text);
insert into cur values (1, 'v1'), (2, 'v2'), (3, 'v3'), (4, 'v4'), (5, 'v5'), (6, 'v6'), (7, 'v7'), (8, 'v8'), (9, 'v9'), (10, 'v10');

-- outside a transaction block
declare c cursor for select * from cur;
fetch c;
close c;

begin;
declare c scroll cursor for select k from cur order by k;
fetch c;
fetch next from c;
fetch 2 in c;
fetch prior c;
fetch first c;
fetch last c;
fetch absolute 3 c;
fetch absolute -2 c;
fetch relative 2 c;
fetch relative -3 c;
fetch relative 0 c;
fetch forward 0 c;
fetch backward 0 c;
fetch forward 3 c;
fetch backward 2 c;
fetch -1 c;
fetch forward -2 c;
fetch backward -1 c;
fetch all c;
fetch c;
fetch prior c;
fetch backward all c;
fetch prior c;
fetch forward all in c;
move backward all in c;
move 2 c;
move absolute 20 c;
move relative -3 c;
move forward 0 c;
move first c;
move last c;
move relative 0 c;
move all c;
move forward 0 c;
fetch absolute 0 c;
fetch c;
fetch absolute 11 c;
fetch absolute -11 c;
fetch c;
select name, statement, is_holdable, is_binary, is_scrollable from pg_cursors;
declare c cursor for select 1;
close c;
fetch c;
rollback;

-- NO SCROLL: forward only
begin;
declare n no scroll cursor for select k from cur order by k;
fetch 2 n;
fetch absolute 4 n;
fetch relative 2 n;
fetch forward all n;
fetch n;
select is_scrollable from pg_cursors;
fetch prior n;
rollback;
begin;
declare n no scroll cursor for select k from cur order by k;
fetch last n;
rollback;
begin;
declare n no scroll cursor for select k from cur order by k;
fetch 3 n;
fetch absolute 1 n;
rollback;
begin;
declare n no scroll cursor for select k from cur order by k;
fetch 1 n;
fetch relative 0 n;
rollback;
begin;
declare n no scroll cursor for select k from cur order by k;
fetch first n;
move 3 n;
move backward all n;
rollback;

-- default scroll option, insensitive, binary-less options, WITHOUT HOLD
begin;
declare d insensitive cursor without hold for select k, v from cur where k > 7 order by k;
fetch forward 2000 from d;
fetch backward 1 from d;
declare "Quoted" asensitive scroll cursor for values (1, 'one'), (2, 'two');
fetch all from "Quoted";
select name, is_scrollable from pg_cursors order by name;
close all;
select count(*) from pg_cursors;
commit;

-- the cursor sees the rows of its declaration, not later changes
begin;
declare s cursor for select k from cur where k <= 3 order by k;
delete from cur where k = 2;
insert into cur values (0, 'v0');
fetch all s;
rollback;

-- WITH HOLD: usable after commit, gone at rollback of its transaction
begin;
declare h scroll cursor with hold for select k from cur where k <= 4 order by k;
fetch 2 h;
commit;
fetch h;
fetch prior h;
fetch last h;
select name, is_holdable from pg_cursors;
begin;
fetch first h;
rollback;
fetch next h;
close h;
begin;
declare h2 cursor with hold for select 1;
rollback;
fetch h2;
declare h3 no scroll cursor with hold for select k from cur where k > 8 order by k;
fetch h3;
fetch h3;
fetch h3;
close h3;

-- a cursor dies with the savepoint level that declared it
begin;
declare outer_c cursor for select k from cur order by k;
savepoint s;
declare inner_c cursor for select k from cur order by k;
fetch inner_c;
rollback to s;
fetch inner_c;
rollback to s;
fetch outer_c;
savepoint t;
declare kept cursor for select 42;
release t;
fetch kept;
commit;

-- errors
close nope;
fetch nope;
move nope;
begin;
declare e scroll no scroll cursor for select 1;
rollback;
begin;
declare e cursor for select nosuch from cur;
rollback;

drop table cur;
