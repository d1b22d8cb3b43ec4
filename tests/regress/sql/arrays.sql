-- Arrays: literals (input/output, quoting, NULL, dimensions, errors),
-- array types of every base type, casts, ARRAY[...] and ARRAY(subquery),
-- subscripts and slices, UPDATE ... SET a[i], op ANY/ALL, operators,
-- functions, array_agg, ordering/grouping/indexes/joins, COPY and \copy,
-- pg_type and format_type. Expected output is PostgreSQL 15's.
\set VERBOSITY verbose
-- input and output
select '{1,2,3}'::int[], '{}'::int[], '{{1,2},{3,4}}'::int[], '{ {1} , {2} }'::int[];
select '[0:2]={1,2,3}'::int[], '[0:1][1:2]={{1,2},{3,4}}'::int[], '[1:2]={5,6}'::int[];
select '{a b, " c ", NULL, "NULL", \x, "q\"z", nUlL}'::text[];
select '{}'::text[], '{""}'::text[], '{"",a}'::text[], '{"{}"}'::text[];
select array['a,b', 'c"d', 'e\f', '', ' x', 'NULL', null, '{}', 'tab	x'];
select '{t,f,NULL}'::bool[], '{1,-32768}'::int2[], '{9223372036854775807}'::int8[], '{1.5,NaN,-0}'::float8[],
       '{1.25}'::float4[], '{1.50,-2}'::numeric[], '{a,b}'::varchar[], '{ab}'::char(3)[], '{abc}'::name[];
select '{2024-02-29,infinity}'::date[], '{"2024-01-02 03:04:05.5"}'::timestamp[],
       '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid[], '{\\x0102,"\\xff"}'::bytea[], '{0/16B6C50}'::pg_lsn[], '{1,4294967295}'::oid[];
select '{1,2}'::_int4, '{x}'::_text, '{1}'::int4[3], '{{1}}'::int[][], '{1}'::integer array, '{1}'::int array[4];
-- malformed literals
select '{1,2'::int[];
select '1,2'::int[];
select '{1,2}}'::int[];
select '{{1,2},{3}}'::int[];
select '{{1,2},3}'::int[];
select '{1,{2}}'::int[];
select '{"a}'::text[];
select '[1:2]{1,2}'::int[];
select '[1:3]={1,2}'::int[];
select '[1:2={1,2}'::int[];
select '[2:1]={1}'::int[];
select '[:2]={1,2}'::int[];
select '{1,,2}'::int[];
select '{,}'::int[];
select '{{}}'::int[];
select '{ab}c'::text[];
select '{"ab"c}'::text[];
select '{1.5}'::int[];
select '{x}'::int[];
select '{abcd}'::varchar(3)[];
select '{{{{{{{1}}}}}}}'::int[];
-- casts
select '{1,2}'::int[]::text[], '{1,2}'::int[]::bigint[], '{1.7,2.2}'::numeric[]::int[], ARRAY[1,2]::text,
       '{a,b}'::text[]::varchar(1)[], '{abc}'::text[]::varchar(2)[], '{1,2}'::text::int[];
select '{70000}'::int[]::int2[];
select ARRAY[1,2]::bool[];
-- ARRAY constructors
select ARRAY[]::int[], ARRAY[[1,2],[3,4]], ARRAY[ARRAY[1,2],ARRAY[3,4]], ARRAY[1,2.5], ARRAY['a','b'], ARRAY[1,NULL];
select ARRAY[ARRAY[]::int[], ARRAY[]::int[]], ARRAY[['a']]::text[], ARRAY['1','2']::int[], ARRAY[[1],[2]]::text[];
select ARRAY[];
select ARRAY[1,true];
select ARRAY[[1,2],[3]];
select ARRAY[ARRAY[1], ARRAY[]::int[]];
select ARRAY(select g from (values (3), (1), (2)) as v(g) order by g), ARRAY(select 1 where false);
select ARRAY(select ARRAY[g, g * 10] from (values (1), (2)) as v(g));
select ARRAY(select 1, 2);
-- subscripts and slices
select ('{1,2,3}'::int[])[2], ('{1,2,3}'::int[])[5], ('{{1,2},{3,4}}'::int[])[1], ('{{1,2},{3,4}}'::int[])[2][1];
select ('{1,2,3}'::int[])[2:3], ('{1,2,3}'::int[])[:2], ('{1,2,3}'::int[])[2:], ('{1,2,3}'::int[])[:],
       ('{1,2,3}'::int[])[3:2], ('{1,2,3}'::int[])[5:6];
