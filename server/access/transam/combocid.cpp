// access/transam/combocid.cpp
//
// Principal entry points: GetComboCommandId, ComboCommandIdGetCmin/Cmax.
#include "access/transam/combocid.h"

#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hearth::access {

namespace {

std::vector<std::pair<CommandId, CommandId>> g_combos;
std::unordered_map<uint64_t, CommandId> g_index;

uint64_t Key(CommandId cmin, CommandId cmax) { return (static_cast<uint64_t>(cmin) << 32) | cmax; }

}  // namespace

CommandId GetComboCommandId(CommandId cmin, CommandId cmax) {
  auto [it, inserted] = g_index.try_emplace(Key(cmin, cmax), static_cast<CommandId>(g_combos.size()));
  if (inserted) g_combos.emplace_back(cmin, cmax);
  return it->second;
}

CommandId ComboCommandIdGetCmin(CommandId combo) {
  if (combo >= g_combos.size()) throw std::logic_error("unknown combo command id");
  return g_combos[combo].first;
}

CommandId ComboCommandIdGetCmax(CommandId combo) {
  if (combo >= g_combos.size()) throw std::logic_error("unknown combo command id");
  return g_combos[combo].second;
}

void AtEOXactComboCid() {
  g_combos.clear();
  g_index.clear();
}

}  // namespace hearth::access
