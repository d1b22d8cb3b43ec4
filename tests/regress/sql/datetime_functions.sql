-- Date/time field functions: extract (numeric), date_part (double
-- precision), date_trunc, make_date, make_timestamp, and their errors.
-- Expected output is PostgreSQL 15's.
\set VERBOSITY verbose
set timezone = 'UTC';
select extract(year from timestamp '2020-02-29 13:14:15.123456'), extract(month from timestamp '2020-02-29 13:14:15.123456'),
       extract(day from timestamp '2020-02-29 13:14:15.123456'), extract(hour from timestamp '2020-02-29 13:14:15.123456'),
       extract(minute from timestamp '2020-02-29 13:14:15.123456'), extract(second from timestamp '2020-02-29 13:14:15.123456');
select extract(milliseconds from timestamp '2020-02-29 13:14:15.123456'), extract(microseconds from timestamp '2020-02-29 13:14:15.123456'),
       extract(epoch from timestamp '2020-02-29 13:14:15.123456'), extract(epoch from timestamptz '2020-02-29 13:14:15+00');
select extract(dow from date '2020-03-01'), extract(isodow from date '2020-03-01'), extract(doy from date '2020-12-31'),
       extract(quarter from date '2020-08-15'), extract(week from date '2021-01-03'), extract(isoyear from date '2021-01-03');
select extract(decade from date '2020-01-01'), extract(century from date '2000-12-31'), extract(century from date '2001-01-01'),
       extract(millennium from date '2001-01-01'), extract(epoch from date '2020-01-01'), extract(year from date '0001-01-01 BC');
select extract(timezone from timestamptz '2020-01-01 00:00:00+00'), extract('YEAR' from timestamp '1999-12-31 23:59:59');
select extract(year from timestamp 'infinity'), extract(month from timestamp 'infinity'), extract(epoch from timestamp '-infinity');
select date_part('year', timestamp '2020-02-29 13:14:15.5'), date_part('second', timestamp '2020-02-29 13:14:15.5'),
       date_part('milliseconds', timestamp '2020-02-29 13:14:15.5'), date_part('epoch', timestamp '2020-02-29 13:14:15.5'),
       date_part('dow', date '2020-03-01'), date_part('hour', date '2020-03-01');
select extract(hour from date '2020-01-01');
select extract(fortnight from timestamp '2020-01-01');
select extract(timezone from timestamp '2020-01-01');
select date_trunc('year', timestamp '2020-08-15 13:14:15.5'), date_trunc('quarter', timestamp '2020-08-15 13:14:15.5'),
       date_trunc('month', timestamp '2020-08-15 13:14:15.5'), date_trunc('week', timestamp '2020-08-15 13:14:15.5');
select date_trunc('day', timestamp '2020-08-15 13:14:15.5'), date_trunc('hour', timestamp '2020-08-15 13:14:15.5'),
       date_trunc('minute', timestamp '2020-08-15 13:14:15.5'), date_trunc('second', timestamp '2020-08-15 13:14:15.5'),
       date_trunc('milliseconds', timestamp '2020-08-15 13:14:15.123456');
select date_trunc('decade', timestamp '2029-08-15'), date_trunc('century', timestamp '2020-08-15'),
       date_trunc('millennium', timestamp '2020-08-15'), date_trunc('day', timestamptz '2020-08-15 13:14:15+00');
select date_trunc('fortnight', timestamp '2020-01-01');
select make_date(2020, 2, 29), make_date(-44, 3, 15), make_timestamp(2020, 2, 29, 13, 14, 15.5);
select make_date(2021, 2, 29);
select make_date(0, 1, 1);
select make_timestamp(2020, 1, 1, 25, 0, 0);
