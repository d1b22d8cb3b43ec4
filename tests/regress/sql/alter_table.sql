-- ALTER TABLE: ADD COLUMN [IF NOT EXISTS] with and without DEFAULT / NOT
-- NULL, DROP COLUMN [IF EXISTS] (indexes and owned sequences on it go too),
-- ALTER COLUMN SET/DROP DEFAULT, SET/DROP NOT NULL, [SET DATA] TYPE [USING],
-- RENAME COLUMN, RENAME TO of tables, indexes and sequences, ALTER TABLE IF
-- EXISTS, several actions in one command (PostgreSQL's pass order), ROLLBACK
-- of each, \d after each change, pg_attribute / pg_attrdef, the lock taken,
-- and prepared statements after a change (0A000). The SQLSTATE is echoed
-- after each error.
create table t (a int primary key, b text);
insert into t values (1, 'x'), (2, 'y');
-- ADD COLUMN: without a default, old rows read NULL
alter table t add column c int;
select * from t order by a;
-- with a default and NOT NULL: every row gets the default
alter table t add column d int default 5 not null;
select * from t order by a;
alter table t add column d int;
\echo :LAST_ERROR_SQLSTATE
alter table t add column if not exists d int;
alter table t add column e int not null;
\echo :LAST_ERROR_SQLSTATE
alter table t add column e nosuchtype;
\echo :LAST_ERROR_SQLSTATE
alter table t add column e int default true;
\echo :LAST_ERROR_SQLSTATE
alter table t add e timestamp default now(), add f int default 2;
select a, e is not null as has_e, f from t order by a;
\d t
-- volatile defaults are evaluated per row
alter table t add column g float8 default random();
select count(distinct g) from t;
alter table t drop column e, drop column f, drop column g;
-- SET / DROP DEFAULT
alter table t alter column c set default 7;
insert into t (a) values (3);
select * from t order by a;
alter table t alter column c drop default;
insert into t (a) values (4);
select * from t order by a;
alter table t alter column c set default 'abc';
\echo :LAST_ERROR_SQLSTATE
alter table t alter column nosuch set default 1;
\echo :LAST_ERROR_SQLSTATE
alter table t alter c set default null;
\d t
select attname, attnum, atthasdef from pg_attribute where attrelid = 't'::regclass and attnum > 0 and not attisdropped order by attnum;
select adnum, pg_get_expr(adbin, adrelid) from pg_attrdef where adrelid = 't'::regclass order by adnum;
-- SET / DROP NOT NULL
alter table t alter column c set not null;
\echo :LAST_ERROR_SQLSTATE
update t set c = 0 where c is null;
alter table t alter column c set not null;
insert into t (a) values (5);
\echo :LAST_ERROR_SQLSTATE
alter table t alter column c drop not null;
alter table t alter column a drop not null;
\echo :LAST_ERROR_SQLSTATE
insert into t (a) values (5);
select * from t order by a;
-- ALTER COLUMN TYPE: rows rewritten, indexes rebuilt
alter table t alter column b type int;
\echo :LAST_ERROR_SQLSTATE
alter table t alter column b type int using b::int;
\echo :LAST_ERROR_SQLSTATE
alter table t alter column b type varchar(1);
alter table t alter column b type char(3);
alter table t alter column a set data type bigint;
\d t
select * from t where a = 3;
select a, b || '|' as b from t order by a;
alter table t alter column b type varchar(1);
\echo :LAST_ERROR_SQLSTATE
alter table t alter column c type text using c::text || '!';
select * from t order by a;
alter table t alter column c type int;
\echo :LAST_ERROR_SQLSTATE
alter table t alter column c type int using c;
\echo :LAST_ERROR_SQLSTATE
alter table t alter column c type int using replace(c, '!', '')::int;
alter table t alter column c type nosuchtype;
\echo :LAST_ERROR_SQLSTATE
-- a unique index whose values collide under the new type
create table u (x numeric, y int);
insert into u values (1.2, 1), (1.4, 2);
create unique index u_x on u (x);
alter table u alter column x type int;
\echo :LAST_ERROR_SQLSTATE
alter table u alter column x type numeric(4,2);
\d u
-- DROP COLUMN: indexes on the column go with it
create index u_y_x on u (y, x);
create index u_y on u (y);
alter table u drop column x;
\d u
select * from u order by y;
alter table u drop column nosuch;
\echo :LAST_ERROR_SQLSTATE
alter table u drop column if exists nosuch;
alter table u drop if exists nosuch cascade;
-- a serial column's sequence goes with its column
create table s (id serial primary key, v text, w int);
insert into s (v, w) values ('a', 1), ('b', 2);
alter table s drop column w;
select attname, attnum, attnotnull, atthasdef from pg_attribute where attrelid = 's'::regclass and attnum > 0 and not attisdropped order by attnum;
alter sequence s_id_seq rename to s_seq2;
\d s
insert into s (v) values ('c');
select * from s order by id;
alter table s drop column id;
select * from s order by v;
\ds
-- RENAME COLUMN / RENAME TO
alter table t rename column c to cc;
alter table t rename zz to cc;
\echo :LAST_ERROR_SQLSTATE
alter table t rename column d to cc;
\echo :LAST_ERROR_SQLSTATE
alter table t rename to t2;
select * from t2 where a = 2;
select * from t;
\echo :LAST_ERROR_SQLSTATE
alter table t2 rename to u;
\echo :LAST_ERROR_SQLSTATE
alter table t2 rename to t_pkey;
\echo :LAST_ERROR_SQLSTATE
alter index t_pkey rename to t2_pkey;
alter index t_pkey rename to t3_pkey;
\echo :LAST_ERROR_SQLSTATE
alter index if exists t_pkey rename to t3_pkey;
alter sequence nosuch rename to x;
\echo :LAST_ERROR_SQLSTATE
alter sequence if exists nosuch rename to x;
alter sequence t2 rename to x;
\echo :LAST_ERROR_SQLSTATE
\d t2
-- IF EXISTS, bad targets
alter table if exists nosuch add column x int;
alter table nosuch add column x int;
\echo :LAST_ERROR_SQLSTATE
create sequence sq;
alter table sq add column x int;
\echo :LAST_ERROR_SQLSTATE
alter table sq alter column last_value set default 1;
alter table sq drop column log_cnt;
alter table sq rename column last_value to lv;
alter table sq rename to sq2;
drop sequence sq2;
-- several actions in one command, in PostgreSQL's pass order
alter table t2 add column q int not null default 0, alter column q drop default;
\echo :LAST_ERROR_SQLSTATE
alter table t2 alter column a type int, add column q int not null;
\echo :LAST_ERROR_SQLSTATE
alter table t2 add column q int default 0, alter column cc set default 42, drop column d;
\d t2
alter table t2 alter column a type int using a + 1, rename column b to bb;
-- ROLLBACK undoes each kind of action
begin;
alter table t2 add column e text default 'hello', drop column q, alter column a type text;
alter table t2 rename column cc to c3;
update t2 set b = 'w' where b is null;
alter table t2 alter column b set not null, alter column b set default 'z';
create index t2_e on t2 (e);
alter table t2 rename to t9;
select * from t9 order by a;
select mode, granted from pg_locks where relation = 't9'::regclass and mode = 'AccessExclusiveLock';
rollback;
select * from t2 order by a;
\d t2
-- prepared statements see the change; a changed result type is 0A000
prepare p as select * from t2 order by a;
execute p;
alter table t2 add column r int;
execute p;
\echo :LAST_ERROR_SQLSTATE
deallocate p;
prepare p2 as select a from t2 order by a;
alter table t2 alter column a type bigint;
execute p2;
\echo :LAST_ERROR_SQLSTATE
alter table t2 rename column a to aa;
prepare p3 as select b from t2 where aa = $1;
execute p3(2);
alter table t2 alter column cc drop default;
execute p3(2);
begin;
alter table t2 drop column r;
prepare p4 as select * from t2 order by aa;
execute p4;
rollback;
execute p4;
\echo :LAST_ERROR_SQLSTATE
drop table t2, u, s;
