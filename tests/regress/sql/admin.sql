-- Administration functions and views: the deterministic parts.
-- Sizes of real relations differ between servers, so only their relations
-- are shown (whole pages, totals); pg_size_pretty of fixed inputs is exact.
select v, pg_size_pretty(v) from (values (0::bigint), (1), (1023), (1024), (10239), (10240),
  (10485759), (10485760), (20970496), (1073741824), (10737418240), (1099511627776),
  (1125899906842624), (11258999068426240), (-1), (-10239), (-10240), (-10485760),
  (9223372036854775807), (-9223372036854775807)) t(v);
select pg_size_pretty(1024::numeric), pg_size_pretty(10240.7), pg_size_pretty(-1.5),
  pg_size_pretty(123456789012345678901234567890::numeric), pg_size_pretty(-20971520::numeric);
select pg_size_pretty(null::bigint);
-- pg_lsn
select '0/0'::pg_lsn, '16/B374D848'::pg_lsn, 'ffffffff/ffffffff'::pg_lsn, '0/00001'::pg_lsn::text;
select '16/B374D848'::pg_lsn - '0/0'::pg_lsn as minus, pg_wal_lsn_diff('0/0', '16/B374D848') as diff;
select pg_wal_lsn_diff('FFFFFFFF/FFFFFFFF', '0/0');
select '1/0'::pg_lsn > '0/FFFFFFFF', '0/10'::pg_lsn = '0/10', 'FFFFFFFF/0'::pg_lsn > '1/0', '0/1'::pg_lsn < '0/2';
select 'x'::pg_lsn;
select '0/'::pg_lsn;
select '123456789/0'::pg_lsn;
select ' 0/0'::pg_lsn;
select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') > 0 as moved,
  pg_current_wal_lsn() - '0/0'::pg_lsn >= 0 as minus_works,
  pg_current_wal_insert_lsn() >= pg_current_wal_flush_lsn() as insert_ahead;
-- regclass
create table adm (id int primary key, t text);
select 'adm'::regclass, 'adm_pkey'::regclass, 'ADM'::regclass, 'public.adm'::regclass, ' adm '::regclass;
select 'adm'::regclass::oid = 'adm'::regclass::oid::regclass::oid as round_trip;
select 0::regclass;
select 'nosuch'::regclass;
select 'public.nosuch'::regclass;
select '"ADM"'::regclass;
select 'a.b.c.d'::regclass;
-- sizes
select pg_relation_size('adm') as empty_heap, pg_indexes_size('adm') % 8192 as index_pages;
insert into adm values (1, 'one'), (2, 'two'), (3, 'three');
select pg_relation_size('adm') > 0 as heap_grew, pg_relation_size('adm') % 8192 as whole_pages,
  pg_relation_size('adm', 'main') = pg_relation_size('adm') as main_fork,
  pg_relation_size('adm', 'init') as init_fork,
  pg_table_size('adm') >= pg_relation_size('adm') as table_ge_heap,
  pg_total_relation_size('adm') = pg_table_size('adm') + pg_indexes_size('adm') as total_adds_up,
  pg_relation_size('adm_pkey') = pg_indexes_size('adm') as one_index,
  pg_indexes_size('adm_pkey') as index_of_index,
  pg_relation_filenode('adm') > 0 as has_filenode;
select pg_relation_size('adm', 'bogus');
select pg_relation_size('nosuch');
select pg_total_relation_size(null), pg_relation_size(4000000000::oid);
drop table adm;
-- views
create extension if not exists pg_buffercache;
select count(*) > 0 as has_buffers, count(*) = count(distinct bufferid) as unique_ids from pg_buffercache;
select * from pg_buffercache where false;
select * from pg_stat_progress_copy;
drop extension pg_buffercache;
-- (create extension of an unknown one: see the integration test; PostgreSQL's
-- DETAIL names a file of its installation)
drop extension no_such_extension;
drop extension if exists no_such_extension;
