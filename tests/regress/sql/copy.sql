-- COPY FROM STDIN / TO STDOUT in text and CSV: options, escapes, NULLs,
-- round trips, and errors that leave nothing of the failed COPY behind.
\set VERBOSITY verbose
create table cp (id int, name text, price numeric(8,2), ok boolean, day date);

copy cp from stdin;
1	apple	1.50	t	2026-01-01
2	tab\there	2.00	f	2026-01-02
3	\N	\N	\N	\N
4	back\\slash	0	true	2026-12-31
5	new\nline	-1.25	false	2026-02-28
\.
select id, name, price, ok, day from cp order by id;
copy cp to stdout;
copy cp (id, name) to stdout;
copy (select id, price from cp where id < 3 order by id) to stdout;

-- text with DELIMITER and NULL
copy cp from stdin with (delimiter '|', null 'NULL');
6|pipe|3.00|t|2026-03-01
7|NULL|NULL|f|NULL
\.
copy cp (id, name) from stdin (delimiter ',');
8,only two
\.
select id, name, price, ok, day from cp where id >= 6 order by id;

-- CSV with HEADER, quotes, embedded delimiters and newlines
copy cp from stdin with (format csv, header true);
id,name,price,ok,day
9,"comma, inside",4.5,t,2026-04-01
10,"quote "" inside",,f,
11,"two
lines",1,t,2026-04-02
12,"",0,f,2026-04-03
\.
select id, name, price is null as price_null, day from cp where id >= 9 order by id;
copy cp from stdin with (format csv, delimiter ';', null 'N/A', quote '''');
13;'semi;colon';N/A;t;2026-05-01
14;N/A;2;f;'2026-05-02'
\.
select id, name, price from cp where id >= 13 order by id;
copy cp to stdout with (format csv);
copy cp to stdout with (format csv, header, delimiter ';', null 'N/A');
copy (select id, name from cp where id in (9, 10, 11, 12) order by id) to stdout with (format csv, quote '''');

-- a round trip: copy out as CSV into a second table through psql variables is
-- not possible in a script, so reload the text form of a known set
create table cp2 (id int, name text, price numeric(8,2), ok boolean, day date);
copy cp2 from stdin;
1	apple	1.50	t	2026-01-01
2	tab\there	2.00	f	2026-01-02
3	\N	\N	\N	\N
\.
select count(*) from cp2 join cp using (id, name, price, ok, day);
select count(*) from cp where id <= 3;

-- errors: nothing of the failed COPY becomes visible
select count(*) from cp;
copy cp from stdin;
20	good	1	t	2026-01-01
21	bad	x	t	2026-01-01
\.
select count(*) from cp;
copy cp (id, name) from stdin;
22	good
23	bad	extra
\.
select count(*) from cp;
copy cp from stdin;
24	missing	1
\.
select count(*) from cp;
copy cp from stdin;
zz	bad	1	t	2026-01-01
\.
copy cp from stdin with (format csv);
25,good,1,t,2026-01-01
26,bad,1,maybe,2026-01-01
\.
copy cp from stdin with (format csv);
27,"unterminated,1,t,2026-01-01
\.
select count(*) from cp;
copy cp (id, nosuch) from stdin;
\.
copy nosuchtable from stdin;
\.
copy cp from stdin with (format xml);
\.
copy cp from stdin with (delimiter 'ab');
\.
select count(*) from cp;

-- inside a transaction: a rolled back COPY disappears, a committed one stays
begin;
copy cp2 from stdin;
100	rolled	1	t	2026-01-01
\.
select count(*) from cp2;
rollback;
select count(*) from cp2;
begin;
copy cp2 (id) from stdin;
101
\.
commit;
select id, name from cp2 order by id;

-- psql's \copy sends the same COPY FROM STDIN / TO STDOUT
\copy cp2 (id, name) from stdin with (format csv)
102,"via \copy"
103,
\.
\copy (select id, name from cp2 where id > 101 order by id) to stdout with (format csv, header)
\copy cp2 (id) from stdin
bad
\.
select count(*) from cp2;

drop table cp, cp2;
