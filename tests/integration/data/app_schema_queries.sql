-- Run by app_schema_test.cpp through psql -a against PostgreSQL 15 and
-- against Hearth after both loaded the same pg_dump: the outputs (errors
-- included) must be identical.
SET TimeZone = 'UTC';
SELECT count(*), sum(id), max(id) FROM customers;
SELECT count(*), sum(total), avg(total)::numeric(12,4), max(id) FROM orders;
SELECT count(*), sum(qty), max(line) FROM order_lines;
SELECT id, title, length(body), md5(body), left(body, 20) FROM documents ORDER BY id;
SELECT id, email, name, tags, profile, created FROM customers WHERE id <= 5 ORDER BY id;
SELECT profile->>'age' AS age, profile->'address'->>'city' AS city, profile #>> '{langs,1}' AS lang
  FROM customers WHERE id IN (3, 14) ORDER BY id;
SELECT count(*) FROM customers WHERE profile @> '{"vip": true}';
SELECT count(*) FROM customers WHERE profile ? 'age' AND profile->'langs' ? 'de';
SELECT meta->>'channel', count(*), sum((meta->>'n')::int) FROM orders GROUP BY 1 ORDER BY 1;
SELECT jsonb_typeof(profile->'age'), jsonb_array_length(profile->'langs') FROM customers WHERE id = 1;
SELECT profile - 'langs' || '{"x": 1}' FROM customers WHERE id = 2;
SELECT jsonb_set(profile, '{address,city}', '"Nowhere"'), profile #> '{address}' FROM customers WHERE id = 4;
SELECT key, value FROM customers, jsonb_each(profile) WHERE id = 6 ORDER BY key;
SELECT count(*) FROM customers WHERE 't1' = ANY (tags);
SELECT count(*) FROM customers WHERE tags @> ARRAY['t2', 'grp4'];
SELECT count(*) FROM customers WHERE tags && ARRAY['grp0'];
SELECT tags[1], tags[2:2], array_length(tags, 1), array_to_string(tags, '+'), cardinality(tags)
  FROM customers WHERE id = 8;
SELECT t, count(*) FROM customers, unnest(tags) t GROUP BY t ORDER BY t;
SELECT array_append(tags, 'new'), array_position(tags, 'grp3') FROM customers WHERE id = 9;
SELECT id, lead_time, placed + lead_time AS due, lead_time * 2, justify_hours(lead_time * 9)
  FROM orders WHERE id IN (1, 7, 9, 10, 23) ORDER BY id;
SELECT sum(lead_time), avg(lead_time), max(lead_time), min(lead_time) FROM orders;
SELECT count(*) FROM orders WHERE placed + lead_time > timestamptz '2024-03-01 00:00:00+00';
SELECT date_trunc('month', placed) AS m, count(*), sum(total) FROM orders GROUP BY 1 ORDER BY 1;
SELECT extract(epoch FROM max(placed) - min(placed)), max(placed) - min(placed) FROM orders;
SELECT c.id, count(o.id), coalesce(sum(o.total), 0) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
  GROUP BY c.id ORDER BY 3 DESC, 1 LIMIT 5;
-- (UNIQUE constraints are left out: Hearth lists them as unique indexes only.)
SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint
  WHERE contype <> 'u' AND conrelid IN ('customers'::regclass, 'orders'::regclass, 'order_lines'::regclass, 'documents'::regclass)
  ORDER BY conrelid::regclass::text, conname;
SELECT attrelid::regclass, attname, attidentity, pg_get_serial_sequence(attrelid::regclass::text, attname)
  FROM pg_attribute WHERE attrelid IN ('customers'::regclass, 'orders'::regclass, 'order_lines'::regclass,
  'documents'::regclass) AND attnum = 1 OR (attrelid = 'order_lines'::regclass AND attname = 'line') ORDER BY attrelid::regclass::text, 2;
-- Cascades: ON DELETE CASCADE two levels down, ON DELETE SET NULL, ON UPDATE CASCADE.
BEGIN;
DELETE FROM customers WHERE id = 1;
SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM orders), (SELECT count(*) FROM order_lines),
       (SELECT owner_id IS NULL FROM documents WHERE title = 'big');
UPDATE customers SET id = 1000 WHERE id = 2;
SELECT count(*) FROM orders WHERE customer_id = 1000;
ROLLBACK;
-- Constraints hold after the restore.
INSERT INTO customers (email, created) VALUES ('no-at-sign', '2025-06-07 08:09:10+00');
INSERT INTO orders (customer_id, placed, total) VALUES (9999, '2025-01-01', 1);
INSERT INTO orders (id, customer_id, placed, total) VALUES (5, 3, '2025-01-01', 1);
INSERT INTO order_lines (order_id, sku, qty) VALUES (1, 'x', 0);
INSERT INTO customers (email) VALUES ('user3@example.com');
DELETE FROM orders WHERE id = 1 RETURNING id;
SELECT count(*) FROM order_lines WHERE order_id = 1;
-- Sequences continue past the largest key.
SELECT nextval('customers_id_seq'), currval('customers_id_seq');
INSERT INTO customers (email) VALUES ('new@example.com') RETURNING id, tags;
INSERT INTO orders (customer_id, placed, total) VALUES (3, '2025-01-01', 1) RETURNING id;
INSERT INTO order_lines (order_id, sku, qty) VALUES (2, 'x', 1) RETURNING line;
INSERT INTO documents (title) VALUES ('next') RETURNING id;
UPDATE documents SET body = body || 'tail' WHERE title = 'big' RETURNING length(body), md5(body);
