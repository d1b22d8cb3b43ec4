-- RANGE offsets for date, timestamp, timestamptz and interval ORDER BY
-- columns (an interval offset), ascending and descending, with NULLs, and
-- PostgreSQL's errors.
set timezone = 'UTC';
create table wr (id int, d date, ts timestamp, tz timestamptz, iv interval);
insert into wr values
  (1, '2020-01-01', '2020-01-01 00:00', '2020-01-01 00:00+00', '1 day'),
  (2, '2020-01-15', '2020-01-01 06:00', '2020-01-01 06:00+00', '2 days'),
  (3, '2020-02-01', '2020-01-01 12:00', '2020-01-01 12:00+00', '1 day 12:00'),
  (4, '2021-01-01', '2020-01-02 00:00', '2020-01-02 00:00+00', '1 mon'),
  (5, null, null, null, null),
  (6, '2020-01-15', '2020-01-03 00:00', '2020-01-03 00:00+00', '5 days');
select id, d, sum(id) over (order by d range between '14 days'::interval preceding and current row) from wr order by d, id;
select id, d, array_agg(id) over (order by d desc range between '1 month' preceding and '1 year' following) from wr order by d desc, id;
select id, ts, count(*) over (order by ts range between interval '6 hours' preceding and interval '6 hours' following) from wr order by ts, id;
select id, tz, min(id) over (order by tz nulls first range between current row and '1 day' following) from wr order by tz nulls first, id;
select id, iv, sum(id) over (order by iv range between '1 day' preceding and '1 day' following) from wr order by iv, id;
select id, first_value(id) over w, last_value(id) over w from wr window w as (order by d range between unbounded preceding and '1 year'::interval following exclude current row) order by d, id;
-- errors
select sum(id) over (order by d range between 1 preceding and current row) from wr;
select sum(id) over (order by d range between '-1 day'::interval preceding and current row) from wr;
select sum(id) over (order by id range between '1 day'::interval preceding and current row) from wr;
select sum(id) over (order by d, id range between '1 day'::interval preceding and current row) from wr;
drop table wr;
-- a parenthesized query whose first arm is parenthesized
SELECT ((SELECT 2) UNION SELECT 2);
SELECT (((SELECT 2)) UNION SELECT 2);
SELECT ((SELECT 2) + 1), ((SELECT 3)), ((SELECT 1) = ANY (SELECT 1));
SELECT ((SELECT 1) UNION ALL (SELECT 2) ORDER BY 1 DESC LIMIT 1);
