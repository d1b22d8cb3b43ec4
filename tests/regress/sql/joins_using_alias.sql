-- JOIN ... USING (cols) AS alias: the merged columns under the alias,
-- reachable only qualified; the joined tables stay visible.
create table ja (i int, t text);
create table jb (i int, k int);
insert into ja values (1, 'one'), (2, 'two'), (3, 'three'), (null, 'none');
insert into jb values (1, -1), (2, 2), (2, 4), (5, -5), (null, 0);
select * from ja join jb using (i) as x order by 1, 3;
select x.i, ja.t, jb.k from ja join jb using (i) as x where x.i = 2 order by jb.k;
select x.* from ja join jb using (i) as x where ja.t = 'one';
select x.i from ja full join jb using (i) as x order by 1;
select x.i, i from ja right join jb using (i) as x order by 1 nulls last;
select count(*) from ja join jb using (i) as x join ja a2 using (i) as y where y.i = x.i;
-- errors
select x.i from (ja join jb using (i) as x) as xx;
select * from ja a1 join jb a2 using (i) as a1;
select i from ja join jb using (i) as x join ja a3 on x.i = a3.i;
drop table ja, jb;
