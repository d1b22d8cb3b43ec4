INSERT INTO t VALUES (1, 'a', 1.5), (2, E'b\n', -3e10) ON CONFLICT (id) DO UPDATE SET v = excluded.v RETURNING *;
UPDATE t SET n = n * 2 WHERE id = $1;
DELETE FROM t USING u WHERE t.id = u.id;