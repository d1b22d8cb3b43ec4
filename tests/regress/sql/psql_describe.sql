-- psql's \d family and the pg_catalog relations and functions its queries
-- read. (A bare \l lists PostgreSQL's template databases and \dx its
-- plpgsql, so those two run with a pattern.)
\d
create table t (id int primary key, name text not null default 'x', qty numeric(10,2) default 0,
                note varchar(20), created timestamp, flag boolean);
create unique index t_name_idx on t (name);
create index t_qty_created_idx on t (qty desc, created nulls first);
create sequence s;
create table u (a serial, b bigint default 42);
create table "Mixed Case" (x int);
\d
\dt
\dt t*
\di
\ds
\di+
\ds+
\l hearth
\dx nosuch
\dn
\db
\dT
\df
\d s
\d t_pkey
\d t_qty_created_idx
\d u_a_seq
\d nosuch
-- catalog rows
select relname, relkind, relhasindex, relpersistence, relnatts, relam > 0 as has_am
  from pg_catalog.pg_class where relnamespace = 'public'::regnamespace order by relname;
select attname, atttypid::regtype, attnum, attnotnull, atthasdef, attlen, attidentity
  from pg_attribute where attrelid = 't'::regclass and attnum > 0 order by attnum;
select adnum, pg_get_expr(adbin, adrelid) from pg_attrdef where adrelid = 'u'::regclass order by adnum;
select indexrelid::regclass, indrelid::regclass, indnatts, indisunique, indisprimary, indkey
  from pg_index where indrelid = 't'::regclass order by 1;
select conname, contype, conrelid::regclass, conindid::regclass, pg_get_constraintdef(oid)
  from pg_constraint where conrelid = 't'::regclass;
select indexname, indexdef from pg_indexes where tablename = 't' order by indexname;
select tablename, tableowner, hasindexes from pg_tables where schemaname = 'public' order by tablename;
select seqrelid::regclass, seqtypid::regtype, seqstart, seqincrement, seqmin, seqcache, seqcycle
  from pg_sequence order by 1;
select nspname, pg_get_userbyid(nspowner) from pg_namespace where nspname in ('public', 'pg_catalog') order by 1;
select amname, amtype from pg_am where amname in ('heap', 'btree') order by 1;
select spcname from pg_tablespace order by 1;
select datname, pg_get_userbyid(datdba), pg_encoding_to_char(encoding), datcollate, datctype
  from pg_database where datname = current_database();
select count(*) from pg_extension where extname = 'no_such_extension';
select count(*) from pg_description where objoid = 't'::regclass;
-- fixed oids and types
select 'pg_class'::regclass::oid, 'pg_catalog.pg_attribute'::regclass::oid, 'pg_type'::regclass::oid,
       'pg_namespace'::regclass::oid, 'pg_index'::regclass::oid, 'pg_constraint'::regclass::oid;
select oid, typname, typlen, typbyval, typtype, typcategory, typarray
  from pg_type where typname in ('bool', 'int2', 'int4', 'int8', 'text', 'oid', 'float8', 'numeric',
                                 'varchar', 'date', 'timestamp', 'timestamptz') order by oid;
select 23::regtype, 'integer'::regtype::oid, 'character varying'::regtype, 'pg_catalog.int8'::regtype,
       'public'::regnamespace::oid, 2200::regnamespace, 0::regproc;
select format_type(1043, 24), format_type(1700, 655366), format_type(1114, null), format_type(null, 1);
select quote_ident('abc'), quote_ident('Abc'), quote_ident('a b'), quote_literal('it''s'), quote_literal('a\b');
select 'pg_toast' ~ '^pg_', 'public' !~ '^pg_', 'ABC' ~* 'abc', 'abc' OPERATOR(pg_catalog.~) '^(abc)$' COLLATE pg_catalog.default;
-- regular expressions: linear time whatever the pattern and input
select repeat('a', 200000) ~ '(a|b)*c' as long_nomatch, repeat('a', 200000) || 'c' ~ '(a|b)*c' as long_match;
select repeat('a', 30) || 'b' ~ '^(a+)+$' as catastrophic;
select 'abc' ~ '^a.c$', 'abc' ~ 'b', 'abc' ~ '^b', 'ABC' ~* '^abc$', 'abc' !~ 'x', 'ABC' !~* 'abc';
select 'pg_toast' ~ '^pg_toast', 'public' ~ '^(t|public)$', 'x1y' ~ '\d', 'xy' ~ '\d', 'a b' ~ '\s', 'é' ~ '^.$';
select 'aaa' ~ '^a{3}$', 'aa' ~ '^a{3}$', 'aaaa' ~ '^a{2,3}$', 'aaa' ~ '^a{2,}$', 'abab' ~ '^(?:ab)+$', 'a-b' ~ '^[a-c-]+$';
select 'x' ~ '[[:alpha:]]', '5' ~ '[^[:digit:]]', 'a]' ~ '[]a]+', 'a.b' ~ 'a\.b', 'axb' ~ 'a\.b', '' ~ '', '' ~ '^$', 'a' ~ 'a*?';
select 'a' ~ '(';
select 'a' ~ 'a)';
select 'a' ~ '[a';
select 'a' ~ '*a';
select 'a' ~ 'a{3,1}';
-- settings and activity
select name, setting, unit, context, vartype, source, min_val, max_val, enumvals, boot_val, reset_val, pending_restart
  from pg_settings where name in ('work_mem', 'synchronous_commit', 'checkpoint_completion_target', 'statement_timeout')
  order by name;
set work_mem = '8MB';
select setting, source, reset_val from pg_settings where name = 'work_mem';
reset work_mem;
select * from pg_stat_activity where false;
select state, backend_type, usename, application_name from pg_stat_activity where pid = pg_backend_pid();
-- what pg_dump sends before it reads the catalogs
select pg_catalog.set_config('search_path', '', false);
show search_path;
select set_config('search_path', 'public, pg_catalog', false), current_setting('search_path');
reset search_path;
select pg_catalog.pg_is_in_recovery();
set synchronize_seqscans to off;
begin;
select set_config('work_mem', '1MB', true), current_setting('work_mem');
commit;
show work_mem;
select set_config('nosuch', '1', false);
drop table t, u, "Mixed Case";
drop sequence s;
\d
