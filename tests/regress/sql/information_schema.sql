-- information_schema's views as ORMs and migration tools read them
CREATE TABLE is_parent (id int PRIMARY KEY, code varchar(20) NOT NULL UNIQUE, price numeric(8,2), made timestamp);
CREATE TABLE is_child (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  parent_id int REFERENCES is_parent (id) ON DELETE CASCADE,
  qty smallint DEFAULT 1 CHECK (qty > 0),
  note text,
  tags text[],
  CONSTRAINT is_child_pair UNIQUE (parent_id, qty)
);
CREATE TABLE is_serial (id serial PRIMARY KEY, f float8, r real, d date, b boolean, c char(3));
CREATE SEQUENCE is_seq START 5 INCREMENT 5;
CREATE VIEW is_view AS SELECT id, code FROM is_parent;
CREATE SCHEMA is_schema;
SELECT schema_name, schema_owner FROM information_schema.schemata WHERE schema_name IN ('public', 'is_schema') ORDER BY 1;
SELECT table_schema, table_name, table_type, is_typed, commit_action
  FROM information_schema.tables WHERE table_name LIKE 'is\_%' ORDER BY table_name;
SELECT table_name, is_insertable_into FROM information_schema.tables
  WHERE table_name LIKE 'is\_%' AND table_type = 'BASE TABLE' ORDER BY table_name;
SELECT table_name, column_name, ordinal_position, column_default, is_nullable, data_type,
       character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix, numeric_scale,
       datetime_precision, udt_schema, udt_name, dtd_identifier, is_identity, identity_generation,
       identity_start, identity_increment, identity_cycle, is_generated, is_updatable
  FROM information_schema.columns WHERE table_name IN ('is_parent', 'is_child', 'is_serial')
  ORDER BY table_name, ordinal_position;
SELECT constraint_name, table_name, constraint_type, is_deferrable, initially_deferred, enforced
  FROM information_schema.table_constraints WHERE table_name IN ('is_parent', 'is_child')
    AND constraint_name NOT LIKE '%not_null' ORDER BY table_name, constraint_name;
SELECT count(*) AS not_null_constraints FROM information_schema.table_constraints
  WHERE table_name IN ('is_parent', 'is_child') AND constraint_name LIKE '%\_not\_null';
SELECT constraint_name, table_name, column_name, ordinal_position, position_in_unique_constraint
  FROM information_schema.key_column_usage WHERE table_name IN ('is_parent', 'is_child')
  ORDER BY table_name, constraint_name, ordinal_position;
SELECT constraint_name, unique_constraint_schema, unique_constraint_name, match_option, update_rule, delete_rule
  FROM information_schema.referential_constraints WHERE constraint_name LIKE 'is\_%';
SELECT table_name, column_name, constraint_name FROM information_schema.constraint_column_usage
  WHERE constraint_name LIKE 'is\_%' ORDER BY constraint_name, column_name;
SELECT constraint_name, check_clause FROM information_schema.check_constraints
  WHERE constraint_name LIKE 'is\_%';
SELECT table_name, view_definition, check_option FROM information_schema.views WHERE table_name = 'is_view';
SELECT sequence_name, data_type, numeric_precision, numeric_precision_radix, numeric_scale, start_value,
       minimum_value, maximum_value, increment, cycle_option
  FROM information_schema.sequences WHERE sequence_name LIKE 'is\_%' ORDER BY 1;
-- privilege filtering: a role sees what it has privileges on
CREATE ROLE is_reader;
GRANT SELECT ON is_parent TO is_reader;
GRANT SELECT (note) ON is_child TO is_reader;
SET ROLE is_reader;
SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'is\_%' ORDER BY 1;
SELECT table_name, column_name FROM information_schema.columns WHERE table_name LIKE 'is\_%' ORDER BY 1, 2;
SELECT constraint_name FROM information_schema.table_constraints WHERE table_name LIKE 'is\_%' ORDER BY 1;
SELECT sequence_name FROM information_schema.sequences WHERE sequence_name LIKE 'is\_%';
RESET ROLE;
-- errors
SELECT * FROM information_schema.nosuch;
DROP VIEW is_view;
DROP TABLE is_child, is_parent, is_serial;
DROP SEQUENCE is_seq;
DROP SCHEMA is_schema;
DROP ROLE is_reader;
