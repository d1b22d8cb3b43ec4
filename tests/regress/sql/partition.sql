-- Declarative partitioning: RANGE and LIST partitions, DEFAULT,
-- sub-partitioning, tuple routing (INSERT, INSERT ... SELECT, COPY),
-- UPDATE moving rows, pruning in EXPLAIN, ATTACH / DETACH, catalog rows,
-- psql's \d, and PostgreSQL's errors.
CREATE TABLE measure (city int NOT NULL, logdate date NOT NULL, peak int) PARTITION BY RANGE (logdate);
CREATE TABLE measure_2020 PARTITION OF measure FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE TABLE measure_2021 PARTITION OF measure FOR VALUES FROM ('2021-01-01') TO ('2022-01-01');
INSERT INTO measure VALUES (1, '2020-03-01', 10), (2, '2021-07-04', 20), (3, '2020-12-31', 30);
SELECT * FROM measure ORDER BY city;
SELECT * FROM measure_2020 ORDER BY city;
SELECT count(*) FROM ONLY measure;
INSERT INTO measure VALUES (4, '2019-05-05', 1);
INSERT INTO measure_2020 VALUES (5, '2021-02-02', 1);
INSERT INTO measure SELECT g, date '2021-01-01' + g, g FROM generate_series(1, 50) g;
SELECT count(*) FROM measure_2021;
COPY measure FROM stdin;
6	2020-06-06	60
7	2021-06-07	70
\.
SELECT count(*) FROM measure_2020;
UPDATE measure SET logdate = '2021-03-03' WHERE city = 1;
SELECT city, logdate FROM measure_2021 WHERE city = 1;
SELECT count(*) FROM measure_2020 WHERE city = 1;
UPDATE measure SET peak = peak + 1 WHERE city = 3 RETURNING *;
DELETE FROM measure WHERE peak > 40;
SELECT count(*) FROM measure;
EXPLAIN (COSTS OFF) SELECT * FROM measure;
CREATE TABLE ev (k int, v int) PARTITION BY RANGE (k);
CREATE TABLE ev1 PARTITION OF ev FOR VALUES FROM (MINVALUE) TO (10);
CREATE TABLE ev2 PARTITION OF ev FOR VALUES FROM (10) TO (20);
CREATE TABLE ev3 PARTITION OF ev FOR VALUES FROM (20) TO (MAXVALUE);
EXPLAIN (COSTS OFF) SELECT * FROM ev WHERE k = 15;
EXPLAIN (COSTS OFF) SELECT * FROM ev WHERE k < 10;
EXPLAIN (COSTS OFF) SELECT * FROM ev WHERE k >= 10 AND v = 1;
EXPLAIN (COSTS OFF) SELECT * FROM ev e WHERE 20 <= k;
CREATE TABLE el (k int) PARTITION BY LIST (k);
CREATE TABLE el12 PARTITION OF el FOR VALUES IN (1, 2);
CREATE TABLE el3 PARTITION OF el FOR VALUES IN (3);
CREATE TABLE eldef PARTITION OF el DEFAULT;
EXPLAIN (COSTS OFF) SELECT * FROM el WHERE k = 2;
EXPLAIN (COSTS OFF) SELECT * FROM el WHERE k = 7;
DROP TABLE ev, el;
SELECT city FROM measure WHERE logdate = '2020-06-06';
-- LIST with NULL and DEFAULT; sub-partitioning
CREATE TABLE orders (id int, region text, amount int) PARTITION BY LIST (region);
CREATE TABLE orders_eu PARTITION OF orders FOR VALUES IN ('de', 'fr');
CREATE TABLE orders_us PARTITION OF orders FOR VALUES IN ('us', NULL) PARTITION BY RANGE (amount);
CREATE TABLE orders_us_small PARTITION OF orders_us FOR VALUES FROM (MINVALUE) TO (100);
CREATE TABLE orders_us_big PARTITION OF orders_us FOR VALUES FROM (100) TO (MAXVALUE);
CREATE TABLE orders_other PARTITION OF orders DEFAULT;
INSERT INTO orders VALUES (1, 'de', 5), (2, 'us', 50), (3, 'us', 500), (4, NULL, 7), (5, 'jp', 9);
SELECT id FROM orders_eu;
SELECT id FROM orders_us_small ORDER BY id;
SELECT id FROM orders_us_big;
SELECT id FROM orders_other;
SELECT id FROM orders ORDER BY id;
INSERT INTO orders_us VALUES (6, 'us', NULL);
EXPLAIN (COSTS OFF) SELECT * FROM orders;
-- catalog rows
SELECT relname, relkind, relispartition, pg_get_expr(relpartbound, oid) AS bound, pg_get_partkeydef(oid) AS key
  FROM pg_class WHERE relname LIKE 'orders%' OR relname LIKE 'measure%' ORDER BY relname;
