// server/executor/triggers.cpp
//
// Principal entry points: SetTriggerHooks, TableTriggers.
#include "executor/triggers.h"

#include <algorithm>

namespace hearth::executor {

namespace {

// PostgreSQL's tgtype bits (catalog/trigger_catalog.h).
constexpr int kRow = 1 << 0;
constexpr int kBefore = 1 << 1;
constexpr int kInsert = 1 << 2;
constexpr int kDelete = 1 << 3;
constexpr int kUpdate = 1 << 4;
constexpr int kInstead = 1 << 6;

TriggerHooks& Hooks() {
  static TriggerHooks hooks;
  return hooks;
}

int EventBit(TriggerEvent e) {
  switch (e) {
    case TriggerEvent::kInsert: return kInsert;
    case TriggerEvent::kUpdate: return kUpdate;
    case TriggerEvent::kDelete: return kDelete;
  }
  return 0;
}

}  // namespace

void SetTriggerHooks(TriggerHooks hooks) { Hooks() = std::move(hooks); }

TableTriggers::TableTriggers(const TableInfo& table, TriggerEvent event, std::vector<bool> targets)
    : table_(table), event_(event), targets_(std::move(targets)) {
  if (!Hooks().list || table.oid < 16384) return;  // catalogs have no triggers
  for (TriggerDesc& t : Hooks().list(table)) {
    if (!(t.type & EventBit(event)) || (t.type & kInstead)) continue;
    if (event == TriggerEvent::kUpdate && !t.update_columns.empty() && !targets_.empty()) {
      const bool named = std::any_of(t.update_columns.begin(), t.update_columns.end(), [&](int c) {
        return c >= 0 && static_cast<size_t>(c) < targets_.size() && targets_[static_cast<size_t>(c)];
      });
      if (!named) continue;
    }
    before_row_ |= (t.type & kRow) && (t.type & kBefore);
    after_row_ |= (t.type & kRow) && !(t.type & kBefore);
    triggers_.push_back(std::move(t));
  }
}

bool TableTriggers::Applies(const TriggerDesc& t, bool before, bool row_level) const {
  return ((t.type & kBefore) != 0) == before && ((t.type & kRow) != 0) == row_level;
}

Row TableTriggers::TableColumns(const Row& row) const {
  const size_t n = std::min(row.size(), table_.columns.size());
  return Row(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(n));
}

void TableTriggers::BeforeStatement() {
  for (const TriggerDesc& t : triggers_) {
    if (!Applies(t, true, false)) continue;
    TriggerFiring f{&t, &table_, event_, true, false, nullptr, nullptr};
    Hooks().fire(f, &scratch_);
  }
}

bool TableTriggers::BeforeRow(const Row* old_row, Row* new_row) {
  if (!before_row_) return true;
  Row old_cols;
  if (old_row != nullptr) old_cols = TableColumns(*old_row);
  for (const TriggerDesc& t : triggers_) {
    if (!Applies(t, true, true)) continue;
    TriggerFiring f{&t, &table_, event_, true, true, old_row != nullptr ? &old_cols : nullptr, new_row};
    switch (Hooks().fire(f, &scratch_)) {
      case TriggerOutcome::kSkip: return false;
      case TriggerOutcome::kNotFired: break;
      case TriggerOutcome::kKeep:
        if (new_row != nullptr) {
          std::copy(scratch_.begin(), scratch_.begin() + static_cast<std::ptrdiff_t>(std::min(scratch_.size(), new_row->size())),
                    new_row->begin());
        }
        break;
    }
  }
  return true;
}

void TableTriggers::AfterRow(const Row* old_row, const Row* new_row) {
  if (!after_row_) return;
  Pending p;
  if (old_row != nullptr) {
    p.old_row = TableColumns(*old_row);
    p.has_old = true;
  }
  if (new_row != nullptr) {
    p.new_row = TableColumns(*new_row);
    p.has_new = true;
  }
  queue_.push_back(std::move(p));
}

void TableTriggers::Finish() {
  if (triggers_.empty()) return;
  std::vector<Pending> queue = std::move(queue_);
  queue_.clear();
  for (const Pending& p : queue) {
    for (const TriggerDesc& t : triggers_) {
      if (!Applies(t, false, true)) continue;
      TriggerFiring f{&t, &table_, event_, false, true, p.has_old ? &p.old_row : nullptr,
                      p.has_new ? &p.new_row : nullptr};
      Hooks().fire(f, &scratch_);
    }
  }
  for (const TriggerDesc& t : triggers_) {
    if (!Applies(t, false, false)) continue;
    TriggerFiring f{&t, &table_, event_, false, false, nullptr, nullptr};
    Hooks().fire(f, &scratch_);
  }
}

}  // namespace hearth::executor
