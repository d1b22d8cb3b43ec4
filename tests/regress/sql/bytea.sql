-- The bytea type: hex and escape input, hex output, comparison and
-- ordering, indexes, ||, length, substring, get_byte/set_byte,
-- encode/decode, md5 and sha2 digests. Expected output is PostgreSQL 15's.
\set VERBOSITY verbose
select '\x'::bytea, '\x0a1B'::bytea, '\x 01 02 '::bytea, 'abc'::bytea, 'a\\b'::bytea, 'a\000b\377'::bytea;
select '\x0'::bytea;
select '\xzz'::bytea;
select 'a\9'::bytea;
select 'abc'::bytea = '\x616263', 'abc'::bytea < 'abd'::bytea, '\x00'::bytea < '\xff'::bytea, ''::bytea < '\x00'::bytea;
select 'ab'::bytea || 'cd'::bytea, length('abcd'::bytea), octet_length('\x0102'::bytea), length('é'::bytea);
select substring('\x0102030405'::bytea from 2 for 3), substr('\x0102030405'::bytea, 4), substring('\x0102'::bytea from 5);
select get_byte('\x0a0b'::bytea, 1), set_byte('\x0a0b'::bytea, 0, 255);
select get_byte('\x0a0b'::bytea, 2);
select encode('\x00ff41'::bytea, 'hex'), encode('hello world'::bytea, 'base64'), encode('a\000\\b\351'::bytea, 'escape');
select decode('00ff41', 'hex'), decode('aGVsbG8gd29ybGQ=', 'base64'), decode('a\000b', 'escape');
select encode(decode(repeat('ab', 60), 'hex'), 'base64');
select encode('x'::bytea, 'rot13');
select decode('abc', 'hex');
select md5('abc'::bytea), sha256('abc'::bytea), sha224(''::bytea);
select sha512('abc'::bytea);
select '\x0102'::bytea::text, 'abc'::text::bytea;
create table blobs (id int, b bytea);
insert into blobs values (1, '\xff'), (2, 'abc'), (3, '\x00'), (4, null), (5, '');
select id, b from blobs order by b;
create unique index blobs_b on blobs (b);
insert into blobs values (6, '\x616263');
select id from blobs where b = 'abc';
select b, count(*) from blobs group by b order by b;
drop table blobs;
