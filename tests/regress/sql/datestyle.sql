-- DateStyle: output styles and field order for date, timestamp and
-- timestamptz, and the input forms PostgreSQL 15 accepts.
SET TimeZone = 'PST8PDT';
SET DateStyle = 'ISO, MDY';
SELECT '1999-01-08'::date AS iso, 'January 8, 1999'::date AS words, '1/8/1999'::date AS mdy,
       '1999-Jan-08'::date AS ymon, '08-Jan-1999'::date AS dmon, 'Jan-08-1999'::date AS mond;
SELECT '19990108'::date AS packed, '990108'::date AS packed_short, 'J2451187'::date AS julian,
       '1/8/99'::date AS two_digit_year, '1/8/69'::date AS year_2069, 'Friday January 08 1999'::date AS with_dow;
SELECT '1999.01.08'::date AS dots, '99-Jan-08'::date AS yy_mon, '1999-01-08 04:05:06'::date AS with_time;
SELECT 'epoch'::date AS epoch, 'infinity'::date AS inf, '-infinity'::date AS neg_inf,
       '0044-03-15 BC'::date AS bc, 'Mar 15 44 BC'::date AS bc_words;
SELECT 'today'::date = current_date AS today_ok, 'tomorrow'::date - 'yesterday'::date AS two_days;
SELECT '1999-01-08 04:05:06'::timestamp AS iso, '1999-01-08T04:05:06'::timestamp AS t_sep,
       'January 8 04:05:06 1999'::timestamp AS words, '1999-01-08 04:05 PM'::timestamp AS pm,
       '1999-01-08 12:30 am'::timestamp AS am;
SELECT '19990108T040506'::timestamp AS packed_iso, '1999-01-08 04:05:06.789012'::timestamp AS frac,
       'epoch'::timestamp AS epoch, 'J2451187 12:00'::timestamp AS julian_time;
SELECT 'Fri Jan 08 04:05:06 1999 PST'::timestamptz AS postgres_form,
       '01/08/1999 04:05:06 EST'::timestamptz AS sql_form,
       '1999-01-08 04:05:06 America/New_York'::timestamptz AS zone_name;
SELECT 'allballs'::timestamp AS allballs_alone;

SET DateStyle = 'ISO, DMY';
SELECT '1/8/1999'::date AS dmy, '08/01/1999 04:05'::timestamp AS dmy_ts;
SET DateStyle = 'ISO, YMD';
SELECT '99/1/8'::date AS ymd, '1999/01/08'::date AS ymd_full;
SET DateStyle = 'ISO, MDY';
SELECT '13/01/1999'::date;
SELECT '1999-02-30'::date;
SELECT '1999-13-01'::date;
SELECT 'not a date'::date;
SELECT '1999-01-08 04:05:06 nonsense'::timestamp;
SELECT '0000-01-01'::date;
SELECT '5874898-01-01'::date;
SELECT '294277-01-01'::timestamp;

-- output in every style and order
CREATE TEMP TABLE moments (d date, ts timestamp, tz timestamptz);
INSERT INTO moments VALUES ('1999-01-08', '1999-01-08 04:05:06.5', '1999-01-08 04:05:06+00'),
  ('2000-07-04', '2000-07-04 23:59:59', '2000-07-04 12:00:00-07'),
  ('0044-03-15 BC', '0044-03-15 12:00 BC', '2020-03-08 10:00:00+00');
SET DateStyle = 'ISO, MDY';
SELECT * FROM moments;
SET DateStyle = 'SQL, MDY';
SHOW DateStyle;
SELECT * FROM moments;
SET DateStyle = 'SQL, DMY';
SELECT * FROM moments;
SET DateStyle = 'Postgres, MDY';
SELECT * FROM moments;
SET DateStyle = 'Postgres, DMY';
SELECT * FROM moments;
SET DateStyle = 'German';
SHOW DateStyle;
SELECT * FROM moments;
SET DateStyle = 'Postgres';
SHOW DateStyle;
SET TimeZone = 'Asia/Kolkata';
SELECT * FROM moments;
SET DateStyle = 'SQL, ISO';
RESET DateStyle;
SHOW DateStyle;
