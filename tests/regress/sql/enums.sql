-- Enum types: CREATE TYPE ... AS ENUM, input errors, declaration order,
-- indexes, casts, enum_range/first/last, ALTER TYPE ADD/RENAME VALUE,
-- arrays, pg_type/pg_enum rows, DROP TYPE with dependents.
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE mood AS ENUM ('x');
CREATE TYPE empty_enum AS ENUM ();
SELECT 'happy'::mood, 'sad'::mood < 'happy'::mood AS lt, 'ok'::mood = 'ok' AS eq;
SELECT 'angry'::mood;
SELECT enum_range(NULL::mood), enum_first(NULL::mood), enum_last(NULL::mood);
SELECT enum_range('ok'::mood, NULL), enum_range(NULL, 'ok'::mood), enum_range('happy'::mood, 'sad'::mood);
SELECT enum_range(NULL::empty_enum);
SELECT enum_first(NULL::empty_enum);
SELECT enum_last(NULL::empty_enum);
CREATE TABLE person (name text, current_mood mood);
INSERT INTO person VALUES ('a', 'happy'), ('b', 'sad'), ('c', 'ok'), ('d', NULL), ('e', 'happy');
INSERT INTO person VALUES ('f', 'grumpy');
SELECT * FROM person ORDER BY current_mood, name;
SELECT * FROM person WHERE current_mood > 'sad' ORDER BY name;
SELECT current_mood, count(*) FROM person GROUP BY current_mood ORDER BY current_mood;
SELECT DISTINCT current_mood FROM person ORDER BY 1 DESC;
SELECT max(name) FILTER (WHERE current_mood = 'happy') FROM person;
SELECT min(current_mood), max(current_mood) FROM person;
-- casts to and from text
SELECT current_mood::text || '!' AS t FROM person WHERE name = 'a';
SELECT 'ok'::text::mood, CAST('sad' AS mood);
SELECT pg_typeof('ok'::mood), 'ok'::mood::varchar(2);
-- an index in declaration order, also after ADD VALUE BEFORE
CREATE INDEX person_mood ON person (current_mood);
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
ALTER TYPE mood ADD VALUE 'ecstatic' AFTER 'happy';
ALTER TYPE mood ADD VALUE 'awful' BEFORE 'sad';
ALTER TYPE mood ADD VALUE 'ok';
ALTER TYPE mood ADD VALUE IF NOT EXISTS 'ok';
ALTER TYPE mood ADD VALUE 'x' BEFORE 'nope';
INSERT INTO person VALUES ('g', 'meh'), ('h', 'ecstatic'), ('i', 'awful');
SELECT enum_range(NULL::mood);
SELECT name, current_mood FROM person WHERE current_mood BETWEEN 'sad' AND 'ok' ORDER BY current_mood, name;
SET enable_seqscan = off;
SELECT name FROM person WHERE current_mood = 'meh';
SELECT name, current_mood FROM person WHERE current_mood >= 'happy' ORDER BY current_mood, name;
RESET enable_seqscan;
-- RENAME VALUE keeps the stored rows
ALTER TYPE mood RENAME VALUE 'meh' TO 'so-so';
ALTER TYPE mood RENAME VALUE 'nope' TO 'x';
ALTER TYPE mood RENAME VALUE 'ok' TO 'sad';
SELECT name, current_mood FROM person WHERE name IN ('c', 'g') ORDER BY name;
SELECT 'meh'::mood;
-- unique index and arrays of the enum
CREATE TABLE m (v mood UNIQUE, vs mood[]);
INSERT INTO m VALUES ('sad', '{sad,happy}'), ('happy', ARRAY['ok', 'awful']::mood[]);
INSERT INTO m VALUES ('sad', NULL);
SELECT v, vs, vs[2], array_length(vs, 1) FROM m ORDER BY v;
SELECT '{happy,nope}'::mood[];
SELECT 'happy'::mood = ANY(vs) FROM m ORDER BY v;
-- the catalogs
SELECT typname, typtype, typcategory, typlen, typbyval, typarray <> 0 AS has_array
  FROM pg_type WHERE typname IN ('mood', '_mood') ORDER BY typname;
SELECT e.enumlabel, e.enumsortorder FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
  WHERE t.typname = 'mood' ORDER BY e.enumsortorder;
SELECT format_type('mood'::regtype, NULL), 'mood[]'::regtype;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
  WHERE attrelid = 'm'::regclass AND attnum > 0 ORDER BY attnum;
\dT mood
-- COPY in and out
COPY person (name, current_mood) TO stdout;
CREATE TABLE moods2 (id int, m mood);
COPY moods2 FROM stdin;
1	happy
2	so-so
\.
COPY moods2 FROM stdin;
3	glum
\.
SELECT * FROM moods2 ORDER BY m;
SELECT pg_typeof(m), m::text FROM moods2 ORDER BY id;
-- DROP TYPE refuses while columns use it
DROP TYPE mood;
DROP TYPE mood RESTRICT;
DROP TYPE IF EXISTS nosuch;
DROP TYPE nosuch;
BEGIN;
DROP TYPE mood CASCADE;
SELECT * FROM moods2 ORDER BY id;
SELECT * FROM person ORDER BY name LIMIT 2;
SELECT count(*) FROM pg_type WHERE typname IN ('mood', '_mood');
ROLLBACK;
DROP TABLE person, m, moods2;
DROP TYPE mood, empty_enum;
SELECT count(*) FROM pg_enum;
