-- IN lists long enough to be hashed (9 constants and more) must answer
-- exactly as item-by-item comparison: NULLs, NOT IN, types, mixed
-- integer/numeric constants, and lists just below and at the threshold.
create table il (id int, i int, b bigint, n numeric(10,2), f float8, t text, c char(4), v varchar(8), d date, ok bool);
insert into il values
  (1, 1, 10000000000, 1.50, 0.5, 'a', 'ab', 'x', '2024-01-01', true),
  (2, 2, 2, 2.00, 2, 'b', 'cd  ', 'yy', '2024-02-29', false),
  (3, 3, -3, -3.25, -0.0, 'c', 'ef', 'zzz', '1999-12-31', null),
  (4, null, null, null, null, null, null, null, null, null),
  (5, 9, 9, 9, 'NaN', 'i', 'i', 'i', '2000-01-09', true),
  (6, 10, 10, 10.10, 1e300, 'j ', 'j', 'j ', '2000-01-10', false),
  (7, 100, 100, 100, '-Infinity', '', '', '', '2000-01-01', true);

-- 8 constants (item by item) and 9 (hashed) give the same answers
select id, i in (1, 3, 5, 7, 11, 13, 17, 19) as in8, i in (1, 3, 5, 7, 11, 13, 17, 19, 23) as in9 from il order by id;
select id, i not in (1, 3, 5, 7, 11, 13, 17, 19) as nin8, i not in (1, 3, 5, 7, 11, 13, 17, 19, 23) as nin9 from il order by id;

-- NULL in the list: a value not found is NULL, a value found is true
select id, i in (1, 2, 3, 4, 5, 6, 7, 8, null) as r, i not in (1, 2, 3, 4, 5, 6, 7, 8, null) as nr from il order by id;
select id, i in (null, null, null, null, null, null, null, null, null, null) as all_null from il order by id;
select count(*) from il where i in (1, 2, 3, 4, 5, 6, 7, 8, 9, null);
select count(*) from il where i not in (1, 2, 3, 4, 5, 6, 7, 8, 9, null);
select count(*) from il where i not in (1, 2, 3, 4, 5, 6, 7, 8, 9, 11);

-- mixed integer and numeric constants: compared as numeric
select id, i in (1.0, 2.5, 3, 4, 5, 6, 7, 8, 9.00) as mixed from il order by id;
select id, n in (1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10.1, -3.25) as num from il order by id;
select id, b in (10000000000, 2, 3, 4, 5, 6, 7, 8, 9, 100) as big from il order by id;
select id, i in (1::bigint, 2, 3, 4, 5, 6, 7, 8, 9, 100) as int_big from il order by id;

-- floats: -0 = 0, NaN = NaN, infinities
select id, f in (0, 2, 0.5, 'NaN', '-Infinity', 6, 7, 8, 9) as flt from il order by id;

-- text, char(n) (trailing blanks do not count), varchar, date, bool
select id, t in ('a', 'b', 'j', 'd', 'e', 'f', 'g', 'h', '') as txt from il order by id;
select id, c in ('ab', 'cd', 'j  ', 'x', 'y', 'z', 'w', 'v', 'u') as chr from il order by id;
select id, v in ('x', 'yy', 'j', 'q', 'r', 's', 't', 'u', 'w') as vc from il order by id;
select id, d in ('2024-01-01', '2024-02-29', '2000-01-10', '2001-01-01', '2002-01-01', '2003-01-01', '2004-01-01', '2005-01-01', '2006-01-01') as dt from il order by id;
select id, ok in (true, true, true, true, true, true, true, true, true) as bl from il order by id;

-- a non-constant item keeps item-by-item evaluation
select id, i in (1, 2, 3, 4, 5, 6, 7, 8, id + 2) as expr from il order by id;

-- in WHERE, with a prepared statement, and in a join filter
select id from il where t in ('a', 'c', 'i', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6') order by id;
prepare q(int) as select id from il where i in (1, 2, 3, 9, 10, 11, 12, 13, 14) and id > $1 order by id;
execute q(0);
execute q(2);
deallocate q;
select a.id, b.id from il a join il b on a.id = b.id where a.i in (1, 2, 3, 9, 10, 100, 1000, 10000, 100000) order by 1;
drop table il;