select ('{{1,2,3},{4,5,6}}'::int[])[1:2][2], ('{{1,2,3},{4,5,6}}'::int[])[2][2:3], ('{{1,2,3},{4,5,6}}'::int[])[2:2];
select ('[0:2]={1,2,3}'::int[])[0:1], ('{1,2,3}'::int[])[1][1], ('{1,2,3}'::int[])[1:1][1:1],
       ('{1,2,3}'::int[])[null], ('{1,2,3}'::int[])[1:null];
select ('{1,2,3}'::int[])['1'], ('{1,2,3}'::int[])[1.7];
select ('{1,2,3}'::int[])['a'];
select ('{1,2,3}'::int[])[true];
select (1)[1];
-- a table of arrays
create table arr (id int, a int[], b text[], c numeric[], d varchar(3)[], g integer[][]);
insert into arr values (1, '{1,2,3}', '{a,"b c",NULL}', '{1.5,2.0}', '{ab,cd}', '{{1,2},{3,4}}');
insert into arr values (2, ARRAY[4,5], ARRAY['x'], ARRAY[1.0], ARRAY['abc'], '{}');
insert into arr values (3, '{1,2,3}', '{}', '{1.00}', '{}', NULL);
insert into arr values (4, '{3,2,1}', NULL, NULL, NULL, '{{5}}');
insert into arr values (5, '{}', '{NULL}', '{1.5,2}', '{x}', '{{1,2},{3,4}}');
insert into arr values (6, '{x}');
insert into arr values (6, '{1');
insert into arr (id, d) values (6, '{abcd}');
select * from arr order by id;
select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'arr'::regclass and attnum > 0 order by attnum;
select id, a[1], a[2:3], g[1][2], g[1:1], b[2] from arr order by id;
-- comparisons, ordering, grouping, DISTINCT, joins
select id from arr where a = '{1,2,3}' order by id;
select id from arr where a <> '{1,2,3}' order by id;
select id from arr where a < '{2}' order by id;
select id from arr where a >= '{3}' order by id;
select * from arr order by a desc, id;
select a, count(*) from arr group by a order by a;
select c, count(*) from arr group by c order by c;
select distinct g from arr order by g;
select t1.id, t2.id from arr t1 join arr t2 on t1.a = t2.a order by 1, 2;
select t1.id, t2.id from arr t1 join arr t2 on t1.c = t2.c where t1.id < t2.id order by 1, 2;
select ARRAY[1,2] < ARRAY[1,2,3], ARRAY[1,NULL] > ARRAY[1,2], ARRAY[2] > ARRAY[1,5], ARRAY[1,2] = ARRAY[1,2],
       ARRAY[NULL]::int[] = ARRAY[NULL]::int[], ARRAY[[1,2]] < ARRAY[1,2], '[0:1]={1,2}'::int[] = '{1,2}'::int[];
