// access/transam/combocid.h
//
// Combo command ids: a tuple header has one command-id field, but a tuple
// inserted and then deleted by the same transaction needs both its cmin and
// its cmax. The deleter then stores a combo id (with the HEAP_COMBOCID
// infomask bit) that maps, in this backend's memory, to the (cmin, cmax)
// pair. Only the own transaction ever needs the command ids of its tuples,
// so the map is private and reset at transaction end.
//
// Process safety: per-backend state, single-threaded.
#pragma once

#include "access/transam/transam.h"

namespace hearth::access {

// Returns the combo id for (cmin, cmax), creating it if new.
CommandId GetComboCommandId(CommandId cmin, CommandId cmax);
// REQUIRES: `combo` came from GetComboCommandId in this transaction.
CommandId ComboCommandIdGetCmin(CommandId combo);
CommandId ComboCommandIdGetCmax(CommandId combo);
// Forgets every combo id (transaction end).
void AtEOXactComboCid();

}  // namespace hearth::access
