-- Expressions without FROM: arithmetic, types, casts, NULL, CASE, IN,
-- BETWEEN, LIKE. Expected output is PostgreSQL 15's.

-- integer arithmetic and its result types
select 1 + 2, 7 - 10, 6 * 7, 7 / 2, -7 / 2, 7 % 3, -7 % 3, 2 ^ 10;
select 1 + 2 * 3, (1 + 2) * 3, - - 5, +5, abs(-17);
select 32767::int2, 2147483647, 9223372036854775807, -2147483648;
select 100::int2 + 1::int2, 100::int2 * 2, 2147483647::int8 + 1;

-- numeric
select 1.5 + 2.25, 10.0 / 4, 1 / 3.0, 2.50 * 2, 3.14159::numeric(10,2);
select round(2.5), round(-2.5), round(2.567, 2), round(1234.5678, -2);
select 0.1 + 0.2 = 0.3 as exact, 1.10 = 1.1 as equal, 123456789012345678901234567890.5 + 1;
select -0.0001::numeric, 1e3::numeric, 1.5e-3;

-- float
select 1.5::float8 * 2, 0.1::float8 + 0.2::float8, 1::float8 / 3, 1e100::float8;
select 2.5::float4, 1::float4 / 3, '3.25'::float8, 'NaN'::float8, '-Infinity'::float8;
select 10::float8 ^ 2, sqrt(16::float8), abs(-2.5::float8);

-- text, varchar, char
select 'abc' || 'def', 'abc' || 1, length('hello'), length(''), upper('MiXeD'), lower('MiXeD');
select 'ab'::varchar(5), 'ab'::char(4) || '|', length('ab '::char(4)), 'abcdef'::varchar(3);
select 'O''Reilly', E'tab\there', 'a' < 'b', 'abc' = 'abc', 'abc' <> 'abd';
select substr('hello world', 7), substr('hello', 2, 3), length('héllo'), octet_length('héllo');

-- boolean
select true, false, true and null, false and null, true or null, not true, null::bool is null;
select 't'::bool, 'yes'::bool, 'off'::bool, 1 < 2, 2 <= 1, 3 >= 3, 4 != 4;

-- date and timestamp
select date '2026-11-30', '2026-02-28'::date + 1, date '2026-03-01' - date '2026-02-01';
select timestamp '2026-11-30 12:34:56', timestamp '2026-11-30 12:34:56.123456', '2026-11-30'::timestamp;
select date '2026-11-30' < date '2026-12-01', date '2024-02-29';

-- casts
select '42'::int, 42::text, cast('7' as int2), cast(3.7 as int), cast(-3.5 as int), 3.99::int8;
select '  12  '::int, 12::numeric(5,2), 1::bool, 0::bool, true::int, 'x'::text::varchar(3);
select 1.5::float8::int, 2.5::float8::int, 1e3::float8::text, 123::float4;

-- NULL handling
select null, null::int, null = null, null <> 1, 1 + null, 'a' || null;
select null is null, 1 is null, null is not null, 1 is not null;
select coalesce(null, null, 3), coalesce(1, 2), coalesce(null::text, 'x'), coalesce(null::int, null);
select 1 is distinct from null, null is distinct from null, 1 is not distinct from 1;

-- CASE
select case when 1 > 2 then 'a' when 2 > 1 then 'b' else 'c' end;
select case 2 when 1 then 'one' when 2 then 'two' end, case 3 when 1 then 'one' end;
select case when null then 1 else 0 end, case when true then 1.5 else 2 end;

-- IN, BETWEEN
select 3 in (1, 2, 3), 4 in (1, 2, 3), 4 not in (1, 2, 3), null in (1, 2), 1 in (1, null), 2 in (1, null);
select 5 between 1 and 10, 5 not between 1 and 4, 'b' between 'a' and 'c', 10 between 10 and 10;
select 5 between 10 and 1, 5 between symmetric 10 and 1;

-- LIKE
select 'abc' like 'a%', 'abc' like '_b_', 'abc' like 'b%', 'abc' not like '%c', 'a%c' like 'a\%c';
select 'ABC' ilike 'a%', 'abc' like 'abc', 'abc' like '', '' like '%';

-- comparison of mixed types
select 1 = 1.0, 1::int2 = 1::int8, 2.5 > 2, 1::float8 = 1::numeric;

-- functions
select coalesce(length(null), -1), current_database(), current_user, now() = now();
select mod(17, 5), ceil(1.2), floor(-1.2), trunc(2.7), round(-1.5::float8), abs(-7::int8);
