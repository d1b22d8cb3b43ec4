-- json and jsonb: input (json verbatim, jsonb normalized), PostgreSQL's
-- 22P02 DETAIL/CONTEXT for bad input, ordering and equality of jsonb
-- (ORDER BY, DISTINCT, GROUP BY, btree and unique indexes, hash joins),
-- casts, the access/containment/existence/editing operators, the build,
-- aggregate and set-returning functions, and jsonpath. Expected output is
-- PostgreSQL 15's.
-- json keeps its input text; jsonb prints its normal form
select '{"b": 1,  "a" : [1, 2.50, {"x":null}], "a": true}'::json;
select '{"b": 1,  "a" : [1, 2.50, {"x":null}], "aa": true, "a": false}'::jsonb;
select '  [1, "two", null, true, 1e3, -0, 0.10]  '::jsonb, '"\u00e9\n\t\"x\""'::jsonb, '"\u00e9"'::json;
select '{"bb":1, "a":2, "c":3, "aaa":4}'::jsonb;
-- bad input: DETAIL and CONTEXT as PostgreSQL
select 'x'::json;
select '{"a" 1}'::jsonb;
select '[1,'::json;
select '"abc'::json;
select '"a\qb"'::json;
select '"\u00zz"'::jsonb;
select '[1,2,]'::json;
select '{"a":1,}'::json;
select '{1:2}'::json;
select '1 2'::json;
select ''::jsonb;
select '01'::json;
select '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, x, 23]'::json;
select E'{\n "one": 1,\n "two":,"two"\n}'::json;
select '"\u0000"'::jsonb;
select '"\u0000"'::json;
select '"\ud83d\ude00"'::jsonb, '"\ud83d"'::json;
select '"\ud83dx"'::jsonb;
-- equality and ordering
select '1.0'::jsonb = '1'::jsonb, '{"a":1,"b":2}'::jsonb = '{"b":2,"a":1}'::jsonb, '[1,2]'::jsonb <> '[2,1]'::jsonb;
create table jt (id int, j jsonb);
insert into jt values (1, '{"a": 1}'), (2, '[1, 2]'), (3, '"str"'), (4, '1'), (5, 'null'), (6, 'true'),
  (7, '[]'), (8, '{}'), (9, '[3]'), (10, '{"a": 1, "b": 2}'), (11, '2.0'), (12, '"abc"'), (13, '[1, [2]]'),
  (14, '{"a": 2}'), (15, '{"b": 0}'), (16, 'false'), (17, '1.00'), (18, '[null]');
select id, j from jt order by j, id;
select j, count(*) from jt group by j order by j;
select distinct j from jt where j @> '1' or j = '1' order by j;
create index jt_j on jt (j);
set enable_seqscan = off;
select id from jt where j = '{"a": 1}';
select id from jt where j > '[9]' and j < '{}' order by j;
reset enable_seqscan;
create table ju (j jsonb primary key);
insert into ju values ('{"a": [1, 2]}'), ('[1]');
insert into ju values ('{"a": [1.0, 2]}');
select a.id, b.j from jt a join ju b on a.j = b.j order by 1;
-- casts
select '{"a":1}'::json::jsonb, '{"b" : 1,  "a":1}'::jsonb::json, '[1]'::jsonb::text, '{"x": 1}'::text::jsonb;
select '12'::jsonb::int, '1.5'::jsonb::int, '2.75'::jsonb::numeric, '1e2'::jsonb::float8, 'true'::jsonb::bool, '-3'::jsonb::int8;
select 'null'::jsonb::int;
select '"a"'::jsonb::numeric;
select '[1]'::jsonb::bool;
-- access operators
select '{"a": {"b": [10, 20, "x"]}, "c": null}'::jsonb -> 'a', '{"a": {"b": [10, 20]}}'::jsonb -> 'a' -> 'b' -> 1,
       '[1, 2, 3]'::jsonb -> -1, '[1, 2, 3]'::jsonb -> 5, '{"a": 1}'::jsonb -> 'z';
select '{"a": "x\ny", "c": null, "n": 1.50}'::jsonb ->> 'a', '{"c": null}'::jsonb ->> 'c', '{"n": 1.50}'::json ->> 'n',
       '{"o": {"k":  [1,  2]}}'::json -> 'o', '{"o": {"k":  [1,  2]}}'::json ->> 'o';
select '{"a": {"b": [10, 20]}}'::jsonb #> '{a,b,1}', '{"a": {"b": [10, 20]}}'::jsonb #>> '{a,b}',
       '{"a": {"b": [10, 20]}}'::json #> '{a,b,-1}', '{"a": 1}'::jsonb #> '{}', '{"a": [1]}'::jsonb #> '{a,x}';
select '{"a":1,"a":2}'::json -> 'a', json_extract_path('{"a": {"b": 3}}', 'a', 'b'),
       jsonb_extract_path_text('{"a": {"b": "q"}}', 'a', 'b');
