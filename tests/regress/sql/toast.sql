-- TOAST: values wider than a page are compressed and/or stored out of line
-- and read back whole by every kind of reader.
CREATE TABLE toasty (id int PRIMARY KEY, note text, body text, b bytea);
-- compressible, incompressible (hex digests) and a wide bytea
INSERT INTO toasty VALUES (1, 'compressible', repeat('abcdefgh', 100000), NULL);
INSERT INTO toasty (id, note, body) SELECT 2, 'random', string_agg(md5(g::text), '') FROM generate_series(1, 40000) g;
INSERT INTO toasty SELECT 3, 'bytes', 'short', decode(string_agg(md5(g::text), ''), 'hex') FROM generate_series(1, 20000) g;
SELECT id, note, length(body), octet_length(b), md5(body), md5(b) FROM toasty ORDER BY id;
SELECT substr(body, 799990, 20) FROM toasty WHERE id = 1;
SELECT substr(body, 1000000, 40) FROM toasty WHERE id = 2;
SELECT encode(substr(b, 300000, 8), 'hex') FROM toasty WHERE id = 3;
-- an UPDATE of another column keeps the wide values
UPDATE toasty SET note = note || ' updated';
SELECT id, note, md5(body), md5(b) FROM toasty ORDER BY id;
-- an UPDATE of the value itself
UPDATE toasty SET body = body || 'tail' WHERE id = 2;
SELECT length(body), right(body, 8) FROM toasty WHERE id = 2;
-- comparisons, joins, grouping and sorting on wide values
SELECT count(*) FROM toasty WHERE body = repeat('abcdefgh', 100000);
SELECT a.id, b.id FROM toasty a JOIN toasty b ON a.body = b.body ORDER BY 1;
SELECT id FROM toasty ORDER BY body DESC;
SELECT length(body), count(*) FROM toasty GROUP BY body ORDER BY 1;
-- the row goes, and VACUUM reclaims its chunks
DELETE FROM toasty WHERE id = 1;
VACUUM toasty;
SELECT id, length(body) FROM toasty ORDER BY id;
SELECT pg_table_size('toasty') > pg_relation_size('toasty') AS toast_counted;
SELECT pg_total_relation_size('toasty') >= pg_table_size('toasty') AS total_counts_all;
-- INSERT ... SELECT and CREATE TABLE AS copy wide values
CREATE TABLE toasty2 AS SELECT * FROM toasty;
INSERT INTO toasty2 SELECT id + 10, note, body, b FROM toasty;
SELECT id, md5(body), md5(b) FROM toasty2 ORDER BY id;
-- COPY TO reads every wide value
COPY toasty2 TO '/dev/null';
-- wide arrays and numerics
CREATE TABLE wide_values (a int[], n numeric, v varchar);
INSERT INTO wide_values SELECT array_agg(g), repeat('9', 1000)::numeric, repeat('v', 20000) FROM generate_series(1, 20000) g;
SELECT array_length(a, 1), a[19999], length(n::text), length(v) FROM wide_values;
-- the toast relation as the catalogs show it
SELECT reltoastrelid <> 0 AS has_toast FROM pg_class WHERE relname = 'toasty';
SELECT relname = 'pg_toast_' || (SELECT oid FROM pg_class WHERE relname = 'toasty') AS named, relkind
  FROM pg_class WHERE oid = (SELECT reltoastrelid FROM pg_class WHERE relname = 'toasty');
SELECT nspname FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class
  WHERE oid = (SELECT reltoastrelid FROM pg_class WHERE relname = 'toasty'));
CREATE TABLE ints_only (a int, b bigint);
SELECT reltoastrelid = 0 AS no_toast FROM pg_class WHERE relname = 'ints_only';
-- default_toast_compression
SHOW default_toast_compression;
SET default_toast_compression = 'lz4';
SHOW default_toast_compression;
SET default_toast_compression = 'zstd';
RESET default_toast_compression;
-- an index key above the B-tree limit
\set VERBOSITY sqlstate
CREATE TABLE idx_big (t text);
CREATE INDEX idx_big_t ON idx_big (t);
INSERT INTO idx_big SELECT string_agg(md5(g::text), '') FROM generate_series(1, 100) g;
\set VERBOSITY default
SELECT count(*) FROM idx_big;
DROP TABLE toasty, toasty2, wide_values, ints_only, idx_big;
