-- PREPARE / EXECUTE / DEALLOCATE: one plan, many executions.
\set VERBOSITY verbose
create table pt (a int, b text);
insert into pt values (1, 'x'), (2, 'y');
prepare q(int) as select b from pt where a = $1;
execute q(2);
execute q(1);
prepare ins (int, text) as insert into pt values ($1, $2);
execute ins(3, 'z');
execute ins(4, 'w');
select * from pt order by a;
prepare upd as update pt set b = b || '!' where a > $1;
execute upd(2);
select * from pt order by a;
execute q(1, 2);
execute nosuch;
prepare q as select 1;
deallocate q;
execute q(1);
deallocate all;
execute ins(5, 'v');
drop table pt;
