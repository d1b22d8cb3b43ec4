-- Time zones from the system tz database, as PostgreSQL 15 applies them:
-- the TimeZone setting in all its forms, timestamptz input and output in
-- the session zone, AT TIME ZONE, arithmetic and truncation across DST.
SET TimeZone = 'America/New_York';
SHOW TimeZone;
SELECT '2000-01-01 00:00:00'::timestamptz AS winter, '2000-07-01 12:00:00'::timestamptz AS summer;
SELECT '2000-01-01 00:00:00+00'::timestamptz AS utc_input, '2000-01-01 00:00:00.25-02'::timestamptz AS offset_input;
SELECT '2000-01-01 00:00 PST'::timestamptz AS pst, '2000-07-01 00:00 PDT'::timestamptz AS pdt,
       '2000-01-01 00:00 EST'::timestamptz AS est, '2000-01-01 00:00 zulu'::timestamptz AS zulu;
SELECT '2000-01-01 00:00:00 Europe/Paris'::timestamptz AS paris, '2000-01-01 00:00 Asia/Kolkata'::timestamptz AS kolkata;
SELECT '2000-01-01T00:00:00Z'::timestamptz AS iso_z, '2000-01-01 00:00:00+05:30'::timestamptz AS plus_0530,
       '2000-01-01 00:00:00-0330'::timestamptz AS minus_0330;
-- a local time skipped by spring-forward, and an ambiguous one at fall-back
SELECT '2021-03-14 02:30'::timestamptz AS gap, '2021-11-07 01:30'::timestamptz AS overlap;
-- timestamp ignores a written zone
SELECT '2000-01-01 00:00:00+05'::timestamp AS ts, '2000-01-01 00:00 PST'::timestamp AS ts_abbrev;

-- AT TIME ZONE, both directions, with names, abbreviations, POSIX strings and intervals
SELECT '2000-01-01 12:00:00+00'::timestamptz AT TIME ZONE 'UTC' AS utc,
       '2000-01-01 12:00:00+00'::timestamptz AT TIME ZONE 'Asia/Kolkata' AS kolkata,
       '2000-01-01 12:00:00+00'::timestamptz AT TIME ZONE 'PST' AS pst;
SELECT '2000-01-01 12:00:00'::timestamp AT TIME ZONE 'America/Los_Angeles' AS la,
       '2000-07-01 12:00:00'::timestamp AT TIME ZONE 'Europe/London' AS london,
       '2000-01-01 12:00:00'::timestamp AT TIME ZONE 'est' AS est;
SELECT '2000-01-01 12:00:00+00'::timestamptz AT TIME ZONE INTERVAL '-03:00' AS iv_tz,
       '2000-01-01 12:00:00'::timestamp AT TIME ZONE INTERVAL '+05:30' AS iv_ts;
SELECT '2000-01-01 12:00:00+00'::timestamptz AT TIME ZONE '+05' AS posix_sign,
       '2000-01-01 12:00:00+00'::timestamptz AT TIME ZONE 'UTC+3' AS posix_utc3;
SELECT timezone('Europe/London', '2000-07-01 12:00:00+00'::timestamptz) AS fn_form;
SELECT 'infinity'::timestamptz AT TIME ZONE 'UTC' AS inf;
SELECT '2000-01-01'::timestamptz AT TIME ZONE 'Mars/Olympus';
SELECT '2000-01-01'::timestamp AT TIME ZONE INTERVAL '1 day';

-- casts between date, timestamp and timestamptz follow the session zone
SELECT '2000-01-01 03:00:00+00'::timestamptz::date AS d, '2000-01-01 03:00:00+00'::timestamptz::timestamp AS ts;
SELECT '2000-06-01'::date::timestamptz AS from_date, '2000-06-01 10:00'::timestamp::timestamptz AS from_ts;

-- interval arithmetic: days and months on the local clock, hours exact
SET TimeZone = 'America/Los_Angeles';
SELECT '2021-03-13 12:00'::timestamptz + interval '1 day' AS plus_day,
       '2021-03-13 12:00'::timestamptz + interval '24 hours' AS plus_24h,
       '2021-02-14 12:00'::timestamptz + interval '1 month' AS plus_month;
SELECT '2021-11-08 00:00'::timestamptz - '2021-11-07 00:00'::timestamptz AS fall_day,
       '2021-03-15 12:00'::timestamptz - interval '2 days' AS minus_days;
