-- Joins: inner (explicit and comma), left, right, full, multi-way, self,
-- USING/ON, aliases, joins on expressions, joins against subqueries.
\set VERBOSITY verbose
create table dept (id int, name text);
create table emp (id int, name text, dept_id int, boss int, salary int);
insert into dept values (1, 'eng'), (2, 'ops'), (3, 'empty');
insert into emp values
  (1, 'ann', 1, null, 100),
  (2, 'bob', 1, 1, 80),
  (3, 'cid', 2, 1, 70),
  (4, 'dee', null, 2, 60),
  (5, 'eve', 9, 2, 50);

select e.name, d.name from emp e join dept d on e.dept_id = d.id order by e.name;
select e.name, d.name from emp e inner join dept d on d.id = e.dept_id where d.name = 'eng' order by 1;
select e.name, d.name from emp e, dept d where e.dept_id = d.id and e.salary > 60 order by e.name;
select emp.name, dept.name from emp, dept where emp.dept_id = dept.id order by 1;
select e.name, d.name as dept from emp e left join dept d on e.dept_id = d.id order by e.name;
select e.name, d.name as dept from emp e right join dept d on e.dept_id = d.id order by d.name, e.name;
select e.name, d.name as dept from emp e full join dept d on e.dept_id = d.id order by e.name nulls last, d.name;
select e.name, d.name from emp e left outer join dept d on e.dept_id = d.id and d.name = 'ops' order by e.name;
select e.name from emp e left join dept d on e.dept_id = d.id where d.id is null order by e.name;
select d.name, count(e.id) from dept d left join emp e on e.dept_id = d.id group by d.name order by d.name;

-- self join
select e.name, b.name as boss from emp e left join emp b on e.boss = b.id order by e.name;
select e.name, b.name as boss, bb.name as grandboss
  from emp e join emp b on e.boss = b.id join emp bb on b.boss = bb.id order by e.name;

-- three-way with mixed join kinds
create table proj (id int, dept_id int, title text);
insert into proj values (10, 1, 'db'), (11, 1, 'ui'), (12, 3, 'nothing'), (13, 7, 'orphan');
select d.name, p.title, e.name as emp from dept d
  join proj p on p.dept_id = d.id
  left join emp e on e.dept_id = d.id
  order by d.name, p.title, e.name;
select p.title, d.name from proj p full join dept d on p.dept_id = d.id order by p.title nulls first, d.name;

-- cross join and join on a non-equality
select count(*) from emp cross join dept;
select count(*) from emp, dept, proj;
select e.name, d.name from emp e join dept d on e.salary > d.id * 40 order by e.name, d.name;

-- join against a subquery in FROM
select s.dept_id, s.total, d.name from (select dept_id, sum(salary) as total from emp group by dept_id) s
  join dept d on d.id = s.dept_id order by s.dept_id;
select x.n from (select name as n from emp where salary >= 70) as x order by x.n desc;

-- USING and NATURAL-free column references
create table a (k int, va text);
create table b (k int, vb text);
insert into a values (1, 'a1'), (2, 'a2'), (2, 'a2bis'), (null, 'anull');
insert into b values (2, 'b2'), (3, 'b3'), (null, 'bnull');
select * from a join b using (k) order by va;
-- the merged USING column: the left value (INNER/LEFT), the right value
-- (RIGHT), COALESCE of both (FULL); '*' shows it first
select * from a full join b using (k) order by k, va, vb;
select k, a.k as ak, b.k as bk, va, vb from a full join b using (k) order by k, va, vb;
select * from a right join b using (k) order by vb;
select k from a left join b using (k) where k is null order by va;
select * from b join a using (k) order by va;
select j.k, j.va from (a full join b using (k)) as j where j.k > 1 order by j.k, j.va;
select count(*) from a natural full join b where k is null;
select * from (select va, k from a) s join b using (k) order by va;
select a.k, b.k from a left join b on a.k = b.k order by a.va;

-- ambiguous and unknown columns
select name from emp join dept on emp.dept_id = dept.id;
select e.nosuch from emp e;
select x.name from emp e;

drop table dept, emp, proj, a, b;
