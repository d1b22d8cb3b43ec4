-- pg_typeof names the type of its argument as the binder resolved it.
select pg_typeof(1), pg_typeof(2147483648), pg_typeof(1.5), pg_typeof('a'), pg_typeof(null);
select pg_typeof(1.5::numeric(5,2)), pg_typeof(array[1]), pg_typeof(now()), pg_typeof('x'::text || 'y');
select pg_typeof(1) = 'integer'::regtype as same;
create table typeof_t (a int8, b varchar(3), c bool);
select pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(a + 1) from typeof_t;
insert into typeof_t values (1, 'x', true);
select pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(a + 1) from typeof_t;
select pg_typeof(x) from (values (1::int2)) v(x);
drop table typeof_t;
