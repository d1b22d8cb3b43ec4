// tcop/plpgsql_conditions.cpp
//
// Principal entry points: ConditionSqlstate (PostgreSQL's exception
// condition names, the ones bodies commonly name), StmtContextName (the
// statement names of PL/pgSQL's CONTEXT lines).
#include <string_view>

#include "tcop/plpgsql_ast.h"

namespace hearth::tcop::plpgsql {

namespace {

struct Condition {
  std::string_view name;
  std::string_view sqlstate;
};

constexpr Condition kConditions[] = {
    {"successful_completion", "00000"},
    {"warning", "01000"},
    {"no_data", "02000"},
    {"sql_statement_not_yet_complete", "03000"},
    {"connection_exception", "08000"},
    {"feature_not_supported", "0A000"},
    {"invalid_transaction_initiation", "0B000"},
    {"cardinality_violation", "21000"},
    {"data_exception", "22000"},
    {"string_data_right_truncation", "22001"},
    {"null_value_no_indicator_parameter", "22002"},
    {"numeric_value_out_of_range", "22003"},
    {"null_value_not_allowed", "22004"},
    {"invalid_datetime_format", "22007"},
    {"datetime_field_overflow", "22008"},
    {"division_by_zero", "22012"},
    {"invalid_parameter_value", "22023"},
    {"character_not_in_repertoire", "22021"},
    {"invalid_escape_sequence", "22025"},
    {"substring_error", "22011"},
    {"invalid_regular_expression", "2201B"},
    {"zero_length_character_string", "2200F"},
    {"invalid_datetime_format", "22007"},
    {"array_subscript_error", "2202E"},
    {"invalid_text_representation", "22P02"},
    {"invalid_binary_representation", "22P03"},
    {"integrity_constraint_violation", "23000"},
    {"restrict_violation", "23001"},
    {"not_null_violation", "23502"},
    {"foreign_key_violation", "23503"},
    {"unique_violation", "23505"},
    {"check_violation", "23514"},
    {"exclusion_violation", "23P01"},
    {"invalid_cursor_state", "24000"},
    {"invalid_transaction_state", "25000"},
    {"active_sql_transaction", "25001"},
    {"read_only_sql_transaction", "25006"},
    {"in_failed_sql_transaction", "25P02"},
    {"invalid_authorization_specification", "28000"},
    {"invalid_cursor_name", "34000"},
    {"transaction_rollback", "40000"},
    {"serialization_failure", "40001"},
    {"deadlock_detected", "40P01"},
    {"syntax_error_or_access_rule_violation", "42000"},
    {"syntax_error", "42601"},
    {"insufficient_privilege", "42501"},
    {"undefined_column", "42703"},
    {"undefined_function", "42883"},
    {"undefined_table", "42P01"},
    {"undefined_parameter", "42P02"},
    {"undefined_object", "42704"},
    {"duplicate_column", "42701"},
    {"duplicate_cursor", "42P03"},
    {"duplicate_function", "42723"},
    {"duplicate_table", "42P07"},
    {"duplicate_object", "42710"},
    {"ambiguous_column", "42702"},
    {"ambiguous_function", "42725"},
    {"datatype_mismatch", "42804"},
    {"wrong_object_type", "42809"},
    {"invalid_function_definition", "42P13"},
    {"program_limit_exceeded", "54000"},
    {"object_not_in_prerequisite_state", "55000"},
    {"object_in_use", "55006"},
    {"lock_not_available", "55P03"},
    {"operator_intervention", "57000"},
    {"query_canceled", "57014"},
    {"system_error", "58000"},
    {"internal_error", "XX000"},
    {"plpgsql_error", "P0000"},
    {"raise_exception", "P0001"},
    {"no_data_found", "P0002"},
    {"too_many_rows", "P0003"},
    {"assert_failure", "P0004"},
};

}  // namespace

std::string ConditionSqlstate(const std::string& name) {
  for (const Condition& c : kConditions) {
    if (c.name == name) return std::string(c.sqlstate);
  }
  return "";
}

const char* StmtContextName(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::kBlock: return "statement block";
    case StmtKind::kAssign: return "assignment";
    case StmtKind::kIf: return "IF";
    case StmtKind::kCase: return "CASE";
    case StmtKind::kLoop: return "LOOP";
    case StmtKind::kWhile: return "WHILE";
    case StmtKind::kForInt: return "FOR with integer loop variable";
    case StmtKind::kForQuery: return s.dynamic ? "FOR over EXECUTE statement" : "FOR over SELECT rows";
    case StmtKind::kForEach: return "FOREACH over array";
    case StmtKind::kExit: return "EXIT";
    case StmtKind::kContinue: return "CONTINUE";
    case StmtKind::kReturn: return "RETURN";
    case StmtKind::kReturnNext: return "RETURN NEXT";
    case StmtKind::kReturnQuery: return "RETURN QUERY";
    case StmtKind::kPerform: return "PERFORM";
    case StmtKind::kSql: return "SQL statement";
    case StmtKind::kExecute: return "EXECUTE";
    case StmtKind::kGetDiagnostics: return "GET DIAGNOSTICS";
    case StmtKind::kRaise: return "RAISE";
    case StmtKind::kNull: return "NULL";
    case StmtKind::kAssert: return "ASSERT";
  }
  return "statement";
}

}  // namespace hearth::tcop::plpgsql