-- containment and existence
select '{"a": 1, "b": [1, 2, {"c": 3}]}'::jsonb @> '{"b": [{"c": 3}]}', '{"a": 1}'::jsonb @> '{"a": 1, "b": 2}',
       '[1, 2, [3]]'::jsonb @> '[[3], 1]', '["x", "y"]'::jsonb @> '"x"', '"x"'::jsonb @> '["x"]',
       '{"a": 1}'::jsonb <@ '{"a": 1, "b": 2}', '[1, 2]'::jsonb @> '[1, 1, 2]';
select '{"a": 1, "b": 2}'::jsonb ? 'b', '["a", "b"]'::jsonb ? 'a', '[1]'::jsonb ? '1',
       '{"a": 1, "b": 2}'::jsonb ?| array['x', 'b'], '{"a": 1, "b": 2}'::jsonb ?& array['a', 'x'],
       '{"a": 1, "b": 2}'::jsonb ?& array['a', 'b'];
-- editing operators
select '{"a": 1, "b": 2}'::jsonb || '{"b": 3, "c": 4}', '[1, 2]'::jsonb || '[3]', '1'::jsonb || '2',
       '{"a": 1}'::jsonb || '[1]', '[1]'::jsonb || '{"a": 1}';
select '{"a": 1, "b": 2}'::jsonb - 'a', '["a", "b", "a"]'::jsonb - 'a', '{"a": 1, "b": 2, "c": 3}'::jsonb - '{a,c}',
       '[1, 2, 3]'::jsonb - 1, '[1, 2, 3]'::jsonb - -1, '{"a": {"b": [1, 2]}}'::jsonb #- '{a,b,0}';
select '"x"'::jsonb - 'x';
select '{"a": 1}'::jsonb - 0;
select '[1, 2]'::jsonb #- '{a}';
-- functions
select jsonb_set('{"a": [1, 2], "b": 1}', '{a,0}', '"x"'), jsonb_set('{"a": 1}', '{z}', '2'),
       jsonb_set('{"a": 1}', '{z}', '2', false), jsonb_set('[1, 2]', '{-5}', '0'), jsonb_set('[1, 2]', '{9}', '3');
select jsonb_insert('[1, 2]', '{1}', '"n"'), jsonb_insert('[1, 2]', '{1}', '"n"', true), jsonb_insert('{"a": 1}', '{b}', '2');
select jsonb_insert('{"a": 1}', '{a}', '2');
select jsonb_set('1', '{a}', '2');
select jsonb_set_lax('{"a": 1, "b": 2}', '{b}', null), jsonb_set_lax('{"a": 1, "b": 2}', '{b}', null, true, 'delete_key'),
       jsonb_set_lax('{"a": 1}', '{b}', null, true, 'return_target'), jsonb_set_lax('{"a": 1}', '{a}', '5');
select jsonb_set_lax('{"a": 1}', '{a}', null, true, 'raise_exception');
select jsonb_set_lax('{"a": 1}', '{a}', null, true, 'nonsense');
select jsonb_strip_nulls('{"a": null, "b": [null, {"c": null, "d": 1}]}'),
       json_strip_nulls('{"a": null, "b": [null, {"c": null, "d": 1}]}');
select jsonb_pretty('{"a": [1, {"b": null}], "c": {}, "d": []}');
select jsonb_typeof('{}'), jsonb_typeof('[]'), json_typeof('"s"'), json_typeof('1.5'), jsonb_typeof('true'), jsonb_typeof('null');
select json_array_length('[1, [2, 3]]'), jsonb_array_length('[]');
select jsonb_array_length('{}');
select jsonb_array_length('3');
select to_json('a "q"'::text), to_json(1.50), to_json(array[1, 2]), to_json(array[['a', null], ['b', 'c']]),
       to_json(true), to_jsonb(2.0::float8), to_jsonb('x'::text), to_json(date '2020-01-02'),
       to_json(timestamp '2020-01-02 03:04:05.5'), to_json('NaN'::float8);
select array_to_json('{{1,2},{3,4}}'::int[]), array_to_json('{1,2,3}'::int[], true);
select json_build_object('a', 1, 'b', 'two', 'c', null, 'd', array[1, 2], 'e', '{"x": 1}'::json),
       jsonb_build_object('b', 1, 'a', 2, 'b', 3), json_build_array(1, 'a', null, true), jsonb_build_array(),
       json_build_object();
select json_build_object(null, 1);
select jsonb_build_object(null, 1);
select json_build_object('a');
select json_object('{a,1,b,null}'), json_object('{{a,1},{b,2}}'), jsonb_object('{a,b}', '{1,2}');
select json_object('{a,b,c}');
-- aggregates
select json_agg(x), jsonb_agg(x), json_object_agg('k' || x, x), jsonb_object_agg('k' || x, x)
  from generate_series(1, 3) x;
