-- UPDATE ... FROM, DELETE ... USING, RETURNING with the other tables' columns.
create table acct (id int primary key, owner text, balance int);
create table moves (acct_id int, amount int, note text);
create table owners (name text, vip bool);
insert into acct values (1, 'ann', 100), (2, 'bob', 50), (3, 'cy', 0), (4, 'dee', 10);
insert into moves values (1, 10, 'a'), (2, -20, 'b'), (2, 5, 'c'), (9, 1, 'none');
insert into owners values ('ann', true), ('bob', false), ('cy', true);

-- one FROM table: each target row joined once
update acct set balance = balance + m.amount from moves m where m.acct_id = acct.id and m.note <> 'c';
select * from acct order by id;
-- several FROM rows for one target row: the row is updated once
update acct a set balance = a.balance + 1000 from moves m where m.acct_id = a.id and a.id = 2
  returning a.id, a.balance >= 1000 as updated;
select id, balance from acct order by id;
-- two FROM items, RETURNING expressions over all of them
update acct set balance = 0 from owners o, moves m
  where o.name = acct.owner and o.vip and m.acct_id = acct.id
  returning acct.id, o.name, m.note, acct.balance, m.amount * 2 as twice;
update acct set balance = 7 from owners o, moves m
  where o.name = acct.owner and o.vip and m.acct_id = acct.id;
select * from acct order by id;
-- RETURNING * shows the target's columns then the FROM items'
update acct set owner = upper(o.name) from owners o where o.name = acct.owner and not o.vip returning *;
-- a subquery in FROM and a join in FROM
update acct set balance = s.total from (select acct_id, sum(amount) as total from moves group by acct_id) s
  where s.acct_id = acct.id;
select * from acct order by id;
update acct set balance = balance + 1 from moves m join owners o on o.name = m.note where m.acct_id = acct.id;
select * from acct order by id;
-- no match: nothing updated
update acct set balance = -1 from moves where moves.acct_id = 42;

-- DELETE ... USING
delete from acct using owners o where o.name = acct.owner and o.vip and o.name = 'ann' returning acct.id, o.name;
delete from acct using owners o where o.name = acct.owner and o.vip;
delete from acct a using moves m where m.acct_id = a.id and m.amount < 0 returning *;
select * from acct order by id;

-- errors
update acct set balance = 1 from acct;
update acct set balance = 1 from moves where nosuch = 1;
delete from acct using moves where acct_id = id and amount = 'x';
update acct set balance = m.amount from moves m where m.acct_id = acct.id and owner = (select name from owners);


-- multiple-column SET
insert into acct values (10, 'x', 1), (11, 'y', 2);
update acct set (owner, balance) = ('z', balance + 100) where id = 10 returning *;
update acct set (balance, owner) = row(balance * 2, owner || owner), id = id + 10 where id = 11 returning *;
update acct set (owner, balance) = (select name, 5 from owners where name = 'cy') where id = 10 returning *;
-- correlated: the subquery runs once per row; no row gives NULLs
update acct a set (balance, owner) = (select m.amount, m.note from moves m where m.acct_id + 19 = a.id and m.note <> 'c')
  where id >= 10;
select * from acct where id >= 10 order by id;
update acct a set (balance, owner) = (select a.balance + 1, upper(a.owner)) from moves m
  where m.acct_id + 19 = a.id and m.note = 'b' returning a.*, m.note;
update acct set (owner, balance) = (select 'q', 1 from moves) where id = 10;
update acct set (owner, balance) = (select 'q') where id = 10;
update acct set (owner, balance) = ('q', 1, 2) where id = 10;
update acct set (owner, balance) = ('q', 1), balance = 3 where id = 10;
update acct set (owner, nosuch) = ('q', 1) where id = 10;

drop table acct, moves, owners;
