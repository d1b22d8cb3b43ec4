-- time and timetz: input forms, output, precision, errors, comparison,
-- indexes, sorting/grouping, casts, arithmetic, extract, AT TIME ZONE, arrays
SET TimeZone = 'America/Los_Angeles';
SELECT time '04:05', time '04:05:06.789', time '040506', time '0405', time '04:05 PM', time '12:00 AM', time 'allballs';
SELECT time '2003-04-12 04:05:06 America/New_York', time '04:05:06 PST', time '04:05:06+05:30', time 'T04:05:06';
SELECT '23:59:59.999999'::time, '23:59:59.9999999'::time, '23:59:60'::time, '24:00:00'::time;
SELECT '24:00:00.01'::time;
SELECT '23:59:60.01'::time;
SELECT '25:00:00'::time;
SELECT '04:61'::time;
SELECT '15:36:39 America/New_York'::time;
SELECT 'nonsense'::time;
SELECT '13:00 PM'::time;
SELECT timetz '04:05:06-08', timetz '04:05:06+05:30', timetz '04:05 PST', timetz '04:05 EDT', timetz 'allballs';
SELECT timetz '2003-03-07 15:36:39 America/New_York', timetz '2003-07-07 15:36:39 America/New_York';
SELECT timetz '2003-07-07 04:05:06', timetz '04:05:06 Etc/GMT+5', timetz '04:05:06+15:59';
SELECT '15:36:39 America/New_York'::timetz;
SELECT '15:36:39 m2'::timetz;
SELECT '04:05:06+16'::timetz;
SELECT time(2) '11:59:59.996', time(0) '23:59:59.5', time(3) '04:05:06.7891', '04:05:06.75+02'::timetz(1);
SELECT '04:05:06.789'::time(1), cast('04:05:06.789' AS time(0) without time zone);
SELECT pg_typeof(time '04:05'), pg_typeof(timetz '04:05+01'), pg_typeof(time '04:05' + interval '1 hour');
SELECT format_type('time'::regtype, -1), format_type(1083, 3), format_type(1266, 2), format_type(1183, -1), format_type(1270, 0);
CREATE TABLE tt (id int, t time(2), tz time with time zone);
INSERT INTO tt VALUES (1, '12:00', '12:00-08'), (2, '04:05:06.789', '04:05:06+00'), (3, '23:59:59.999', '20:00-08'),
  (4, NULL, NULL), (5, '00:00', '04:00-08'), (6, '12:00', '13:00-07');
SELECT * FROM tt ORDER BY t, id;
SELECT * FROM tt ORDER BY tz DESC, id;
SELECT t, count(*) FROM tt GROUP BY t ORDER BY t;
SELECT DISTINCT tz FROM tt ORDER BY tz;
SELECT id FROM tt WHERE t > '05:00' ORDER BY id;
SELECT id FROM tt WHERE tz = '20:00-08' OR tz < '05:00-08' ORDER BY id;
SELECT timetz '12:00-08' = timetz '13:00-07' AS same_instant_other_zone, timetz '12:00-08' < timetz '13:00-07' AS lt,
       time '04:05' < time '04:05:00.000001' AS lt2, time '24:00' > time '23:59:59.999999' AS gt;
SELECT min(t), max(t), min(tz), max(tz) FROM tt;
CREATE INDEX tt_t ON tt (t);
CREATE UNIQUE INDEX tt_tz ON tt (tz);
SET enable_seqscan = off;
SELECT id, t FROM tt WHERE t BETWEEN '04:00' AND '12:00' ORDER BY t, id;
SELECT id, tz FROM tt WHERE tz = '12:00-08';
RESET enable_seqscan;
INSERT INTO tt VALUES (7, '01:00', '12:00-08');
SELECT a.id, b.id FROM tt a JOIN tt b ON a.t = b.t AND a.id < b.id ORDER BY 1, 2;
-- casts
SELECT timestamp '2003-04-12 04:05:06.5'::time, timestamptz '2003-04-12 04:05:06+02'::time,
       timestamptz '2003-04-12 04:05:06+02'::timetz, time '04:05'::interval, interval '1 day 26:00:30'::time,
       interval '-01:00'::time, timetz '04:05+03'::time, '04:05:06'::text::time, time '04:05'::text;
SELECT 'infinity'::timestamp::time IS NULL AS inf_null, time '04:05' = interval '04:05' AS cmp_as_interval;
-- arithmetic
SELECT time '23:00' + interval '2 hours', interval '2 hours' + time '23:00', time '01:00' - interval '2 hours',
       time '04:05' + interval '1 day 01:00', time '05:00' - time '04:30', time '01:00' - time '23:00';