SELECT partrelid::regclass, partstrat, partnatts, partdefid::regclass, partattrs FROM pg_partitioned_table ORDER BY partrelid::regclass::text;
SELECT inhrelid::regclass, inhparent::regclass FROM pg_inherits ORDER BY inhrelid::regclass::text;
\d measure
\d+ measure
\d measure_2020
\d+ orders
-- errors
CREATE TABLE bad PARTITION OF measure FOR VALUES FROM ('2020-06-01') TO ('2021-06-01');
CREATE TABLE bad PARTITION OF measure FOR VALUES FROM ('2023-01-01') TO ('2022-01-01');
CREATE TABLE bad PARTITION OF orders FOR VALUES IN ('it', 'fr');
CREATE TABLE bad PARTITION OF orders DEFAULT;
CREATE TABLE bad PARTITION OF orders FOR VALUES FROM (1) TO (2);
CREATE TABLE bad PARTITION OF measure FOR VALUES IN ('2020-01-01');
CREATE TABLE bad PARTITION OF measure FOR VALUES FROM (1, 2) TO (3, 4);
CREATE TABLE bad PARTITION OF measure FOR VALUES FROM ('nope') TO ('2030-01-01');
CREATE TABLE plain (a int);
CREATE TABLE bad PARTITION OF plain FOR VALUES IN (1);
CREATE TABLE bad (a int) PARTITION BY RANGE (z);
CREATE TABLE bad (a int, b int) PARTITION BY LIST (a, b);
CREATE TABLE bad (a int) INHERITS (measure);
-- ATTACH / DETACH
CREATE TABLE measure_2022 (city int NOT NULL, logdate date NOT NULL, peak int);
INSERT INTO measure_2022 VALUES (9, '2022-05-05', 90);
ALTER TABLE measure ATTACH PARTITION measure_2022 FOR VALUES FROM ('2022-01-01') TO ('2023-01-01');
SELECT city FROM measure WHERE logdate > '2022-01-01';
ALTER TABLE measure DETACH PARTITION measure_2022;
SELECT count(*) FROM measure WHERE logdate > '2022-01-01';
INSERT INTO measure_2022 VALUES (10, '2019-01-01', 0);
ALTER TABLE measure ATTACH PARTITION measure_2022 FOR VALUES FROM ('2022-01-01') TO ('2023-01-01');
ALTER TABLE measure DETACH PARTITION measure_2022;
ALTER TABLE plain ATTACH PARTITION measure_2022 FOR VALUES IN (1);
CREATE TABLE wrongcols (city int, logdate date);
ALTER TABLE measure ATTACH PARTITION wrongcols FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
-- PRIMARY KEY / UNIQUE: an index per partition
CREATE TABLE keyed (a int PRIMARY KEY, b text) PARTITION BY RANGE (a);
CREATE TABLE keyed1 PARTITION OF keyed FOR VALUES FROM (1) TO (10);
CREATE TABLE keyed2 (a int NOT NULL, b text);
ALTER TABLE keyed ATTACH PARTITION keyed2 FOR VALUES FROM (10) TO (20);
INSERT INTO keyed VALUES (1, 'x'), (11, 'y');
INSERT INTO keyed VALUES (1, 'again');
INSERT INTO keyed VALUES (11, 'again');
SELECT indexrelid::regclass, indrelid::regclass, indisprimary FROM pg_index
 WHERE indrelid::regclass::text LIKE 'keyed%' ORDER BY indexrelid::regclass::text;
\d keyed1
CREATE TABLE bad (a int, b int, PRIMARY KEY (b)) PARTITION BY LIST (a);
CREATE TABLE bad (a int PRIMARY KEY, b int UNIQUE) PARTITION BY RANGE (a);
DROP TABLE keyed;
-- DROP
DROP TABLE measure_2020;
SELECT count(*) FROM measure;
DROP TABLE measure;
DROP TABLE orders;
DROP TABLE orders CASCADE;
DROP TABLE plain, measure_2022, wrongcols;
SELECT count(*) FROM pg_partitioned_table;
