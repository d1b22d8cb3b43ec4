-- information_schema.routines and information_schema.parameters (what ORMs
-- read to find functions): every column of a function with IN, OUT and
-- defaulted parameters, a procedure, and what a role without EXECUTE sees.
CREATE FUNCTION add_tax(amount numeric, rate numeric DEFAULT 0.2, OUT total numeric)
  LANGUAGE sql IMMUTABLE STRICT AS 'SELECT amount * (1 + rate)';
CREATE FUNCTION names_of(text[]) RETURNS SETOF text LANGUAGE sql STABLE SECURITY DEFINER AS 'SELECT unnest($1)';
CREATE PROCEDURE log_it(msg text, INOUT n int) LANGUAGE sql AS 'SELECT 1';
\x on
-- every column but specific_name (name_oid: checked below)
SELECT specific_catalog, specific_schema, routine_catalog, routine_schema, routine_name, routine_type,
  module_catalog, module_schema, module_name, udt_catalog, udt_schema, udt_name, data_type,
  character_maximum_length, character_octet_length, character_set_catalog, character_set_schema,
  character_set_name, collation_catalog, collation_schema, collation_name, numeric_precision,
  numeric_precision_radix, numeric_scale, datetime_precision, interval_type, interval_precision,
  type_udt_catalog, type_udt_schema, type_udt_name, scope_catalog, scope_schema, scope_name,
  maximum_cardinality, dtd_identifier, routine_body, routine_definition, external_name, external_language,
  parameter_style, is_deterministic, sql_data_access, is_null_call, sql_path, schema_level_routine,
  max_dynamic_result_sets, is_user_defined_cast, is_implicitly_invocable, security_type,
  to_sql_specific_catalog, to_sql_specific_schema, to_sql_specific_name, as_locator, created, last_altered,
  new_savepoint_level, is_udt_dependent, result_cast_from_data_type, result_cast_as_locator,
  result_cast_char_max_length, result_cast_char_octet_length, result_cast_char_set_catalog,
  result_cast_char_set_schema, result_cast_char_set_name, result_cast_collation_catalog,
  result_cast_collation_schema, result_cast_collation_name, result_cast_numeric_precision,
  result_cast_numeric_precision_radix, result_cast_numeric_scale, result_cast_datetime_precision,
  result_cast_interval_type, result_cast_interval_precision, result_cast_type_udt_catalog,
  result_cast_type_udt_schema, result_cast_type_udt_name, result_cast_scope_catalog, result_cast_scope_schema,
  result_cast_scope_name, result_cast_maximum_cardinality, result_cast_dtd_identifier
  FROM information_schema.routines WHERE routine_schema = 'public' ORDER BY routine_name;
\x off
SELECT routine_name, specific_name = routine_name || '_' || p.oid AS specific_name_ok
  FROM information_schema.routines r JOIN pg_proc p ON p.proname = r.routine_name
  WHERE routine_schema = 'public' ORDER BY 1;
SELECT r.routine_name, p.ordinal_position, p.parameter_mode, p.is_result, p.as_locator, p.parameter_name,
       p.data_type, p.udt_catalog = current_database() AS udt_catalog_ok, p.udt_schema, p.udt_name, p.dtd_identifier,
       p.parameter_default, p.character_maximum_length, p.numeric_precision, p.interval_type
  FROM information_schema.parameters p JOIN information_schema.routines r USING (specific_name)
  WHERE p.specific_schema = 'public' ORDER BY 1, 2;
SELECT has_function_privilege((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 'EXECUTE'), has_function_privilege((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 'execute, EXECUTE WITH GRANT OPTION');
SELECT has_function_privilege((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 'SELECT');
SELECT pg_get_function_arg_default((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 1), pg_get_function_arg_default((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 2),
       pg_get_function_arg_default((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 3), pg_get_function_arg_default((SELECT oid FROM pg_proc WHERE proname = 'add_tax'), 9);
CREATE ROLE routine_reader;
REVOKE EXECUTE ON FUNCTION names_of(text[]) FROM PUBLIC;
SET ROLE routine_reader;
SELECT routine_name, routine_definition FROM information_schema.routines WHERE routine_schema = 'public' ORDER BY 1;
SELECT DISTINCT specific_name LIKE 'names_of%' FROM information_schema.parameters WHERE specific_schema = 'public';
SELECT has_function_privilege((SELECT oid FROM pg_proc WHERE proname = 'names_of'), 'EXECUTE');
RESET ROLE;
DROP ROLE routine_reader;
DROP FUNCTION add_tax(numeric, numeric);
DROP FUNCTION names_of(text[]);
DROP PROCEDURE log_it(text, int);