SELECT * FROM generate_series('2021-03-13 00:00'::timestamptz, '2021-03-16 00:00', '1 day') AS g;
SELECT age('2021-04-01 00:00'::timestamptz, '2021-03-01 00:00'::timestamptz) AS age_local;

-- date_trunc and extract in the session zone (and in a named one)
SELECT date_trunc('day', '2021-03-14 12:00'::timestamptz) AS day,
       date_trunc('hour', '2021-11-07 01:30-08'::timestamptz) AS hour_in_overlap,
       date_trunc('month', '2021-03-14 12:00'::timestamptz) AS month;
SELECT date_trunc('day', '2021-03-14 12:00+00'::timestamptz, 'Asia/Tokyo') AS day_tokyo;
SELECT extract(hour FROM '2000-01-01 12:00+00'::timestamptz) AS hour,
       extract(day FROM '2000-01-01 03:00+00'::timestamptz) AS day,
       extract(timezone FROM '2000-01-01 12:00+00'::timestamptz) AS tz,
       extract(timezone_hour FROM '2000-07-01 12:00+00'::timestamptz) AS tz_hour,
       extract(timezone_minute FROM '2000-07-01 12:00+00'::timestamptz) AS tz_minute,
       extract(epoch FROM '2000-01-01 00:00+00'::timestamptz) AS epoch;
SELECT date_part('hour', '2000-07-01 00:00+00'::timestamptz) AS part_hour;

-- make_timestamptz and to_char's zone fields
SELECT make_timestamptz(2000, 1, 1, 12, 0, 0) AS session_zone,
       make_timestamptz(2000, 1, 1, 12, 0, 0, 'Asia/Tokyo') AS tokyo,
       make_timestamptz(2000, 7, 1, 12, 30, 15.5, 'EST') AS est;
SELECT to_char('2000-01-01 12:00+00'::timestamptz, 'YYYY-MM-DD HH24:MI TZ OF') AS winter,
       to_char('2000-07-01 12:00+00'::timestamptz, 'tz TZH:TZM') AS summer,
       to_char('2000-07-01 12:00'::timestamp, 'HH24:MI TZ') AS no_zone;

-- SET TIME ZONE forms
SET TIME ZONE 'Asia/Kolkata';
SHOW TimeZone;
SELECT '2000-01-01 00:00+00'::timestamptz AS kolkata, to_char(now(), 'OF') AS now_offset;
SET TIME ZONE -8;
SHOW TimeZone;
SELECT '2000-01-01 00:00+00'::timestamptz AS minus8;
SET TIME ZONE 5.5;
SHOW TimeZone;
SET TIME ZONE INTERVAL '+05:45' HOUR TO MINUTE;
SHOW TimeZone;
SELECT '2000-01-01 00:00+00'::timestamptz AS nepal;
SET TIME ZONE 'PST8PDT';
SHOW TimeZone;
SELECT '2000-01-01 00:00+00'::timestamptz AS pst8pdt, '2000-07-01 00:00+00'::timestamptz AS pst8pdt_summer;
SET TIME ZONE 'UTC+5';
SHOW TimeZone;
SELECT '2000-01-01 00:00+00'::timestamptz AS posix_utc5;
SET TIME ZONE 'europe/berlin';
SHOW TimeZone;
SET TIME ZONE 'Mars/Olympus';
SET TIME ZONE INTERVAL '1 day';
SET TIME ZONE LOCAL;
SHOW TimeZone;
SET TimeZone = 'Asia/Tokyo';
BEGIN;
SET LOCAL TimeZone = 'Europe/Paris';
SELECT '2000-01-01 00:00+00'::timestamptz AS inside;
COMMIT;
SELECT '2000-01-01 00:00+00'::timestamptz AS after_commit;
RESET TimeZone;
SHOW TimeZone;

-- history before standard time, and rules far past the last transition
SET TimeZone = 'America/New_York';
SELECT '1850-01-01 00:00+00'::timestamptz AS lmt, '2100-07-01 00:00+00'::timestamptz AS y2100,
       '2400-01-01 00:00+00'::timestamptz AS y2400;
SET TimeZone = 'Australia/Sydney';
SELECT '2030-01-01 00:00+00'::timestamptz AS south_summer, '2030-07-01 00:00+00'::timestamptz AS south_winter;

-- errors
SELECT '2000-01-01 25:00'::timestamptz;
SELECT '2000-01-01 00:00+16'::timestamptz;
SELECT '2000-01-01 00:00 Mars/Olympus'::timestamptz;
SELECT '2000-01-01 00:00 nonsense'::timestamptz;
