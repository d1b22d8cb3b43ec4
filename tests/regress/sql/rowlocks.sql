-- SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE in one session:
-- results, OF, several clauses, NOWAIT / SKIP LOCKED on rows this session
-- holds, and PostgreSQL's restrictions (0A000) and errors.
create table rl (id int primary key, v int);
insert into rl values (1, 10), (2, 20), (3, 30);
create table rl2 (id int, w text);
insert into rl2 values (1, 'a'), (2, 'b');
begin;
select * from rl where id < 3 order by id for update;
select id, v * 2 as dbl from rl order by v desc limit 2 for share;
select * from rl where id = 1 for no key update nowait;
select * from rl where id = 1 for key share skip locked;
select rl.v, rl2.w from rl join rl2 using (id) order by 1 for update of rl2;
select * from rl x, rl2 y where x.id = y.id and x.id = 2 for key share of x for update of y nowait;
select v from rl where id = 3 for update of rl for share;
-- Own changes then a lock: the newest version.
update rl set v = 11 where id = 1;
select v from rl where id = 1 for update;
select 1 as one for update;
commit;
select * from rl order by id for update skip locked;
-- Restrictions.
select count(*) from rl for update;
select count(*) from rl for key share;
select distinct v from rl for share;
select v from rl group by v for update;
select sum(v) from rl having sum(v) > 0 for update;
select id from rl union select id from rl2 for update;
select id from rl union all select id from rl2 for no key update;
values (1), (2) for update;
select * from rl for update of nosuch;
select * from rl for share of rl2;
select * from rl x for update of rl;
select * from (rl a join rl2 b using (id)) j for update of j;
select * from rl a left join rl2 b using (id) for update;
select * from rl a left join rl2 b using (id) order by 1 for share of a;
select * from rl a full join rl2 b using (id) for share of a;
select * from rl for update of rl nowait skip locked;
select * from rl order by id for update for update;
drop table rl, rl2;
