-- Aggregates: count/sum/avg/min/max over every numeric type, GROUP BY
-- (expressions, several keys), HAVING, DISTINCT aggregates, empty input,
-- overflow, grouping errors.
\set VERBOSITY verbose
create table sales (region text, product text, qty int, price numeric(8,2), weight real, ratio double precision, small smallint, big bigint, sold date);
insert into sales values
  ('north', 'apple', 10, 1.50, 0.5, 0.25, 1, 10000000000, '2026-01-01'),
  ('north', 'pear', 5, 2.00, 1.5, 0.5, 2, 20000000000, '2026-01-02'),
  ('south', 'apple', 7, 1.25, 2.5, 0.75, 3, 30000000000, '2026-01-01'),
  ('south', 'apple', 3, 1.75, 0.25, 1.0, 4, 40000000000, '2026-02-01'),
  ('east', 'plum', 1, 9.99, 3.0, 1.5, 5, 50000000000, '2026-03-01'),
  ('east', null, null, null, null, null, null, null, null);

select count(*), count(qty), sum(qty), avg(qty), min(qty), max(qty) from sales;
select sum(price), avg(price), min(price), max(price) from sales;
select sum(weight), avg(weight), sum(ratio), avg(ratio) from sales;
select sum(small), avg(small), sum(big), avg(big), max(big) from sales;
select min(sold), max(sold), min(region), max(product) from sales;
-- result types: sum(int) is bigint, sum(bigint) numeric, sum(real) real
select sum(qty) / 4 as bigint_div, sum(big) / 7 as numeric_div, sum(weight) / 3 as real_div, count(*) / 4 as count_div from sales;
select bool_and(qty > 2), bool_or(qty > 9) from sales;

select region, count(*), sum(qty), avg(price) from sales group by region order by region;
select region, product, sum(qty) from sales group by region, product order by region, product;
select product, count(*) from sales group by product order by product nulls first;
select qty > 4 as big_order, count(*) from sales group by qty > 4 order by 1;
select sold < '2026-02-01' as january, sum(qty) from sales group by sold < '2026-02-01' order by 1;
select region, sum(qty) as total from sales group by 1 order by total desc nulls last;
select region, sum(qty * price) as revenue from sales group by region having sum(qty * price) > 10 order by region;
select region from sales group by region having count(*) > 1 and max(qty) < 10 order by region;
select count(*) from sales having count(*) > 100;
select count(*) from sales having count(*) > 1;

select count(distinct region), count(distinct product), sum(distinct qty) from sales;
select region, count(distinct product) from sales group by region order by region;

-- empty input
select count(*), sum(qty), avg(qty), min(qty), max(price) from sales where false;
select region, count(*) from sales where false group by region;

-- aggregates over subqueries and in expressions
select max(t.s) from (select region, sum(qty) as s from sales group by region) t;
select region, sum(qty) * 2 + 1 as expr, round(avg(price), 3) from sales group by region order by region;
select region from sales group by region having sum(qty) = (select max(s) from (select sum(qty) as s from sales group by region) q);

-- overflow and errors
create table big (v bigint, i int);
insert into big values (9223372036854775807, 2147483647), (1, 1);
select sum(i) from big;
select sum(v) from big;
select avg(v) from big;
select region, qty from sales group by region;
select sum(qty) from sales where sum(qty) > 1;
select sum(region) from sales;
select count(*) from sales group by nosuch;

drop table sales, big;
