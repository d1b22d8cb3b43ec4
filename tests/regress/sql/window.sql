-- Window functions: ranking, offsets, frame values, aggregates over every
-- frame kind, named windows, FILTER, errors (PostgreSQL 15 output).
\set VERBOSITY verbose
create table emp (name text, dept text, salary int, bonus numeric(6,2), hired int);
insert into emp values
  ('alice', 'eng', 120, 10.50, 1), ('bob', 'eng', 100, null, 2), ('carol', 'eng', 100, 5.25, 3),
  ('dave', 'ops', 90, 1.00, 4), ('erin', 'ops', 95, null, 5), ('frank', 'ops', 95, 2.00, 6),
  ('gina', 'sales', 80, 7.75, 7), ('hank', 'sales', null, 3.00, 8), ('ivy', 'hr', 70, 0.00, 9);

-- ranking
select name, dept, salary,
       row_number() over (partition by dept order by salary desc, name),
       rank() over (partition by dept order by salary desc),
       dense_rank() over (partition by dept order by salary desc),
       percent_rank() over (partition by dept order by salary desc),
       cume_dist() over (partition by dept order by salary desc)
from emp order by dept, salary desc, name;
select name, salary, rank() over (order by salary), dense_rank() over (order by salary nulls first)
from emp order by name;
select name, ntile(2) over (order by hired), ntile(4) over (order by hired), ntile(20) over (order by hired)
from emp order by hired;
select name, ntile(null) over (order by hired) from emp order by hired limit 2;
select row_number() over (), count(*) over () from emp where false;

-- lag / lead
select name, lag(name) over w, lead(name) over w, lag(salary, 2) over w, lead(salary, 2, -1) over w,
       lag(salary, -1) over w, lag(bonus, 1, 0) over w
from emp window w as (order by hired) order by hired;
select name, lag(salary, null) over (order by hired), lead(salary, 0) over (order by hired)
from emp order by hired limit 3;
select lag(x, 1, 1.5) over (order by x), lead(x, 1, 0.25) over (order by x) from (values (1), (2)) t(x);
select lead('a') over () from (values (1)) t(x);

-- first_value / last_value / nth_value
select name, first_value(name) over w, last_value(name) over w, nth_value(name, 2) over w
from emp window w as (partition by dept order by salary) order by dept, salary, name;
select name, first_value(name) over w, last_value(name) over w, nth_value(name, 3) over w
from emp window w as (order by hired rows between unbounded preceding and unbounded following)
order by hired;
select name, nth_value(name, 2) over (order by hired rows between 1 preceding and 1 following exclude current row)
from emp order by hired;

-- aggregates over the default frame and the whole partition
select name, dept, salary, sum(salary) over (partition by dept order by salary),
       count(*) over (partition by dept), count(salary) over (partition by dept order by salary),
       avg(salary) over (partition by dept), min(salary) over (partition by dept order by salary desc),
       max(name) over (partition by dept order by salary)
from emp order by dept, salary, name;
select name, sum(bonus) over (order by hired), avg(bonus) over (order by hired),
       bool_and(salary > 90) over (order by hired), bool_or(salary > 110) over (order by hired desc),
       every(salary >= 70) over ()
from emp order by hired;
select name, salary, sum(salary) over (order by salary) from emp order by salary, name;

-- ROWS frames
select hired, sum(hired) over (order by hired rows 2 preceding),
       sum(hired) over (order by hired rows between 1 preceding and 1 following),
       sum(hired) over (order by hired rows between current row and unbounded following),
       sum(hired) over (order by hired rows between 2 following and 4 following),
       sum(hired) over (order by hired rows between unbounded preceding and 2 preceding),
       count(*) over (order by hired rows between 10 preceding and 10 following)
from emp order by hired;

-- RANGE frames (integer and numeric ORDER BY)
select salary, sum(salary) over (order by salary range between 5 preceding and 5 following),
       count(*) over (order by salary range between current row and 10 following),
       count(*) over (order by salary desc range between 5 preceding and current row),
       count(*) over (order by salary range between unbounded preceding and current row),
       count(*) over (order by salary nulls first range between 1 preceding and 1 following)
from emp order by salary, name;
select bonus, sum(bonus) over (order by bonus range between 2.5 preceding and 1 following),
       count(*) over (order by bonus desc range between 3 preceding and 0.25 following)
from emp order by bonus, name;
select x, sum(x) over (order by x range between 1.5 preceding and current row)
from (values (1.0::float8), (2.0), (2.5), (4.0)) t(x) order by x;

-- GROUPS frames
select salary, sum(hired) over (order by salary groups between 1 preceding and 1 following),
       count(*) over (order by salary groups between current row and 1 following),
       count(*) over (order by salary groups 2 preceding)
from emp order by salary, name;

-- EXCLUDE
select hired, salary,
       sum(hired) over (order by salary rows between unbounded preceding and unbounded following exclude current row),
       sum(hired) over (order by salary range between unbounded preceding and unbounded following exclude group),
       sum(hired) over (order by salary groups between 1 preceding and 1 following exclude ties),
       sum(hired) over (order by salary rows between 1 preceding and 1 following exclude no others)
from emp order by salary, hired;

-- FILTER
select name, count(*) filter (where salary > 90) over (order by hired),
       sum(salary) filter (where dept <> 'eng') over ()
from emp order by hired;

-- named windows and inheritance
select name, sum(salary) over w, rank() over (w2), count(*) over (w rows between 1 preceding and current row)
from emp window w as (order by hired), w2 as (partition by dept order by salary)
order by hired;
select name, sum(salary) over (p order by hired) from emp window p as (partition by dept) order by hired;
select name, sum(salary) over w3 from emp window w1 as (partition by dept), w2 as (w1 order by hired), w3 as (w2)
order by hired;

