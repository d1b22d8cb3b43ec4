// tests/integration/node/app_schema.js
//
// node-postgres against PostgreSQL 15 and Hearth loaded from the same
// pg_dump of data/app_schema.sql. Run by app_schema_test.cpp:
//   node app_schema.js PG_PORT HEARTH_PORT
// Every query has parameters, so the driver sends it through the extended
// protocol and parses the typed results itself (jsonb to objects, text[] to
// arrays, timestamptz to Date, interval to its own object, bigint and
// numeric to strings). Each check runs on both servers and prints
// "name: rows"; a difference prints MISMATCH. "ALL OK" at the end; exit 1
// on a mismatch, 2 on an unexpected exception.
'use strict';
const { Client } = require('pg');

const checks = [
  ['customers by id', 'select id, email, tags, profile, created from customers where id = any($1::int[]) order by id',
    [[1, 2, 3]]],
  ['jsonb group', 'select profile->>$1 as v, count(*)::int as n from customers group by 1 order by 1', ['vip']],
  ['jsonb containment', 'select id from customers where profile @> $1::jsonb order by id', ['{"vip": true}']],
  ['jsonb path', 'select profile #>> $1 as city from customers where id = $2', [['address', 'city'], 5]],
  ['text[] contains', 'select count(*)::int as n from customers where tags @> $1', [['t1']]],
  ['text[] any', 'select id from customers where $1 = any(tags) order by id limit 4', ['grp2']],
  ['interval arithmetic',
    'select id, lead_time, placed + lead_time as due, lead_time * $1 as triple from orders ' +
    'where lead_time is not null order by id limit $2', [3, 4]],
  ['interval sum', 'select sum(lead_time) as s, avg(lead_time) as a from orders where customer_id < $1', [10]],
  ['timestamptz range', 'select count(*)::int as n from orders where placed >= $1 and placed < $2',
    [new Date('2024-02-05T00:00:00Z'), new Date('2024-02-20T00:00:00Z')]],
  ['numeric totals', 'select customer_id, sum(total) as s from orders where customer_id = any($1) group by 1 order by 1',
    [[4, 5, 6]]],
  ['big value', 'select length(body) as n, md5(body) as m, substr(body, $1, 8) as part from documents where title = $2',
    [1000001, 'big']],
  ['cascade delete', 'with d as (delete from customers where id = $1 returning id) ' +
    'select (select count(*) from d)::int as deleted', [7]],
  ['after cascade', 'select (select count(*) from orders where customer_id = $1)::int as orders, ' +
    '(select count(*) from order_lines l join orders o on o.id = l.order_id where o.customer_id = $1)::int as lines',
    [7]],
  ['insert returning', 'insert into customers (email, tags, profile) values ($1, $2, $3) returning id, tags, profile',
    ['driver@example.com', ['x', 'y z'], { k: [1, 2], s: 'v' }]],
  ['identity insert', 'insert into orders (customer_id, placed, lead_time, total) values ($1, $2, $3, $4) ' +
    'returning id, lead_time, total', [3, new Date('2025-03-04T05:06:07Z'), '2 days 03:00:00', '12.50']],
];

async function runAll(client) {
  const out = [];
  for (const [name, text, values] of checks) {
    const r = await client.query({ text, values });
    out.push([name, JSON.stringify(r.rows), r.fields.map((f) => f.dataTypeID).join(',')]);
  }
  // A 10 MB text parameter in, its digest out.
  const big = 'abcdefghij'.repeat(1024 * 1024);
  const r = await client.query('insert into documents (title, body) values ($1, $2) returning id, md5(body) as m',
    ['param', big]);
  out.push(['big value param', JSON.stringify(r.rows), '']);
  return out;
}

async function run(pgPort, hearthPort) {
  const connect = async (port) => {
    const c = new Client({ host: '127.0.0.1', port, user: 'hearth', database: 'hearth' });
    await c.connect();
    await c.query("set timezone = 'UTC'");
    return c;
  };
  const pg = await connect(pgPort);
  const hearth = await connect(hearthPort);
  const want = await runAll(pg);
  const got = await runAll(hearth);
  let failures = 0;
  for (let i = 0; i < want.length; i++) {
    const same = want[i][1] === got[i][1] && want[i][2] === got[i][2];
    console.log(`${want[i][0]}: ${got[i][1].slice(0, 300)}` +
      (same ? '' : `   <-- MISMATCH, PostgreSQL: ${want[i][1].slice(0, 300)} types ${want[i][2]} vs ${got[i][2]}`));
    if (!same) failures++;
  }
  await pg.end();
  await hearth.end();
  if (failures > 0) {
    console.log(`${failures} MISMATCH(ES)`);
    process.exit(1);
  }
  console.log('ALL OK');
}

run(Number(process.argv[2]), Number(process.argv[3])).catch((err) => {
  console.log(`EXCEPTION: ${err.stack}`);
  process.exit(2);
});
