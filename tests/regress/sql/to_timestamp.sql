-- to_timestamp(text, format), to_date(text, format) and
-- to_timestamp(double precision), as PostgreSQL 15 reads them.
SET TimeZone = 'America/New_York';
SELECT to_timestamp('2011-12-18 23:38:15', 'YYYY-MM-DD HH24:MI:SS') AS basic,
       to_timestamp('2011$03!18 23_38_15', 'YYYY-MM-DD HH24:MI:SS') AS any_separator;
SELECT to_timestamp('0097/Feb/16 --> 08:14:30', 'YYYY/Mon/DD --> HH:MI:SS') AS mon,
       to_timestamp('97/2/16 8:14:30', 'FMYYYY/FMMM/FMDD FMHH:FMMI:FMSS') AS fill_mode;
SELECT to_timestamp('1985 January 12', 'YYYY FMMonth DD') AS month_name,
       to_timestamp('19971116', 'YYYYMMDD') AS packed,
       to_timestamp('20000-1116', 'YYYY-MMDD') AS five_digit_year;
SELECT to_timestamp('1997 BC 11 16', 'YYYY BC MM DD') AS bc,
       to_timestamp('95-1116', 'YY-MMDD') AS yy, to_timestamp('995-1116', 'YYY-MMDD') AS yyy;
SELECT to_timestamp('2005300', 'YYYYDDD') AS doy, to_timestamp('2005527', 'IYYYIWID') AS iso_week;
SELECT to_timestamp('2011-12-18 11:38 PM', 'YYYY-MM-DD HH12:MI PM') AS pm,
       to_timestamp('2011-12-18 11:38 A.M.', 'YYYY-MM-DD HH12:MI P.M.') AS am_dots;
SELECT to_timestamp('2011-12-18 11:38 +05:20', 'YYYY-MM-DD HH12:MI TZH:TZM') AS tzh_tzm,
       to_timestamp('2011-12-18 11:38 -05', 'YYYY-MM-DD HH12:MI TZH') AS tzh;
SELECT to_timestamp('2018-11-02 12:34:56.025', 'YYYY-MM-DD HH24:MI:SS.MS') AS ms,
       to_timestamp('2018-11-02 12:34:56.123456', 'YYYY-MM-DD HH24:MI:SS.US') AS us,
       to_timestamp('2018-11-02 12:34:56.12', 'YYYY-MM-DD HH24:MI:SS.FF3') AS ff3;
SELECT to_timestamp('2015-02-11 86000', 'YYYY-MM-DD SSSS') AS ssss;
SELECT to_timestamp('  2005 03 02', 'YYYYMMDD') AS leading_spaces,
       to_timestamp('2011-12-18  23:38:15', 'YYYY-MM-DD HH24:MI:SS') AS extra_space;
SELECT to_timestamp(0) AS epoch, to_timestamp(1284352323.5) AS fractional, to_timestamp('infinity'::float8) AS inf;
SELECT to_date('2011 12  18', 'YYYY MM DD') AS d, to_date('2458872', 'J') AS julian,
       to_date('44-02-01 BC', 'YYYY-MM-DD BC') AS bc_date;
-- errors
SELECT to_timestamp('19971', 'YYYYMMDD');
SELECT to_timestamp('199711xy', 'YYYYMMDD');
SELECT to_timestamp('Friday 1-January-1999', 'DY DD MON YYYY');
SELECT to_timestamp('1997-11-Jan-16', 'YYYY-MM-Mon-DD');
SELECT to_timestamp('2016-06-13 25:00:00', 'YYYY-MM-DD HH24:MI:SS');
SELECT to_timestamp('2016-06-13 15:50:55', 'YYYY-MM-DD HH:MI:SS');
SELECT to_timestamp('2016-02-30 15:50:55', 'YYYY-MM-DD HH24:MI:SS');
SELECT to_timestamp('2011-12-18 11:38 PST', 'YYYY-MM-DD HH12:MI TZ');
SELECT to_date('2016-13-10', 'YYYY-MM-DD');
SELECT to_date('2015 366', 'YYYY DDD');
