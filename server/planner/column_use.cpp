// planner/column_use.cpp
//
// Principal entry points: ColumnUseRecorder, NoteRelationUse,
// NoteColumnRead, NoteModifiedColumn.
#include "planner/column_use.h"

#include <algorithm>

namespace hearth::planner {

namespace {

ColumnUseRecorder* g_recorder = nullptr;
types::Oid g_view = 0;        // the view whose query is being planned (0: none)
types::Oid g_view_owner = 0;  // its owner
// INSERT / UPDATE / DELETE through a view: its base relation, the view, its owner.
types::Oid g_target_base = 0, g_target_view = 0, g_target_owner = 0;

void InsertSorted(std::vector<int>& v, int x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x) v.insert(it, x);
}

}  // namespace

ColumnUseRecorder::ColumnUseRecorder() : previous_(g_recorder) { g_recorder = this; }

ColumnUseRecorder::~ColumnUseRecorder() { g_recorder = previous_; }

int ColumnUseRecorder::NewUse(types::Oid relid, bool target) {
  if (target) {
    for (size_t i = 0; i < uses_.size(); ++i) {
      if (uses_[i].target && uses_[i].relid == relid) return static_cast<int>(i);
    }
  }
  if (target && relid == g_target_base) {
    uses_.push_back(RelationUse{relid, target, {}, {}, g_target_owner, g_target_view});
  } else {
    uses_.push_back(RelationUse{relid, target, {}, {}, g_view_owner, g_view});
  }
  return static_cast<int>(uses_.size()) - 1;
}

void ColumnUseRecorder::Read(int use, int attnum) {
  if (use >= 0 && static_cast<size_t>(use) < uses_.size()) InsertSorted(uses_[static_cast<size_t>(use)].read, attnum);
}

void ColumnUseRecorder::Modified(types::Oid relid, int attnum) {
  InsertSorted(uses_[static_cast<size_t>(NewUse(relid, true))].modified, attnum);
}

ViewExpansionScope::ViewExpansionScope(types::Oid view, types::Oid owner)
    : saved_view_(g_view), saved_owner_(g_view_owner) {
  g_view = view;
  g_view_owner = owner;
}

ViewExpansionScope::~ViewExpansionScope() {
  g_view = saved_view_;
  g_view_owner = saved_owner_;
}

ViewTargetScope::ViewTargetScope(types::Oid base, types::Oid view, types::Oid owner)
    : saved_{g_target_base, g_target_view, g_target_owner} {
  g_target_base = base;
  g_target_view = view;
  g_target_owner = owner;
}

ViewTargetScope::~ViewTargetScope() {
  g_target_base = saved_[0];
  g_target_view = saved_[1];
  g_target_owner = saved_[2];
}

int NoteRelationUse(types::Oid relid, bool target) {
  return g_recorder == nullptr ? -1 : g_recorder->NewUse(relid, target);
}

std::vector<ColumnOrigin> OriginsOf(int use, size_t ncolumns) {
  std::vector<ColumnOrigin> out;
  if (use < 0) return out;
  for (size_t i = 0; i < ncolumns; ++i) out.push_back(ColumnOrigin{use, static_cast<int>(i) + 1});
  return out;
}

void NoteColumnRead(const ColumnOrigin& origin) {
  if (g_recorder != nullptr && origin.use >= 0) g_recorder->Read(origin.use, origin.attnum);
}

void NoteModifiedColumn(types::Oid relid, int attnum) {
  if (g_recorder != nullptr) g_recorder->Modified(relid, attnum);
}

}  // namespace hearth::planner
