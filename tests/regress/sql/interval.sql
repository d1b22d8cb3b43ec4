-- interval: input forms, output (IntervalStyle postgres), comparison,
-- arithmetic with timestamps and dates, justify, extract, age
SELECT interval '1 day 2 hours', interval '-1 day +2 hours', interval '1.5 weeks';
SELECT interval '@ 1 minute ago', interval '1 year 2 mons 3 days 04:05:06.789';
SELECT interval '1-2', interval '-1-2', interval '3 4:05:06', interval '10', interval '1.5';
SELECT interval '1.5 years', interval '1.5 months', interval '1.1 years', interval '0.5 days';
SELECT interval 'P1Y2M3DT4H5M6S', interval 'P2W', interval 'PT0.5S';
SELECT interval '1 decade', interval '2 centuries', interval '1 millennium', interval '100 ms', interval '7 us';
SELECT interval '0', interval '-00:00:01', interval '1 day -00:00:01', interval '-1 year -2 mons +3 days';
SELECT interval '25:00:00', interval '123:45:06.000001', interval '1 hour 30 minutes 15 seconds';
SELECT '1 day'::interval = '24 hours'::interval AS eq, '1 mon'::interval = '30 days'::interval AS mon_eq,
       '1 day'::interval < '25 hours'::interval AS lt, '2 days'::interval > '47 hours' AS gt;
SELECT interval 'nonsense';
SELECT interval '2147483648 days';
CREATE TABLE iv (id int, d interval);
INSERT INTO iv VALUES (1, '1 day'), (2, '24 hours'), (3, '1 mon'), (4, '-2 hours'), (5, NULL), (6, '30 days');
SELECT id, d FROM iv ORDER BY d, id;
SELECT d, count(*) FROM iv GROUP BY d ORDER BY d;
SELECT DISTINCT d FROM iv ORDER BY d;
SELECT a.id, b.id FROM iv a JOIN iv b ON a.d = b.d AND a.id < b.id ORDER BY 1, 2;
CREATE INDEX iv_d ON iv (d);
SELECT id FROM iv WHERE d = '1 day' ORDER BY id;
SELECT min(d), max(d) FROM iv;
SELECT interval '1 day' + interval '2 hours', interval '1 day' - interval '2 hours', - interval '1 year 1 day';
SELECT interval '1 day' * 1.5, 2 * interval '1 mon 3 days', interval '1 mon' / 4, interval '1 hour' / 3;
SELECT interval '1 hour' / 0;
SELECT timestamp '2026-01-31 10:00' + interval '1 mon', timestamp '2024-02-29' + interval '1 year';
SELECT timestamp '2026-03-01' - interval '1 day 1 hour', date '2026-12-01' + interval '36 hours';
SELECT date '2026-12-01' - interval '1 mon', interval '2 days' + date '2026-01-01';
SELECT timestamptz '2026-01-01 00:00+00' + interval '1 day';
SELECT timestamp '2026-12-01 12:00' - timestamp '2026-11-29 08:30', timestamp '2026-01-01' - timestamp '2026-01-02 01:00';
SELECT age(timestamp '2026-12-01', timestamp '2000-02-29 12:00'), age(timestamp '2000-01-01', timestamp '2026-03-15');
SELECT justify_days(interval '65 days'), justify_hours(interval '50 hours'), justify_interval(interval '1 mon -1 hour');
SELECT justify_days(interval '-65 days'), justify_hours(interval '-50 hours'), justify_interval(interval '-1 mon 1 hour');
SELECT extract(epoch FROM interval '1 day 1 sec'), extract(hour FROM interval '1 day 26 hours'), extract(second FROM interval '1 min 2.5 sec');
SELECT extract(year FROM interval '26 mons'), extract(month FROM interval '26 mons'), extract(quarter FROM interval '26 mons'), extract(day FROM interval '40 days');
SELECT date_part('minute', interval '3 hours 25 minutes'), date_part('milliseconds', interval '1.5 sec'), date_part('epoch', interval '1 year');
SELECT extract(week FROM interval '1 day');
SELECT date_trunc('hour', interval '1 day 3 hours 25 minutes'), date_trunc('year', interval '3 years 5 mons');
SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5), make_interval(0, 0, 0, 10), make_interval();
SELECT interval '1 day'::text, '3 hours'::text::interval, cast('2 weeks' AS interval);

SELECT min(d), max(d) FROM (VALUES (interval '1 mon'), (interval '30 days')) v(d);
DROP TABLE iv;
