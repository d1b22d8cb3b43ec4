-- OVERLAPS, date_bin, isfinite, timestamp(p) precision, Julian days and
-- to_char's remaining date/time patterns, as PostgreSQL 15 has them.
SET TimeZone = 'PST8PDT';
SET DateStyle = 'Postgres, MDY';
SELECT (timestamp '2000-11-27', timestamp '2000-11-28') OVERLAPS (timestamp '2000-11-27 12:00', timestamp '2000-11-30') AS "True",
       (timestamp '2000-11-26', timestamp '2000-11-27') OVERLAPS (timestamp '2000-11-27 12:00', timestamp '2000-11-30') AS "False",
       (timestamp '2000-11-27', interval '12 hours') OVERLAPS (timestamp '2000-11-27 12:00', interval '1 day') AS "False2",
       (timestamptz '2000-11-27', interval '1 day') OVERLAPS (timestamptz '2000-11-27 12:00', timestamptz '2000-11-30') AS "True2";
SELECT (date '2000-01-01', date '2000-02-01') OVERLAPS (date '2000-01-15', null::date) AS null_end,
       (timestamp '2000-01-01', null::timestamp) OVERLAPS (timestamp '2000-01-01', timestamp '2000-01-02') AS same_start,
       (null::timestamp, null::timestamp) OVERLAPS (timestamp '2000-01-01', timestamp '2000-01-02') AS all_null;
SELECT (1, 2, 3) OVERLAPS (4, 5);
SELECT date_bin('15 minutes', timestamp '2020-02-11 15:44:17', timestamp '2001-01-01') AS bin,
       date_bin('15 minutes', timestamp '2020-02-11 15:44:17', timestamp '2001-01-01 00:02:30') AS shifted,
       date_bin('1 day', timestamptz '2020-02-11 15:44:17+00', timestamptz '2001-01-01 00:00+00') AS tz_bin;
SELECT date_bin('5 min', timestamp '2020-01-01 00:00', timestamp '2020-01-01 00:07') AS origin_after;
SELECT date_bin('1 month', timestamp '2020-02-11', timestamp '2001-01-01');
SELECT date_bin('0 days', timestamp '2020-02-11', timestamp '2001-01-01');
SELECT isfinite(date 'infinity') AS d_inf, isfinite(date '2000-01-01') AS d, isfinite(timestamp '-infinity') AS ts_inf,
       isfinite(timestamptz 'now') AS tsz;
CREATE TEMP TABLE precise (t2 timestamp(2), tz0 timestamptz(0), t timestamp);
INSERT INTO precise VALUES ('2000-01-01 12:00:00.125', '2000-01-01 12:00:00.5+00', '2000-01-01 12:00:00.123456'),
  ('2000-01-01 12:00:00.994999', '2000-01-01 12:00:00.49+00', '2000-01-01 12:00:00');
SELECT * FROM precise;
SELECT '2000-01-01 00:00:00.123456'::timestamp(3) AS cast3, pg_typeof('2000-01-01'::timestamp(3)) AS type;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'precise'::regclass AND attnum > 0 ORDER BY attnum;
SELECT extract(julian FROM date '2020-08-11') AS jd, date_part('julian', timestamp '2020-08-11 12:00') AS jd_noon,
       extract(timezone_h FROM timestamptz '2020-08-11 12:00+00') AS tzh;
SELECT to_char(timestamp '1997-02-10 17:32:01.123456', 'Y,YYY IYYY IYY IY I IW IDDD ID CC J W SSSS FF1 FF3 FF6') AS patterns,
       to_char(timestamp '1997-02-10 17:32:01', 'RM rm FMRM AD a.d. BC b.c. JTH') AS roman_era,
       to_char(timestamp '0044-03-15 12:00 BC', 'YYYY AD B.C. CC') AS bc;
SELECT timestamptz '20011227 040506-08' AS packed_zone, timestamptz '20011227T040506.789-08' AS iso_packed,
       timestamptz 'J2452271-08' AS julian_zone, date '1999.008' AS year_doy;
SELECT extract(century FROM date '0101-12-31 BC') AS c_101bc, extract(century FROM date '0100-12-31 BC') AS c_100bc,
       extract(century FROM date '0001-12-31 BC') AS c_1bc, extract(decade FROM date '0001-01-01 BC') AS d_1bc,
       extract(decade FROM date '0011-01-01 BC') AS d_11bc, extract(millennium FROM date '1000-01-01 BC') AS m_1000bc;
SELECT date_bin('30 minutes', timestamp '2024-02-01 15:00:00', timestamp '2024-02-01 17:00:00') AS exact_before,
       date_bin('30 minutes', timestamp '2024-02-01 15:10:00', timestamp '2024-02-01 17:00:00') AS inexact_before;
SELECT date_bin('365000 days', '4400-01-01 BC'::timestamp, '4000-01-01 BC'::timestamp);
SELECT to_date('2147483647', 'YYYY');
SELECT to_timestamp('300000-01-01', 'YYYY-MM-DD');
