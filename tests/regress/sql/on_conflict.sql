-- INSERT ... ON CONFLICT: DO NOTHING / DO UPDATE, arbiters, EXCLUDED,
-- aliases, RETURNING, and PostgreSQL's errors.
create table oc (k int primary key, v text, n int not null default 0);

-- DO NOTHING, with and without a conflict target
insert into oc values (1, 'a') on conflict do nothing;
insert into oc values (1, 'b') on conflict do nothing;
insert into oc values (1, 'b'), (2, 'b') on conflict (k) do nothing returning *;
insert into oc values (2, 'c'), (2, 'd') on conflict do nothing;
select * from oc order by k;

-- DO UPDATE with EXCLUDED and the target's own columns
insert into oc values (1, 'x') on conflict (k) do update set v = excluded.v, n = oc.n + 1 returning *;
insert into oc as t values (1, 'y'), (3, 'z') on conflict (k) do update set v = t.v || excluded.v, n = t.n + 10
  returning k, v, n;
select * from oc order by k;

-- WHERE on DO UPDATE: rows it rejects are neither updated nor returned
insert into oc values (1, 'w'), (2, 'w') on conflict (k) do update set v = excluded.v where oc.n > 0 returning *;
insert into oc values (1, 'q') on conflict (k) where k > 0 do update set v = excluded.v where excluded.v = 'nope';
select * from oc order by k;

-- ON CONSTRAINT, multi-column SET, DEFAULT, subqueries
insert into oc values (3, 'c3') on conflict on constraint oc_pkey do update set (v, n) = (excluded.v, 7) returning *;
insert into oc values (3) on conflict on constraint oc_pkey do update set n = default returning *;
insert into oc values (2, 'sub') on conflict (k) do update
  set n = (select max(n) from oc) + 1 where exists (select 1 from oc o2 where o2.k = excluded.k) returning *;
insert into oc values (4, 'ins') on conflict (k) do update set v = 'upd' returning *;
insert into oc select k, 'sel' from oc on conflict (k) do update set v = excluded.v || oc.k;
select * from oc order by k;

-- composite unique index and a second unique index
create table oc2 (a int, b int, c text, unique (a, b));
create unique index oc2_c on oc2 (c);
insert into oc2 values (1, 1, 'x');
insert into oc2 values (1, 1, 'y') on conflict (b, a) do update set c = excluded.c returning *;
insert into oc2 values (1, 1, 'z') on conflict (a, b, a) do update set c = excluded.c returning *;
insert into oc2 values (2, 2, 'z') on conflict (c) do update set a = excluded.a + 100 returning *;
insert into oc2 values (5, 5, 'z') on conflict do nothing;
insert into oc2 values (null, 1, 'n1'), (null, 1, 'n2') on conflict (a, b) do update set c = 'never' returning *;
-- a unique index that does not arbitrate still fails
insert into oc2 values (7, 7, 'n1') on conflict (a, b) do nothing;
select * from oc2 order by a, b, c;

-- errors
insert into oc values (1, 'e') on conflict do update set v = 'e';
insert into oc values (1, 'e') on conflict (v) do nothing;
insert into oc values (1, 'e') on conflict (k, v) do update set v = 'e';
-- (unknown columns in the target and EXCLUDED: PostgreSQL adds a "Perhaps you
-- meant" HINT that Hearth does not give)
insert into oc values (1, 'e') on conflict (lower(v)) do nothing;
insert into oc values (1, 'e') on conflict on constraint nosuch do nothing;
insert into oc values (1, 'e') on conflict (k) do update set vv = 'e';
insert into oc values (1, 'e') on conflict (k) do update set n = null;
insert into oc values (5, 'a'), (5, 'b') on conflict (k) do update set v = excluded.v;
insert into oc values (1, 'a'), (1, 'b') on conflict (k) do update set v = excluded.v;
-- (EXCLUDED in RETURNING and the table's name under an alias: PostgreSQL's
-- "invalid reference to FROM-clause entry" and HINT, Hearth's 42P01 "missing
-- FROM-clause entry")
insert into oc as excluded values (1, 'e') on conflict (k) do update set v = 'e';
select * from oc order by k;

-- in a transaction: own rows conflict, rollback undoes both paths
begin;
insert into oc values (10, 'a');
insert into oc values (10, 'b') on conflict (k) do update set v = oc.v || excluded.v returning *;
insert into oc values (10, 'c') on conflict (k) do update set v = oc.v || excluded.v returning *;
rollback;
select * from oc where k = 10;

-- EXPLAIN
explain (costs off) insert into oc values (1, 'x') on conflict do nothing;
explain (costs off) insert into oc values (1, 'x') on conflict (k) do update set v = excluded.v where oc.n > 1;
explain (costs off) insert into oc2 values (1, 1, 'x') on conflict (a, b) do nothing;

-- prepared statements
prepare up(int, text) as insert into oc values ($1, $2) on conflict (k) do update set v = excluded.v, n = oc.n + 1 returning *;
execute up(20, 'p');
execute up(20, 'q');
execute up(20, 'r');
deallocate up;

-- privileges: DO UPDATE needs UPDATE as well as INSERT
create role oc_ins;
grant insert, select on oc to oc_ins;
set role oc_ins;
insert into oc values (30, 'r') on conflict (k) do nothing;
insert into oc values (30, 's') on conflict (k) do update set v = excluded.v;
reset role;
grant update on oc to oc_ins;
set role oc_ins;
insert into oc values (30, 's') on conflict (k) do update set v = excluded.v returning *;
reset role;

drop table oc;
drop table oc2;
drop role oc_ins;
