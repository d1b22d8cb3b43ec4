-- SELECT DISTINCT ON, FETCH FIRST ... WITH TIES, OFFSET ... ROWS, LIMIT ALL.
create table dl (a int, b int, c text);
insert into dl values (1, 1, 'x'), (1, 2, 'y'), (2, 3, null), (2, 4, 'z'), (3, 5, 'w'), (null, 6, 'v'), (null, 7, 'u');
select distinct on (a) a, b, c from dl order by a, b desc;
select distinct on (a) b from dl order by a, b;
select distinct on (a) * from dl;
select distinct on (a, c) a, c from dl order by a desc, c nulls first, b;
select distinct on (1) a, b from dl order by 1, 2 desc;
select distinct on (a % 2) a % 2 as parity, b from dl order by a % 2, b desc;
select distinct on (c is null) c is null, b from dl order by c is null, b;
select distinct on (a) a, b from dl order by a, b fetch first 2 rows with ties;
-- errors
select distinct on (a + 1) a, b from dl order by a, b;
select distinct on (1) a, b from dl order by b;
select distinct on (b) a from dl order by a;
select distinct on (3) a, b from dl;
-- LIMIT / OFFSET / FETCH
select * from dl order by a nulls first, b limit all;
select * from dl order by b offset 5 rows;
select * from dl order by b offset 2 row fetch next 2 rows only;
select * from dl order by b fetch first row only;
select a from dl order by a fetch first 1 row with ties;
select a, b from dl order by a fetch first 3 rows with ties;
select b from (select b from dl order by a nulls first fetch first 1 rows with ties) s order by b;
select a, b from dl order by a offset 1 rows fetch next 1 row with ties;
select a, b from dl order by a fetch first 0 rows with ties;
select a from dl order by a desc fetch first (1 + 1) rows with ties;
select a from dl union all select a from dl order by a fetch first 3 rows with ties;
select * from (select a, count(*) from dl group by a order by count(*) desc fetch first 1 rows with ties) s order by a;
prepare t(int) as select a, b from dl order by a fetch first $1 rows with ties;
execute t(1);
execute t(3);
deallocate t;
-- errors
select * from dl fetch first 1 row with ties;
select * from dl order by a fetch first null rows with ties;
select * from dl order by a fetch first -1 rows with ties;
select * from dl order by a fetch first 1 row with ties for update skip locked;
select * from dl order by a offset -1 rows;
select * from dl order by a limit -1;
drop table dl;
