-- to_char(timestamp|timestamptz, format) with the common template
-- patterns. Expected output is PostgreSQL 15's.
\set VERBOSITY verbose
set timezone = 'UTC';
select to_char(timestamp '2020-02-09 13:04:05.123456', 'YYYY-MM-DD HH24:MI:SS.MS'), to_char(timestamp '2020-02-09 13:04:05.123456', 'US');
select to_char(timestamp '2020-02-09 03:04:05', 'HH12:MI AM'), to_char(timestamp '2020-02-09 13:04:05', 'HH:MI pm'), to_char(timestamp '2020-02-09 13:04:05', 'hh12 a.m.');
select to_char(timestamp '2020-02-09 13:04:05', 'Month|MONTH|month|Mon|MON|mon');
select to_char(timestamp '2020-02-09 13:04:05', 'FMMonth|FMDay|Day|DAY|day|Dy|DY|dy');
select to_char(timestamp '2020-02-09 13:04:05', 'FMDD FMMM FMHH24'), to_char(timestamp '2020-02-09 13:04:05', 'DDth Dth FMDDth ddTH');
select to_char(timestamp '2021-01-01 00:00:00', 'IYYY-IW ID'), to_char(timestamp '2020-12-31 00:00:00', 'DDD WW Q D'), to_char(timestamp '2020-02-09 00:00:00', 'YYY YY Y');
select to_char(timestamp '2020-02-09 13:04:05', '"Date:" YYYY "at" HH24"h"'), to_char(timestamp '2020-02-09 13:04:05', 'yyyy/mm/dd hh24-mi-ss');
select to_char(timestamptz '2020-02-09 13:04:05+00', 'YYYY-MM-DD HH24:MI:SS TZ'), to_char(timestamp 'infinity', 'YYYY');
select to_char(timestamp '2020-03-01 00:00:00', 'FMDDth FMMonth YYYY'), to_char(timestamp '2020-03-02 00:00:00', 'FMDDth'), to_char(timestamp '2020-03-03 00:00:00', 'FMDDth'), to_char(timestamp '2020-03-11 00:00:00', 'FMDDth');
