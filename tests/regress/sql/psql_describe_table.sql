-- psql's \d NAME and \dp NAME over pg_catalog (queries as psql 15 sends them)
CREATE TABLE dt (id serial PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', price numeric(8,2), tags text[], made timestamp, span interval);
CREATE UNIQUE INDEX dt_name ON dt (name);
CREATE INDEX dt_made ON dt (made DESC);
\d dt
\d dt_name
\dp dt
CREATE ROLE dt_owner;
ALTER TABLE dt OWNER TO dt_owner;
GRANT SELECT ON dt TO PUBLIC;
\dp dt
DROP TABLE dt;
DROP ROLE dt_owner;