-- indexes
create index arr_a on arr (a);
select id from arr where a = '{1,2,3}' order by id;
select id from arr where a > '{2}' order by id;
create table arr_u (a int[] primary key, t text[]);
create unique index arr_u_t on arr_u (t);
insert into arr_u values ('{1,2}', '{a}'), ('{1}', '{a,NULL}'), ('{}', '{}'), ('[0:1]={1,2}', NULL);
insert into arr_u values ('{1,2}', '{b}');
insert into arr_u values ('{3}', '{a,NULL}');
select * from arr_u order by a;
select * from arr_u where a = '{1,2}';
drop table arr_u;
-- UPDATE ... SET a[i]
update arr set a[5] = 9 where id in (2, 5);
update arr set a[0] = 0, a[1] = -1 where id = 3;
update arr set g[2][2] = 40 where id = 1;
update arr set g[3][3] = 1 where id = 1;
update arr set g[1] = 1 where id = 1;
update arr set a[2] = 'x' where id = 1;
update arr set a[2] = true where id = 1;
update arr set a[null] = 1 where id = 1;
update arr set id[1] = 1 where id = 1;
update arr set b[2] = 'new' where id = 1 returning b;
update arr set g[1][1] = 7 where id = 6 returning g;
select id, a, g from arr order by id;
-- slice assignment
create table arr_s (id int, a int[]);
insert into arr_s values (1, '{1,2,3}'), (2, NULL), (3, '{}'), (4, '{{1,2},{3,4}}'), (5, '[2:3]={7,8}');
update arr_s set a[2:3] = '{20,30,99}' where id = 1;
update arr_s set a[5:6] = '{5,6}' where id = 2;
update arr_s set a[1:2] = '{5}' where id = 3;
update arr_s set a[:2] = '{5,6}' where id = 3;
update arr_s set a[1:1][1:2] = '{9,9}' where id = 4;
update arr_s set a[2:3][2] = '{9,9,9,9}' where id = 4;
update arr_s set a[0:4] = '{0,1,2,3,4}' where id = 5;
select * from arr_s order by id;
update arr_s set a[3:2] = '{1}' where id = 1;
update arr_s set a[2:3] = null where id = 1;
update arr_s set a[1:2] = 'x' where id = 1;
update arr_s set a[1:2] = 5 where id = 1;
update arr_s set a[1:9] = '{1}' where id = 1;
update arr_s set a[3:3][1:1] = '{1}' where id = 4;
select * from arr_s order by id;
drop table arr_s;
-- INSERT into subscripted columns
create table arr_i (a int[], b text[][]);
insert into arr_i (a[1:3], b[1][2]) values ('{1,2,3}', 'x');
insert into arr_i (a[2], a[4]) values (2, 4);
insert into arr_i (b[0:1]) values ('{p,q}'), ('{r,s}');
insert into arr_i (a[2]) values ('x');
insert into arr_i (a[1:2]) values ('{1}');
select * from arr_i;
drop table arr_i;
-- op ANY / ALL
select 1 = any('{1,2}'), 3 = any('{1,2}'), null = any('{1,2}'), 1 = any('{}'::int[]), 1 = all('{}'::int[]),
       1 = any(null::int[]), 1 = any('{1,NULL}'), 2 = any('{1,NULL}'), 1 < all('{2,3}'), 2 <> all(ARRAY[1,3]);
select 'a' like any(ARRAY['a%', 'b']), 'abc' like all(ARRAY['a%', 'b%']), 1.5 = any(ARRAY[1, 2]);
select id from arr where 2 = any(a) order by id;
select id from arr where 2 = all(a) order by id;
select id from arr where id = any('{1,3,99}') order by id;
select 1 = any(1);
select 'x' = any(ARRAY[1]);
-- operators
select ARRAY[1,2] || 3, 0 || ARRAY[1,2], ARRAY[1,2] || ARRAY[3], ARRAY[1] || '{2,3}', ARRAY[[1,2],[3,4]] || ARRAY[5,6],
       ARRAY[5,6] || ARRAY[[1,2],[3,4]], '[0:1]={1,2}'::int[] || '[5:6]={3,4}'::int[];
select ARRAY[1,2] || null, null || ARRAY[1,2], ARRAY[1,2] || null::int[], ARRAY[1] || 2.5, 'x' || ARRAY['y'];
select ARRAY['a'] || 'b';
select ARRAY[1,2] @> ARRAY[1], ARRAY[1,2] @> ARRAY[1,NULL], ARRAY[1,NULL] <@ ARRAY[1,NULL], ARRAY[1,2] && ARRAY[2,3],
       ARRAY[1,NULL] && ARRAY[NULL]::int[], ARRAY[[1,2]] @> ARRAY[2], '{}'::int[] <@ ARRAY[1];
select id from arr where a @> '{1,3}' order by id;
select id from arr where a && '{4,9}' order by id;
-- functions
select array_length('{}'::int[], 1), array_length(ARRAY[1,2], 1), array_length(ARRAY[1,2], 2),
       array_lower('[3:4]={1,2}'::int[], 1), array_upper('[3:4]={1,2}'::int[], 1), array_ndims('{}'::int[]),
       array_dims('{}'::int[]), array_dims('[3:4]={1,2}'::int[]), array_dims(ARRAY[[1,2,3]]),
       cardinality('{}'::int[]), cardinality(ARRAY[[1,2],[3,4]]);
select array_append(null::int[], 1), array_prepend(0, '[2:3]={1,2}'::int[]), array_prepend(0, '{1,2}'::int[]),
       array_append('[2:3]={1,2}'::int[], 3), array_append(ARRAY[1,2], 2.5);
select array_cat(ARRAY[1,2], ARRAY[[3,4],[5,6]]), array_cat(ARRAY[[1,2]], ARRAY[3,4]),
       array_cat('[0:1]={1,2}'::int[], '[5:5]={3}'::int[]), array_cat(null, null::int[]);