select json_agg(array[x]) from generate_series(1, 2) x;
select json_agg(j order by id), jsonb_agg(j) filter (where id < 3) from jt where id < 5;
select jsonb_agg(x) from generate_series(1, 0) x;
select json_object_agg(null::text, 1);
-- set-returning functions
select * from json_each('{"a": 1, "b": [1,  2], "c": null}');
select * from jsonb_each('{"b": 1, "a": {"x": "y"}}');
select key, value from jsonb_each_text('{"a": "s", "b": null, "c": [1]}') order by key;
select json_each('{"a": 1, "b": [1,  2], "c": null}'), jsonb_each_text('{"x": "s p", "y": null}');
select * from json_array_elements('[1, "a", [2,  3], null]');
select jsonb_array_elements_text('[1, "a", null]');
select json_object_keys('{"a": 1, "b": 2, "a": 3}'), jsonb_object_keys('{"b": 1, "a": 2}');
select * from jsonb_array_elements('{"a": 1}');
select * from jsonb_each('[1]');
select jsonb_object_keys('[1]');
-- jsonpath
select '$.a[*] ? (@ > 1)'::jsonpath, 'strict $.a.b'::jsonpath, '$.a > 1'::jsonpath, '$[1 to last, 0]'::jsonpath,
       '$ ? (@.a == 1 && (@.b < 2 || !(@.c == "x")))'::jsonpath, '$.a.size()'::jsonpath, '-$.a + 2 * 3'::jsonpath;
select '$.'::jsonpath;
select '@'::jsonpath;
select * from jsonb_path_query('{"a": [1, 2, 3, {"b": 4}]}', '$.a[*] ? (@ > 1)');
select jsonb_path_query_array('{"a": [1, 2, 3]}', '$.a[1 to last]'), jsonb_path_query_first('{"a": [5, 6]}', '$.a[*]'),
       jsonb_path_query_array('{"a": {"b": 1, "c": 2}}', '$.a.*'), jsonb_path_query_array('[[1], [2, 3]]', '$[*][0]'),
       jsonb_path_query_array('{"x": [{"n": "a", "v": 1}, {"n": "b", "v": 5}]}', '$.x[*] ? (@.v > 2).n');
select jsonb_path_exists('{"a": [1, 2]}', '$.a ? (@ == 2)'), jsonb_path_exists('{"a": 1}', '$.b'),
       '{"a": [1, 2]}'::jsonb @? '$.a[*] ? (@ > 1)', '{"a": [1, 2]}'::jsonb @@ '$.a[*] > 1',
       jsonb_path_match('{"a": 1}', '$.a == 1'), jsonb_path_query_array('[1, "a", null]', '$[*].type()'),
       jsonb_path_query_first('[1, 2, 3]', '$.size()'), jsonb_path_query_array('{"a": 2}', '$.a * 3 + 1'),
       jsonb_path_query_array('[1, 2, 3]', '$[*] ? (@ > $min)', '{"min": 1}');
select jsonb_path_query('{"a": 1}', 'strict $.b');
select jsonb_path_query('[1]', 'strict $.a');
select jsonb_path_query('{"a": 1}', 'lax $.b'), jsonb_path_exists('{"a": 1}', 'strict $.b', '{}', true);
select jsonb_path_match('[1, 2]', '$[*]');
-- COPY text round trip keeps json's text and jsonb's normal form
create table jc (j json, b jsonb);
insert into jc values ('{"z":1,  "a" : 2}', '{"z":1,  "a" : 2}'), ('"tab\there"', '"tab\there"'), (null, null);
copy jc to stdout;
create table jc2 (j json, b jsonb);
copy jc2 from stdin;
{"k" :  1}	{"k" :  1}
[1,2]	[1,2]
\.
select * from jc2;
copy jc2 from stdin;
{"k"	{}
\.
select count(*) from jc2;
-- jsonb subscripts read like #>
select ('{"a": {"b": [1, 2]}}'::jsonb)['a']['b'][1], ('[1, 2, 3]'::jsonb)[-1], ('{"1": "x"}'::jsonb)[1],
       ('{"a": 1}'::jsonb)['z'], ('{"a": 1}'::jsonb)[null::text];
select ('[1, 2]'::jsonb)[1:2];
-- VARIADIC array calls
select json_build_object(variadic array['a', '1', 'b', null]), jsonb_build_array(variadic array[1, 2]),
       json_build_object(variadic null::text[]), jsonb_extract_path('{"a": {"b": 1}}', variadic array['a', 'b']),
       jsonb_build_object(variadic array[[1, 4], [2, 5]]);
select json_build_object(variadic '{a,b,c}'::text[]);
select $$''$$::json;
drop table jt, ju, jc, jc2;
