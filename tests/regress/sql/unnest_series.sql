-- unnest(anyarray) and timestamp generate_series
SELECT unnest(ARRAY[1, 2, NULL]);
SELECT * FROM unnest('{{a,b},{c,d}}'::text[]) WITH ORDINALITY;
SELECT x FROM unnest(ARRAY[3, 1, 2]) x ORDER BY 1;
SELECT unnest(ARRAY['x', 'y']), generate_series(1, 3);
SELECT count(*) FROM unnest('{}'::int[]);
SELECT * FROM generate_series(timestamp '2026-01-31', timestamp '2026-05-01', interval '1 month');
SELECT * FROM generate_series(timestamp '2026-01-02', timestamp '2026-01-01', interval '-8 hours');
SELECT generate_series(date '2026-01-01', date '2026-01-03', interval '1 day')::date;
SELECT count(*) FROM generate_series(timestamp '2026-01-01', timestamp '2026-12-31', interval '1 hour');
SELECT generate_series(timestamp '2026-01-01', timestamp '2026-01-02', interval '0');