-- with GROUP BY / HAVING, ORDER BY, DISTINCT
select dept, count(*), sum(count(*)) over (), rank() over (order by count(*) desc, dept)
from emp group by dept order by dept;
select dept, sum(salary), sum(sum(salary)) over (order by dept) from emp group by dept having count(*) > 1
order by 3;
select name from emp order by row_number() over (order by hired desc) limit 3;
select distinct dept, count(*) over (partition by dept) from emp order by 1;
select name, rank() over (order by salary) r from emp order by r desc, name limit 4;
select salary * 2 as s2, sum(salary * 2) over (order by salary * 2) from emp where dept = 'ops' order by 1;
select name, (select count(*) from emp e2 where e2.dept = emp.dept) as n,
       row_number() over (partition by dept order by name)
from emp order by name;

-- prepared statement with parameters in the window and the frame
prepare wp(int) as select name, sum(hired) over (order by hired rows between $1 preceding and current row)
from emp order by hired limit 4;
execute wp(1);
execute wp(3);
deallocate wp;
prepare wp2 as select name, sum(hired) over (partition by $1::int order by hired rows between $2 preceding and current row)
from emp order by hired limit 3;
execute wp2(1, 1);
deallocate wp2;

-- EXPLAIN
explain (costs off) select name, sum(salary) over (partition by dept order by salary) from emp;
explain (costs off) select name, sum(salary) over (partition by dept order by salary), rank() over (partition by dept order by salary) from emp;
explain (costs off) select sum(salary) over (order by dept), rank() over (partition by dept) from emp;
explain (costs off) select count(*) over () from emp;
explain (costs off) select name, rank() over (order by salary) from emp order by salary;
explain (costs off) select dept, rank() over (partition by dept order by salary) from emp order by dept;
explain (costs off) select name, rank() over (order by salary) from emp order by salary desc;
explain (costs off) select dept, count(*), rank() over (order by count(*)) from emp group by dept;
explain (costs off) select rank() over (partition by lower(dept) order by salary + 1 desc, name) from emp;

-- errors
select * from emp where row_number() over () > 1;
select dept from emp group by row_number() over ();
select sum(row_number() over ()) from emp;
select row_number() over (order by row_number() over ()) from emp;
select lag(lag(salary) over ()) over () from emp;
select dept from emp group by dept having rank() over () > 1;
select row_number(1) over () from emp;
select lower(name) over () from emp;
select count(distinct salary) over () from emp;
select rank() filter (where true) over () from emp;
select sum(salary) over w from emp;
select sum(salary) over (w order by hired) from emp window w as (order by salary);
select sum(salary) over (w partition by dept) from emp window w as (order by salary);
select sum(salary) over (w) from emp window w as (order by salary rows current row);
select rank() over w from emp window w as (partition by dept), w as (order by salary);
select sum(salary) over (rows between unbounded following and current row) from emp;
select sum(salary) over (rows between current row and unbounded preceding) from emp;
select sum(salary) over (rows between current row and 1 preceding) from emp;
select sum(salary) over (rows between 1 following and current row) from emp;
select sum(salary) over (rows 1 following) from emp;
select sum(salary) over (range between 1 preceding and current row) from emp;
select sum(salary) over (order by salary, hired range 1 preceding) from emp;
select sum(salary) over (groups 1 preceding) from emp;
select sum(salary) over (order by salary rows between salary preceding and current row) from emp;
select sum(salary) over (order by salary range between 1.5 preceding and current row) from emp;
select sum(salary) over (order by name range between 1 preceding and current row) from emp;
select sum(salary) over (order by salary rows 1.5 preceding) from emp;
select sum(salary) over (order by salary rows -1 preceding) from emp;
select sum(salary) over (order by salary rows between current row and -2 following) from emp;
select sum(salary) over (order by salary range between -1 preceding and current row) from emp;
select sum(salary) over (order by salary groups null preceding) from emp;
select ntile(0) over () from emp;
select ntile(-1) over () from emp;
select nth_value(name, 0) over () from emp;
select 1 from emp where 1 in (select rank() over () from emp e2 where e2.salary > emp.salary);
select salary from emp window w as (order by nosuch);
select name, rank() over (order by salary) from emp for update;
select count(*) from emp window w as (order by row_number() over ());
select name, sum(salary) over (order by hired rows between unbounded preceding and 1 preceding exclude ties),
       last_value(name) over (order by salary range between unbounded preceding and 1 following exclude group)
from emp order by hired;
select x, sum(x) over (order by x range between 9223372036854775807 preceding and 9223372036854775807 following)
from (values (1::int8), (9223372036854775807::int8)) t(x);
drop table emp;
-- a larger input: partitions of 1000 rows, running and sliding frames
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table big as select i, i % 7 as g, (i * 37) % 101 as v
  from (select a.d * 1000 + b.d * 100 + c.d * 10 + e.d + 1 as i
        from digits a, digits b, digits c, digits e) n where i <= 7000;
prepare bigq as select g, count(*), sum(rs), sum(mv), sum(rk), sum(ld) from (
  select g, sum(v) over (partition by g order by i) as rs,
         max(v) over (partition by g order by i rows between 5 preceding and 5 following) as mv,
         rank() over (partition by g order by v) as rk,
         coalesce(lead(v, 3) over (partition by g order by i), 0) as ld
  from big) s group by g order by g;
execute bigq;
set work_mem = '64kB';
execute bigq;
select sum(x) from (select sum(v) over (order by i range between 100 preceding and 50 following) x from big) s;
reset work_mem;
deallocate bigq;
drop table big, digits;