SELECT timetz '23:00+02' + interval '2 hours', timetz '01:00-05' - interval '90 minutes';
SELECT date '2003-04-12' + time '04:05', time '04:05' + date '2003-04-12', date 'infinity' + time '04:05';
SELECT date '2003-04-12' + timetz '04:05+02', timetz '04:05-07' + date '2003-04-12';
SELECT time '04:05' + time '01:00';
-- extract / date_part
SELECT extract(hour FROM time '13:30:25.575401'), extract(minute FROM time '13:30:25.575401'),
       extract(second FROM time '13:30:25.575401'), extract(millisecond FROM time '13:30:25.575401'),
       extract(microsecond FROM time '13:30:25.575401'), extract(epoch FROM time '13:30:25.575401');
SELECT extract(timezone FROM timetz '13:30-04:30'), extract(timezone_hour FROM timetz '13:30-04:30'),
       extract(timezone_minute FROM timetz '13:30-04:30'), extract(epoch FROM timetz '13:30:25-04');
SELECT date_part('hour', time '13:30:25.5'), date_part('second', time '13:30:25.5'), date_part('epoch', timetz '00:00+01');
SELECT extract(day FROM time '13:30');
SELECT extract(fortnight FROM time '13:30');
SELECT extract(timezone FROM time '13:30');
-- make_time, current_time, localtime
SELECT make_time(8, 15, 23.5), make_time(24, 0, 0);
SELECT make_time(25, 0, 0);
SELECT pg_typeof(current_time), pg_typeof(localtime), localtime <= time '24:00' AS sane,
       current_time = current_time AS stable;
-- AT TIME ZONE
SELECT timetz '12:00-08' AT TIME ZONE 'UTC', timetz '12:00-08' AT TIME ZONE interval '+05:30',
       timetz '23:00+00' AT TIME ZONE 'Asia/Tokyo', timetz '01:00+00' AT TIME ZONE interval '-03:00';
SELECT timetz '12:00-08' AT TIME ZONE interval '1 day';
-- arrays
SELECT ARRAY[time '04:05', '23:59:59.5'], '{12:00-08,04:05+05:30}'::timetz[], pg_typeof('{04:05}'::time[]);
SELECT (ARRAY[time '04:05', '01:00'])[2], array_agg(t ORDER BY t) FROM tt WHERE id < 4;
DROP TABLE tt;
SET TimeZone = 'America/Los_Angeles';
SELECT "timestamp"(date '1994-01-01', time '11:00'), timestamptz(date '1994-01-01', time '11:00'),
       timestamptz(date '1994-07-01', time '11:00'), timestamptz(date '1994-01-01', timetz '11:00-05');
SELECT (time '00:00', time '01:00') OVERLAPS (time '00:30', time '01:30') AS t1,
       (time '00:00', interval '1 hour') OVERLAPS (time '01:30', interval '1 hour') AS f1,
       (time '23:00', interval '2 hours') OVERLAPS (time '00:30', interval '1 hour') AS wrapped;
-- to_char of a time (through interval) and of an interval
SELECT to_char(time '13:05:06.789', 'HH24:MI:SS.MS'), to_char(time '13:05:06.789', 'HH12 AM'),
       to_char(time '13:05:06.789', 'FMHH:MI pm'), to_char(time '13:05:06.789', 'HH HH12 HH24 MI SS US FF3 SSSS'),
       to_char(time '01:05', 'HH24th'), to_char(time '00:00', 'HH12 A.M.');
SELECT to_char(interval '1 year 2 mons 3 days 25:04:05', 'YYYY MM DD DDD HH24 HH12 AM SSSS'),
       to_char(interval '-2 hours', 'HH24:MI:SS HH12 AM FMHH24th'), to_char(interval '-00:00:01.5', 'HH24:MI:SS.MS');
SELECT to_char(time '13:05', 'Day');
SELECT to_char(interval '1 mon', 'Month');
SELECT pg_typeof(current_time(2)), pg_typeof(localtime(0)), extract(microsecond FROM localtime(0)) % 1000000 AS whole_seconds,
       length(current_time(0)::text) AS no_fraction;
SELECT oid, typname, typlen, typbyval, typalign, typcategory, typarray, typelem FROM pg_type
 WHERE oid IN (1083, 1266, 1183, 1270) ORDER BY oid;
