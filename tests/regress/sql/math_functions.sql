-- Math functions for double precision, numeric and integers: logarithms,
-- exponentials, roots, sign, rounding, trigonometry, gcd/lcm and their
-- errors. Expected output is PostgreSQL 15's.
\set VERBOSITY verbose
-- float8 forms (integer arguments resolve to double precision)
select ln(2), log(1000), log10(0.001::float8), exp(1), exp(0::float8), sqrt(2), cbrt(-8);
select power(2, 10), pow(2.0::float8, 0.5), 2.0::float8 ^ 3, sign(-3.5::float8), sign(0::float8), sign(7::float8);
select pi(), degrees(pi()), radians(180), degrees(1);
select ceil(1.2::float8), ceiling(-1.2::float8), floor(-1.5::float8), trunc(-1.7::float8), round(2.5::float8);
select sin(0), cos(0), tan(0), asin(1), acos(1), atan(1), atan2(1, 1), cot(1);
select sinh(1), cosh(0), tanh(0), asinh(0), acosh(1), atanh(0);
select ln('NaN'::float8), exp('-Infinity'::float8), exp('Infinity'::float8), sin('NaN'::float8);
-- numeric forms keep PostgreSQL's result scales
select ln(2.0), ln(100::numeric), ln(1.05), log(100::numeric), log10(1000::numeric), log(2.0, 64.0);
select exp(1.0), exp(0.0), exp(2::numeric), exp(-1.5), exp(10.5);
select sqrt(2::numeric), sqrt(16.00), power(2::numeric, 10), 2.5 ^ 2;
select sign(-2.5), sign(0.0), sign(4::numeric), scale(1.230), scale(12), scale('NaN'::numeric);
select ceil(1.2), ceiling(-1.2), floor(-1.5), trunc(-1.789, 2), trunc(1234.5, -2), round(2.5), round(-2.5), round(1.2345, 3);
select mod(7, 3), mod(-7, 3), mod(7.5, 2), div(7, 2), div(-7.5, 2), 7.5 % 2;
-- gcd and lcm
select gcd(12, 18), gcd(-12, 18), gcd(0, 0), lcm(4, 6), lcm(-4, 6), lcm(0, 5);
select gcd(12::bigint, 18::bigint), lcm(21::bigint, 6::bigint), gcd(1.5, 2.25), lcm(1.5, 2.25), gcd(12::numeric, 18::numeric);
-- errors
select ln(0);
select ln(-1);
select ln(0::numeric);
select log(10.0, -1.0);
select log(1.0, 10.0);
select exp(1000);
select exp(-1000);
select sqrt(-1);
select sqrt(-1::numeric);
select asin(2);
select acos(-1.5);
select acosh(0.5);
select atanh(1.5);
select sin('Infinity'::float8);
select gcd(-2147483648, 0);
select lcm(2147483647, 2147483646);
select power(0::float8, -1);
select power(-8::float8, 0.5);
select mod(1, 0);
select div(1, 0);
select gcd((-9223372036854775808)::int8, 1::int8), gcd((-9223372036854775808)::int8, -1::int8), gcd((-2147483648)::int4, -1);
select lcm((-9223372036854775808)::int8, -1::int8);
