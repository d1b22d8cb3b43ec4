-- The uuid type: input forms, output, comparison, ordering, btree and
-- unique indexes, hashing (GROUP BY, DISTINCT, hash joins), casts,
-- gen_random_uuid(). Expected output is PostgreSQL 15's.
\set VERBOSITY verbose
create table guid1 (guid_field uuid, text_field text);
create table guid2 (guid_field uuid, text_field text);
-- invalid input
insert into guid1(guid_field) values ('11111111-1111-1111-1111-111111111111F');
insert into guid1(guid_field) values ('{11111111-1111-1111-1111-11111111111}');
insert into guid1(guid_field) values ('111-11111-1111-1111-1111-111111111111');
insert into guid1(guid_field) values ('{22222222-2222-2222-2222-222222222222 ');
insert into guid1(guid_field) values ('11111111-1111-1111-G111-111111111111');
insert into guid1(guid_field) values ('11+11111-1111-1111-1111-111111111111');
select ''::uuid;
-- the accepted input forms
insert into guid1(guid_field) values ('11111111-1111-1111-1111-111111111111');
insert into guid1(guid_field) values ('{22222222-2222-2222-2222-222222222222}');
insert into guid1(guid_field) values ('3f3e3c3b3a3039383736353433a2313e');
select 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid,
       'a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid, 'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'::uuid;
select guid_field from guid1;
select guid_field from guid1 order by guid_field asc;
select guid_field from guid1 order by guid_field desc;
select count(*) from guid1 where guid_field = '3f3e3c3b-3a30-3938-3736-353433a2313e';
select count(*) from guid1 where guid_field <> '11111111111111111111111111111111';
select count(*) from guid1 where guid_field < '22222222-2222-2222-2222-222222222222';
select count(*) from guid1 where guid_field <= '22222222-2222-2222-2222-222222222222';
select count(*) from guid1 where guid_field > '22222222-2222-2222-2222-222222222222';
select count(*) from guid1 where guid_field >= '22222222-2222-2222-2222-222222222222';
-- indexes
create index guid1_btree on guid1 (guid_field);
create unique index guid1_unique_btree on guid1 (guid_field);
insert into guid1(guid_field) values ('11111111111111111111111111111111');
select guid_field from guid1 where guid_field = '22222222-2222-2222-2222-222222222222';
select guid_field from guid1 where guid_field > '11111111-1111-1111-1111-111111111111' order by guid_field;
-- joins, grouping and casts
insert into guid2(guid_field) values ('11111111-1111-1111-1111-111111111111');
insert into guid2(guid_field) values ('{22222222-2222-2222-2222-222222222222}');
insert into guid2(guid_field) values ('3f3e3c3b3a3039383736353433a2313e');
insert into guid2(guid_field) values ('3f3e3c3b3a3039383736353433a2313e');
select count(*) from guid1 g1 inner join guid2 g2 on g1.guid_field = g2.guid_field;
select count(*) from guid1 g1 left join guid2 g2 on g1.guid_field = g2.guid_field where g2.guid_field is null;
select guid_field, count(*) from guid2 group by guid_field order by guid_field;
select count(distinct guid_field) from guid2;
select guid_field::text, length(guid_field::text), 'abc' || guid_field from guid2 order by 1 limit 1;
select '11111111-1111-1111-1111-111111111111'::text::uuid;
-- gen_random_uuid(): version 4, RFC 4122 variant, distinct values
select substr(u::text, 15, 1) as version, substr(u::text, 20, 1) in ('8', '9', 'a', 'b') as variant,
       length(u::text) from (select gen_random_uuid() as u) s;
insert into guid1(guid_field) select gen_random_uuid() from guid2;
select count(distinct guid_field) from guid1;
drop table guid1, guid2;