select array_cat(ARRAY[1,2], ARRAY[[3,4,5]]);
select array_cat(ARRAY[[1,2]], ARRAY[[3,4,5]]);
select array_cat(ARRAY[[[1]]], ARRAY[3]);
select array_append(ARRAY[[1]], 2);
select array_remove('[0:3]={1,2,1,3}'::int[], 1), array_remove(ARRAY[1,1], 1), array_remove(ARRAY['a',NULL], NULL),
       array_replace('{{1,2},{NULL,1}}'::int[], 1, 9), array_replace(ARRAY[1,NULL], NULL, 5);
select array_remove(ARRAY[[1]], 1);
select array_position('[0:3]={1,2,NULL,3}'::int[], NULL), array_positions(ARRAY[1,2,1], 1),
       array_positions(ARRAY[1,2,1], 5), array_position(ARRAY[1,2,1], 1, 2), array_position(ARRAY['a','b'], 'b'),
       array_position(ARRAY[1.0, 2], 2.00);
select array_position(ARRAY[1,2,1], 1, null);
select array_position(ARRAY[[1]], 1);
select trim_array('[0:3]={1,2,3,4}'::int[], 2), trim_array(ARRAY[[1,2],[3,4]], 1), trim_array(ARRAY[1], 0);
select trim_array(ARRAY[1,2], 3);
select array_fill(7, ARRAY[2,2]), array_fill(7, ARRAY[2], ARRAY[0]), array_fill(7, ARRAY[0]),
       array_fill(null::int, ARRAY[2]), array_fill('x'::text, '{}');
select array_fill(7, null);
select array_fill(7, ARRAY[null]::int[]);
select array_fill(7, ARRAY[2], ARRAY[1, 2]);
select string_to_array('a,b,,c', ','), string_to_array('abc', null), string_to_array('abc', ''),
       string_to_array('', ','), string_to_array('a,x,b', ',', 'x'), string_to_array(null, ','),
       string_to_array('a--b--c', '--');
select array_to_string(ARRAY[1,NULL,3], '-'), array_to_string(ARRAY[1,NULL,3], '-', '*'),
       array_to_string(ARRAY[[1,2],[3,4]], ','), array_to_string(ARRAY['a','b'], null), array_to_string(ARRAY[1.5, 2], '; ');
select id, cardinality(a), array_length(a, 1), array_dims(g), array_ndims(g), array_to_string(b, '|', '?') from arr order by id;
-- array_agg
select array_agg(id) from arr where id < 4;
select array_agg(b) from arr where id in (1, 2);
select array_agg(c) from arr where c is not null and array_length(c, 1) = 2;
select array_agg(g) from arr where id in (1, 5);
select array_agg(a) from arr;
select array_agg(x) from (select 1 as x where false) s;
select id % 2 as k, array_agg(c) from arr where c is not null group by k order by k;
select array_agg(v) from (values (1), (NULL), (3)) as t(v);
-- correlated ARRAY(subquery)
select id, ARRAY(select x from (values (1), (2), (3)) as v(x) where x <= arr.id order by x desc) from arr where id < 4 order by id;
-- pg_type and format_type
select format_type(1007, -1), format_type(1015, 7), format_type(1231, -1), format_type('_bpchar'::regtype, 9),
       'integer[]'::regtype, '_text'::regtype::oid, 'int4[]'::regtype;
select typname, typelem, typarray, typcategory, typlen, typalign, typstorage, typdelim from pg_type
 where typname in ('_int4', 'int4', '_text', 'text', '_numeric', '_int8', '_bool', '_uuid') order by typname;
select t.typname, e.typname from pg_type t join pg_type e on t.typelem = e.oid where t.typcategory = 'A'
 and t.oid in (1000, 1001, 1003, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1115, 1182, 1185, 1231, 2951, 2210, 3221)
 order by t.oid;
-- COPY and \copy
create table arr_copy (id int, a int[], t text[]);
copy arr_copy from stdin;
1	{1,2,3}	{a,"b c",NULL}
2	{}	{"x\\\\y","q\\"z"}
3	\N	{{a,b},{c,d}}
\.
copy arr_copy from stdin (format csv);
4,"{4,5}","{""a,b"",c}"
\.
copy arr_copy from stdin;
5	{1,x}	{}
\.
select * from arr_copy order by id;
copy arr_copy to stdout;
copy arr_copy to stdout (format csv);
\copy (select a, t from arr_copy where id = 1) to stdout
-- prepared statements with array parameters
prepare p(int[]) as select $1, $1[2], 2 = any($1);
execute p('{1,2,3}');
prepare q(int) as select id from arr where $1 = any(a) order by id;
execute q(3);
drop table arr;
drop table arr_copy;
