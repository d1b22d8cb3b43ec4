-- Aggregates with ORDER BY, string_agg, statistics and bit aggregates,
-- ordered-set aggregates (WITHIN GROUP).
create table ao (g int, x int, s text, f float8, n numeric, b bytea);
insert into ao values
  (1, 3, 'c', 1.5, 1.10, '\x01'), (1, 1, 'a', 2.5, 2.20, '\x02'), (1, 2, 'b', null, 3.30, '\x03'),
  (2, 5, 'e', 4.0, 10, '\x04'), (2, 4, null, 8.0, 20, null), (2, 4, 'd', 16.0, 30.5, '\x05'),
  (3, null, null, null, null, null);
-- string_agg and ORDER BY inside aggregates
select g, string_agg(s, ',') as plain, string_agg(s, ',' order by s desc) as sorted,
       string_agg(s, '-' order by x, s) as by_x
  from ao group by g order by g;
select string_agg(s, ', ' order by x desc nulls first) from ao;
select string_agg(s, null order by s) from ao;
select string_agg(b, '\xff'::bytea order by x) from ao where g = 1;
select g, count(distinct x order by x), string_agg(distinct s, '/' order by s) from ao group by g order by g;
select string_agg(distinct s, ',' order by x) from ao;
select string_agg(x::text, ',' order by f desc, x) filter (where x > 1) from ao;
select g, min(s order by x), sum(x order by s desc) from ao group by 1 order by 1;
-- grouped output comes in key order with DISTINCT/ordered aggregates
select g, count(distinct s) from ao group by g;
select g, string_agg(s, '' order by s) from ao group by g;
-- statistics
select var_pop(x), var_samp(x), variance(x), stddev_pop(x), stddev_samp(x), stddev(x) from ao;
select var_pop(n), var_samp(n), stddev_pop(n), stddev_samp(n) from ao;
select var_pop(f), var_samp(f), stddev_pop(f), stddev_samp(f) from ao;
select variance(x::int8), stddev(x::int2), variance(f::float4) from ao;
select g, variance(x), stddev(n) from ao group by g order by g;
select variance(x) from ao where x = 1;
select var_pop(1.0), var_samp(1), stddev_pop(2::float8);
select variance(1::int4), variance(1::float4), stddev(1::numeric), stddev(x::int8) from ao \gdesc
select corr(f, x), covar_pop(f, x), covar_samp(f, x), regr_count(f, x) from ao;
select regr_sxx(f, x), regr_syy(f, x), regr_sxy(f, x), regr_avgx(f, x), regr_avgy(f, x) from ao;
select regr_r2(f, x), regr_slope(f, x), regr_intercept(f, x) from ao;
select regr_count(f, x), corr(f, x), covar_samp(f, x) from ao where g = 3;
select corr(1, x), regr_r2(1, x), regr_r2(x, 1) from ao;
-- bit aggregates and every
select bit_and(x), bit_or(x), bit_xor(x), bit_and(x::int2), bit_or(x::int8), every(x > 0) from ao;
select g, bit_xor(x), every(s is not null) from ao group by g order by g;
select count(*) filter (where x > 2), count(*) from ao;
select min('0/10'::pg_lsn), max('0/10'::pg_lsn);
-- ordered-set aggregates
select percentile_cont(0.5) within group (order by x) from ao;
select percentile_cont(0.25) within group (order by f), percentile_disc(0.25) within group (order by f) from ao;
select g, percentile_cont(0.5) within group (order by x), percentile_disc(0.5) within group (order by x desc),
       mode() within group (order by x) from ao group by g order by g;
select mode() within group (order by s desc) from ao;
select percentile_disc(0) within group (order by s), percentile_disc(1) within group (order by s) from ao;
select percentile_cont(0.5) within group (order by x) from ao where false;
select percentile_cont(null) within group (order by x) from ao;
select percentile_disc(0.5) within group (order by n), mode() within group (order by s) from ao \gdesc
-- errors
select percentile_cont(1.5) within group (order by x) from ao;
select mode() from ao;
select mode(x) from ao;
select count() within group (order by x) from ao;
select count(x) within group (order by x) from ao;
select count(distinct x order by s) from ao;
select string_agg(distinct s, ',' order by s || 'x') from ao;
select sum(x order by sum(x)) from ao;
select string_agg(s, ',' order by 1) from ao;
select upper(s order by s) from ao;
drop table ao;
