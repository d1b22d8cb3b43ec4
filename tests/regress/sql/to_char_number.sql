-- to_char for numbers (int4, int8, numeric, float4, float8) and to_number
CREATE TABLE num_fmt (id int, n numeric);
INSERT INTO num_fmt VALUES (1, 0), (2, -34338492.215397047), (3, 4.31), (4, 7799461.4119), (5, 16397.038491),
  (6, -0.5), (7, 93901.57763026), (8, -83028485), (9, 0.0001);
SELECT id, to_char(n, '9G999G999G999G999G999'), to_char(n, '9G999G999G999G999G999D999G999G999G999G999') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, '9999999999999999.999999999999999PR'), to_char(n, '9999999999999999.999999999999999S') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, 'MI9999999999999999.999999999999999'), to_char(n, 'FMS9999999999999999.999999999999999') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, 'FM9999999999999999.999999999999999THPR'), to_char(n, 'SG9999999999999999.999999999999999th') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, '0999999999999999.999999999999999'), to_char(n, 'S0999999999999999.999999999999999') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, 'FM0999999999999999.999999999999999'), to_char(n, 'FM9999999999999999.099999999999999') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, 'FM9999999990999999.099999999999999'), to_char(n, 'FM9999999999999999.999999999999999MI') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, 'L9999999999999999.099999999999999'), to_char(n, 'FM999999999999999999999999999999999') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, '9.999EEEE'), to_char(n, 'FM9999999999999999999999V9999'), to_char(n, '99999') FROM num_fmt ORDER BY id;
SELECT id, to_char(n, 'S 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 . 9 9 9'), to_char(n, '"Text between quote marks" 9999') FROM num_fmt ORDER BY id;
SELECT to_char(100, 'FM999.9'), to_char(100, 'FM999.'), to_char(100, 'FM999'), to_char(0.1, 'FM0.9'), to_char(0.1, '9.9'),
       to_char(12, 'FM9990.99'), to_char(-0.01, 'FM9.99'), to_char(0, '99.99'), to_char(0, 'FM99.99');
SELECT to_char(1234, 'RN'), to_char(1234, 'FMrn'), to_char(4000, 'RN'), to_char(0, 'FMRN'), to_char(3999.6, 'RN'),
       to_char(21, 'FM999th'), to_char(112, '999TH'), to_char(3, '999th'), to_char(-21, '999th');
SELECT to_char(123456789::int4, '999G999G999'), to_char(-12::int4, '9999PR'), to_char(12::int4, '9999PR'), to_char(485::int4, '999V99'),
       to_char(-485::int4, 'FMPL999'), to_char(485::int4, 'SG999'), to_char(-485::int4, '999MI'), to_char(485::int4, '9.9EEEE');
SELECT to_char(4567890123456789::int8, '9G999G999G999G999G999'), to_char(-4567890123456789::int8, '9.99EEEE'),
       to_char(123::int8, 'FM99999999999999999999V99'), to_char(123::int8, '00000000');
SELECT to_char(12345.678::float8, '999G999D999'), to_char(-0.000123::float8, '9.99EEEE'), to_char('NaN'::float8, '9.99EEEE'),
       to_char(1.5::float4, '9.999'), to_char(123456789012345678::float8, '999999999999999999D99'), to_char(2.5::float8, 'RN');
SELECT to_char(12, '9.9.9');
SELECT to_char(12, 'SS99');
SELECT to_char(12, '99PR9');
SELECT to_char(12, '9V9.9');
SELECT to_char(12, 'FM9.9EEEE');
-- to_number
SELECT to_number('-34,338,492', '99G999G999'), to_number('-34,338,492.654,878', '99G999G999D999G999'),
       to_number('<564646.654564>', '999999.999999PR'), to_number('0.00001-', '9.999999S'), to_number('5.01-', 'FM9.999999S');
SELECT to_number('5.01-', 'FM9.999999MI'), to_number('5 4 4 4 4 8 . 7 8', '9 9 9 9 9 9 . 9 9'), to_number('.01', 'FM9.99'),
       to_number('.0', '99999999.99999999'), to_number('0', '99.99'), to_number('.-01', 'S99.99'), to_number('.01-', '99.99S');
SELECT to_number(' . 0 1-', ' 9 9 . 9 9 S'), to_number('34,50', '999,99'), to_number('123,000', '999G'), to_number('123456', '999G999'),
       to_number('$1234.56', 'L9,999.99'), to_number('1234.56', '99999V99'), to_number('42nd', '99th'), to_number('123', '9');
SELECT to_number('1234', 'RN');
SELECT to_number('x', '9');
DROP TABLE num_fmt;
