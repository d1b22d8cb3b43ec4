// tests/integration/node/pg_smoke.js
//
// node-postgres (the `pg` package from npm), a protocol implementation we did
// not write, against hearthd. Run by node_pg_test.cpp:
//   node pg_smoke.js PORT
// node-postgres sends every query with parameters through the extended
// protocol (Parse/Bind/Describe/Execute/Sync, an unnamed statement unless the
// query has a name, then a named one reused by later calls). Prints one
// "name: value" line per check and "ALL OK" at the end; exits 1 on a
// mismatch, 2 on an unexpected exception.
'use strict';
const { Client } = require('pg');

let failures = 0;
function check(name, actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  const ok = a === e;
  console.log(`${name}: ${a}${ok ? '' : `   <-- MISMATCH, expected ${e}`}`);
  if (!ok) failures++;
}

async function sqlState(client, text, values) {
  try {
    await client.query(text, values);
    return 'no error';
  } catch (err) {
    return err.code;
  }
}

async function run(port) {
  const client = new Client({ host: '127.0.0.1', port, user: 'hearth', database: 'hearth' });
  await client.connect();

  let r = await client.query('select $1::int + 1 as n', [41]);
  check('param add', r.rows[0].n, 42);

  // A recursive CTE whose bounds are parameters.
  r = await client.query(
    'with recursive r(n) as (select $1::int union all select n + 1 from r where n < $2) ' +
    'select count(*)::int as c, sum(n)::int as s from r', [1, 10]);
  check('recursive cte', r.rows[0], { c: 10, s: 55 });

  // A data-modifying CTE with parameters.
  await client.query('create temp table orders (id int primary key, customer text, amount numeric(10,2))');
  r = await client.query(
    'with ins as (insert into orders values ($1, $2, $3), ($4, $2, $5), ($6, $7, $8) returning amount) ' +
    'select sum(amount)::text as total from ins', [1, 'ann', 10.5, 2, 4.25, 3, 'bob', 7]);
  check('insert cte', r.rows[0].total, '21.75');
  await client.query('insert into orders select g, case when g % 2 = 0 then $1 else $2 end, g from generate_series(4, 20) g',
    ['ann', 'bob']);

  // Window functions over a parameterized filter (row_number and rank are
  // bigint, which node-postgres returns as strings), through a named statement
  // run three times (parsed once, bound each time).
  const windowQuery = {
    name: 'ranked_orders',
    text: 'select customer, id, amount::text as amount, ' +
          'row_number() over (partition by customer order by amount desc, id) as rn, ' +
          'sum(amount) over (partition by customer order by id rows between 1 preceding and current row)::text as run2, ' +
          'rank() over (order by customer) as rk ' +
          'from orders where amount >= $1 and customer = any($2::text[]) order by customer, id',
  };
  r = await client.query({ ...windowQuery, values: [18, ['ann', 'bob']] });
  check('window rows', r.rows.map((x) => [x.customer, x.id, x.amount, x.rn, x.run2, x.rk]), [
    ['ann', 18, '18.00', '2', '18.00', '1'],
    ['ann', 20, '20.00', '1', '38.00', '1'],
    ['bob', 19, '19.00', '1', '19.00', '3'],
  ]);
  r = await client.query({ ...windowQuery, values: [19, ['bob']] });
  check('window rows again', r.rows.map((x) => [x.customer, x.id, x.rn]), [['bob', 19, '1']]);
  r = await client.query({ ...windowQuery, values: [100, ['ann']] });
  check('window no rows', r.rowCount, 0);

  // CTE + window + aggregate in one parameterized query.
  r = await client.query(
    'with per as (select customer, sum(amount) as total from orders where id <= $1 group by customer) ' +
    'select customer, total::text as total, lag(total::text, 1, $2) over (order by customer) as prev from per order by customer',
    [3, 'none']);
  check('cte window lag', r.rows, [
    { customer: 'ann', total: '14.75', prev: 'none' },
    { customer: 'bob', total: '7.00', prev: '14.75' },
  ]);

  // Types as the driver parses them.
  r = await client.query("select $1::int8 as big, $2::numeric as num, $3::bool as b, $4::int[] as arr, " +
    "$5::text as nul, $6::date as d, 'x' || $7 as t", ['9007199254740993', '1.50', true, [1, 2, 3], null,
    '2026-11-30', 'y']);
  const row = r.rows[0];
  check('int8 as text', row.big, '9007199254740993');
  check('numeric as text', row.num, '1.50');
  check('bool', row.b, true);
  check('int array', row.arr, [1, 2, 3]);
  check('null', row.nul, null);
  check('date', row.d instanceof Date && row.d.getFullYear() === 2026 && row.d.getMonth() === 10, true);
  check('text concat', row.t, 'xy');

  // Errors carry SQLSTATEs; a failed transaction stays aborted until ROLLBACK.
  check('division by zero', await sqlState(client, 'select 1 / $1::int', [0]), '22012');
  check('unique violation', await sqlState(client, 'insert into orders values ($1, $2, $3)', [1, 'x', 1]), '23505');
  check('undefined column', await sqlState(client, 'select nosuch from orders where id = $1', [1]), '42703');
  await client.query('begin');
  check('in txn error', await sqlState(client, 'select 1 / $1::int', [0]), '22012');
  check('aborted txn', await sqlState(client, 'select $1::int', [1]), '25P02');
  await client.query('rollback');
  check('after rollback', await sqlState(client, 'select $1::int', [1]), 'no error');

  await client.end();
}

run(Number(process.argv[2]))
  .then(() => {
    console.log(failures === 0 ? 'ALL OK' : `FAILURES: ${failures}`);
    process.exit(failures === 0 ? 0 : 1);
  })
  .catch((err) => {
    console.log(`EXCEPTION: ${err && err.stack ? err.stack : err}`);
    process.exit(2);
  });
