-- psql 15's \du, \dg, \dp, \ds, \dv, \dt+ with roles, privileges and comments
CREATE TABLE ls_t (id int PRIMARY KEY, v int);
CREATE SEQUENCE ls_seq;
CREATE VIEW ls_v AS SELECT id FROM ls_t;
CREATE ROLE ls_role LOGIN CREATEDB CONNECTION LIMIT 5;
CREATE ROLE ls_group;
GRANT ls_group TO ls_role;
COMMENT ON ROLE ls_role IS 'a login role';
COMMENT ON TABLE ls_t IS 'listed';
GRANT SELECT ON ls_t TO ls_role;
GRANT SELECT, UPDATE ON ls_seq TO ls_group;
\du ls_*
\du+ ls_*
\dg ls_*
\dp ls_*
\ds ls_*
\dv ls_*
\dt+ ls_t
\dx nosuch
DROP VIEW ls_v;
DROP TABLE ls_t;
DROP SEQUENCE ls_seq;
DROP ROLE ls_role;
DROP ROLE ls_group;
