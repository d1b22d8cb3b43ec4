// tcop/trigger_plans.h
//
// CREATE [OR REPLACE] TRIGGER and DROP TRIGGER over hearth_trigger
// (catalog/trigger_catalog.h), and the executor's trigger hooks
// (executor/triggers.h): a table's enabled triggers, and one firing run as
// a call of its PL/pgSQL function (plpgsql.h) with NEW, OLD and TG_*.
//
// Process safety: per backend, one statement at a time.
#pragma once

#include <memory>

#include "catalog/relcache.h"
#include "parser/ast.h"
#include "tcop/plan.h"

namespace hearth::tcop {

// CREATE TRIGGER / DROP TRIGGER; nullptr for other statements.
std::unique_ptr<Plan> PlanTriggerStmt(const parser::Statement& stmt);

// ALTER TABLE ... ENABLE/DISABLE TRIGGER name (every trigger when `name`
// is empty): 42704 for an unknown name.
void SetTriggersEnabled(const catalog::RelationEntry& table, const std::string& name, bool enable);

// Installs the executor's trigger hooks for session `s`.
void InstallTriggerHooks(Session& s);

}  // namespace hearth::tcop
